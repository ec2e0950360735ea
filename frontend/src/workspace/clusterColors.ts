// A colour per cluster that its neighbours do not share: a categorical palette of well-separated
// hues (Tableau 10: light tints to highlight text, the dark shades for borders), and once the
// clusters outnumber it, a second cue that shows in the text as well as in the bank: the fill
// (plain, hatched one way, hatched the other way, dotted) with the underline's pattern (solid,
// dashed, dotted, double). A 2 px underline's pattern alone is hard to tell at reading
// distance (a reader took the 11th cluster for the 1st); a hatched highlight is not.
//
// Each cluster takes the lowest slot free when it first shows, so the clusters on the screen
// use the palette's first colours and never two the same colour with the same pattern while
// fewer than PALETTE.length x PATTERNS.length exist. A cluster keeps its slot while the
// workspace is open (merging or deleting one recolours no other); a reload hands slots out
// again, in creation order.

import type { Id } from "../api/types";
import type { AnnotationState } from "../domain/state";

export const PALETTE: readonly { background: string; border: string }[] = [
  { background: "#aec7e8", border: "#1f77b4" }, // blue
  { background: "#ffbb78", border: "#c25e00" }, // orange
  { background: "#98df8a", border: "#2ca02c" }, // green
  { background: "#ff9896", border: "#d62728" }, // red
  { background: "#c5b0d5", border: "#9467bd" }, // purple
  { background: "#d9bfb8", border: "#8c564b" }, // brown
  { background: "#f7b6d2", border: "#c2388a" }, // pink
  { background: "#d0d0d0", border: "#6b6b6b" }, // grey
  { background: "#e5e59a", border: "#8f900f" }, // olive
  { background: "#9edae5", border: "#128a98" }, // cyan
];

export const PATTERNS = ["solid", "dashed", "dotted", "double"] as const;
export type BorderPattern = (typeof PATTERNS)[number];

export interface ClusterColor {
  background: string;
  border: string;
  /** The second cue: repeats of a colour differ by the pattern of their border. */
  pattern: BorderPattern;
  /** The highlight as a CSS `background`: the tint, plain on the first round of the palette,
   * hatched or dotted (white over the tint, so the text stays readable) on the later ones. */
  fill: string;
  /** The slot: colour PALETTE[slot % n], pattern by how many times the palette went round. */
  slot: number;
}

/** The fill of each round of the palette over the tint `bg`. */
const FILLS: readonly ((bg: string) => string)[] = [
  (bg) => bg,
  (bg) => `repeating-linear-gradient(135deg, ${bg} 0 4px, #fff 4px 6px)`,
  (bg) => `repeating-linear-gradient(45deg, ${bg} 0 4px, #fff 4px 6px)`,
  (bg) => `radial-gradient(circle, #fff 1.2px, transparent 1.8px) 0 0 / 5px 5px, ${bg}`,
];

/** The colour of a slot. */
export function slotColor(slot: number): ClusterColor {
  const base = PALETTE[slot % PALETTE.length]!;
  const round = Math.floor(slot / PALETTE.length) % PATTERNS.length;
  return { ...base, pattern: PATTERNS[round]!, fill: FILLS[round]!(base.background), slot };
}

/** A swatch's style (bank, tree, pickers): the same fill and border as the text shows. */
export function swatchStyle(color: ClusterColor): Record<string, string> {
  return { background: color.fill, borderColor: color.border, borderStyle: color.pattern };
}

export interface ClusterColors {
  /** The colour of a cluster (clusters still being created get theirs once saved). */
  of(cluster: Id): ClusterColor;
}

/**
 * Slots for the clusters of `state()`: every existing cluster gets one at once, by creation
 * order (id); a new cluster gets the lowest slot that no existing cluster holds when it is
 * first asked for. Not reactive on purpose: a slot never changes once given, so reading one
 * during a render changes nothing that render depends on.
 */
export function createClusterColors(state: () => Pick<AnnotationState, "clusters">): ClusterColors {
  const slots = new Map<Id, number>();
  const give = (cluster: Id) => {
    const live = state().clusters;
    const used = new Set<number>();
    for (const [id, slot] of slots) {
      if (live.has(id)) used.add(slot);
      else slots.delete(id);
    }
    let slot = 0;
    while (used.has(slot)) slot++;
    slots.set(cluster, slot);
    return slot;
  };
  for (const id of [...state().clusters.keys()].sort((a, b) => a - b)) slots.set(id, slots.size);
  return {
    of(cluster) {
      return slotColor(slots.get(cluster) ?? give(cluster));
    },
  };
}
