// The CEAF alignment of one annotator's clusters to the adjudicated clusters: the one-to-one
// alignment that maximises the sum of phi4(k, r) = 2 |k ∩ r| / (|k| + |r|), as CEAF-e does
// (annotation/domain/metrics/coreference.py). It runs in the browser because the adjudicated
// clusters change with every edit and the colours and support counts follow them live.
//
// Clusters that share no mention have phi4 = 0, so an optimal alignment pairs only clusters
// inside one connected component of the overlap graph: each component is solved on its own
// (most are a pair or a star), the rare tangled one with the Hungarian algorithm. Pairs of
// phi4 = 0 are never reported as aligned.

export type Key = number;

export interface ClusterSet {
  id: number;
  members: readonly Key[];
}

export function phi4(common: number, a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * common) / (a + b);
}

/**
 * Minimum-cost assignment of a rows x cols matrix with rows <= cols (Kuhn-Munkres with
 * potentials, O(rows^2 cols)); returns the column of each row.
 */
export function hungarian(cost: readonly (readonly number[])[]): number[] {
  const n = cost.length;
  const m = n ? cost[0]!.length : 0;
  if (n > m) throw new Error("hungarian: more rows than columns");
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(m + 1).fill(0);
  const p = new Array<number>(m + 1).fill(0); // p[j]: row (1-based) matched to column j
  const way = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(m + 1).fill(Infinity);
    const used = new Array<boolean>(m + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[i0 - 1]![j - 1]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const columnOf = new Array<number>(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]! > 0) columnOf[p[j]! - 1] = j - 1;
  return columnOf;
}

/**
 * annotator cluster id -> adjudicated cluster id, for the pairs of an optimal one-to-one
 * alignment that share at least one mention. Deterministic: inputs are taken by id.
 */
export function alignClusters(annotator: readonly ClusterSet[], adjudicated: readonly ClusterSet[]): Map<number, number> {
  const left = [...annotator].sort((a, b) => a.id - b.id);
  const right = [...adjudicated].sort((a, b) => a.id - b.id);
  const rightOf = new Map<Key, number>(); // mention -> index in right
  right.forEach((cluster, j) => {
    for (const key of cluster.members) rightOf.set(key, j);
  });
  // overlaps[i]: right index -> common mentions
  const overlaps = left.map((cluster) => {
    const common = new Map<number, number>();
    for (const key of cluster.members) {
      const j = rightOf.get(key);
      if (j !== undefined) common.set(j, (common.get(j) ?? 0) + 1);
    }
    return common;
  });
  // Connected components over left i and right j (union-find; right j is node left.length + j).
  const parent = Array.from({ length: left.length + right.length }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  overlaps.forEach((common, i) => {
    for (const j of common.keys()) {
      const a = find(i);
      const b = find(left.length + j);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  const components = new Map<number, { rows: number[]; cols: number[] }>();
  overlaps.forEach((common, i) => {
    if (common.size === 0) return;
    const root = find(i);
    const c = components.get(root) ?? { rows: [], cols: [] };
    c.rows.push(i);
    components.set(root, c);
  });
  for (let j = 0; j < right.length; j++) {
    const c = components.get(find(left.length + j));
    if (c) c.cols.push(j);
  }
  const aligned = new Map<number, number>();
  const score = (i: number, j: number) =>
    phi4(overlaps[i]!.get(j) ?? 0, left[i]!.members.length, right[j]!.members.length);
  for (const { rows, cols } of components.values()) {
    if (rows.length === 1 || cols.length === 1) {
      // a star: the best single pair (ties: the smallest ids)
      let best: [number, number] | null = null;
      let bestScore = 0;
      for (const i of rows)
        for (const j of cols) {
          const s = score(i, j);
          if (s > bestScore) {
            bestScore = s;
            best = [i, j];
          }
        }
      if (best) aligned.set(left[best[0]]!.id, right[best[1]]!.id);
      continue;
    }
    const tall = rows.length > cols.length;
    const [r, c] = tall ? [cols, rows] : [rows, cols];
    const cost = r.map((a) => c.map((b) => -(tall ? score(b, a) : score(a, b))));
    hungarian(cost).forEach((k, x) => {
      if (k < 0) return;
      const [i, j] = tall ? [c[k]!, r[x]!] : [r[x]!, c[k]!];
      if (score(i, j) > 0) aligned.set(left[i]!.id, right[j]!.id);
    });
  }
  return aligned;
}
