// CoRefi's tour steps name parts of CoRefi's screen (Vuetify classes); these are the same
// parts of this workspace. A step whose part is not on the screen (no hierarchy in an
// anaphora project) is anchored to the workspace itself.

const TARGETS: Record<string, string[]> = {
  "#dashboard": [".ws-main"],
  ".cluster": [".bank"],
  ".v-chip--active": [".bank-row.is-selected", ".bank"],
  ".current": [".m.is-current"],
  ".hypernym": [".tree-panel"],
  ".reset": [".tree-panel .drop-root", ".tree-panel"],
};

export function tourTarget(target: string, root: ParentNode = document): Element | null {
  for (const selector of TARGETS[target] ?? []) {
    const found = root.querySelector(selector);
    if (found) return found;
  }
  return root.querySelector(".ws");
}

export interface Placement {
  top: number;
  left: number;
}

/** Where the step's card goes: beside its target (below it, else above), inside the window. */
export function placeCard(
  target: { top: number; bottom: number; left: number; width: number; height: number },
  card: { width: number; height: number },
  view: { width: number; height: number },
): Placement {
  const margin = 10;
  const big = target.height > view.height / 2;
  let top = big ? target.top + margin : target.bottom + margin;
  if (!big && top + card.height > view.height - margin) top = target.top - card.height - margin;
  top = Math.min(Math.max(margin, top), view.height - card.height - margin);
  let left = target.left + (big ? target.width - card.width - margin : 0);
  left = Math.min(Math.max(margin, left), view.width - card.width - margin);
  return { top, left };
}
