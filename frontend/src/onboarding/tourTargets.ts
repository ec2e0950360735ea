// Where the tour's card goes: beside the part of the workspace its step names
// (./workspaceTour.ts); a step whose part is not on the screen is anchored to the workspace.

export function tourTarget(target: string, root: ParentNode = document): Element | null {
  return root.querySelector(target) ?? root.querySelector(".ws");
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
