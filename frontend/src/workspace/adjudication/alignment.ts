// The alignment of one annotator's clusters to the adjudicated clusters: one-to-one, scored by
// phi4(k, r) = 2 |k ∩ r| / (|k| + |r|), as CEAF-e scores a pair
// (scorer/corefscore/metrics/coreference.py), taken best pair first (`stableMatching` says why
// not CEAF-e's largest total). It runs in the browser because the adjudicated clusters change
// with every edit and the colours and support counts follow them live.
//
// Clusters that share no mention have phi4 = 0 and are never aligned, so only the pairs of
// overlapping clusters are listed: a few per cluster, not the dense matrix of all pairs.

export type Key = number;

export interface ClusterSet {
  id: number;
  members: readonly Key[];
}

export function phi4(common: number, a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * common) / (a + b);
}

/**
 * A stable matching of a sparse bipartite graph: `edges[row]` lists `[column, weight]` with
 * weight in (0, 1]; pairs are taken best first (ties: the smaller row, then the smaller
 * column) while both sides are free. Returns each row's column, or -1.
 *
 * Not the matching of the largest total (CEAF-e's): that one trades a strong pair for two weak
 * ones, so an edit elsewhere could move an annotator's large cluster onto a one-mention
 * cluster it barely touches. On the demo, moving "edge-conditioned message
 * passing network" into "message passing framework", as annotator 1 had it, realigned
 * annotator 2's four-mention "message passing framework" cluster ({framework, scheme, MPNN,
 * sampling-based aggregation}, phi4 0.75 with it) to the one-mention "sampling-based
 * aggregation" (0.4), because their lone {edge-conditioned MPN} then took the framework
 * (0.4): 0.8 > 0.75. Every mention of that cluster became a disagreement and the counter rose
 * from 10 to 18. Best-first keeps a pair that is the best for both of its sides whatever
 * happens elsewhere, which is what a colour and a "support" must do while the adjudicator
 * edits.
 */
export function stableMatching(edges: readonly (readonly (readonly [number, number])[])[], columns: number): number[] {
  const pairs: [number, number, number][] = [];
  edges.forEach((list, row) => {
    for (const [column, weight] of list) pairs.push([weight, row, column]);
  });
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2]);
  const colOf = new Array<number>(edges.length).fill(-1);
  const taken = new Uint8Array(columns);
  for (const [, row, column] of pairs) {
    if (colOf[row] !== -1 || taken[column]) continue;
    colOf[row] = column;
    taken[column] = 1;
  }
  return colOf;
}

/**
 * annotator cluster id -> adjudicated cluster id, for the pairs of a stable one-to-one
 * alignment (`stableMatching`) that share at least one mention. Deterministic: inputs are
 * taken by id.
 */
export function alignClusters(annotator: readonly ClusterSet[], adjudicated: readonly ClusterSet[]): Map<number, number> {
  const left = [...annotator].sort((a, b) => a.id - b.id);
  const right = [...adjudicated].sort((a, b) => a.id - b.id);
  const rightOf = new Map<Key, number>(); // mention -> index in right
  right.forEach((cluster, j) => {
    for (const key of cluster.members) rightOf.set(key, j);
  });
  const edges = left.map((cluster) => {
    const common = new Map<number, number>(); // index in right -> shared mentions
    for (const key of cluster.members) {
      const j = rightOf.get(key);
      if (j !== undefined) common.set(j, (common.get(j) ?? 0) + 1);
    }
    const out: [number, number][] = [];
    for (const [j, shared] of common) out.push([j, phi4(shared, cluster.members.length, right[j]!.members.length)]);
    return out;
  });
  const aligned = new Map<number, number>();
  stableMatching(edges, right.length).forEach((j, i) => {
    if (j >= 0) aligned.set(left[i]!.id, right[j]!.id);
  });
  return aligned;
}
