// The CEAF alignment of one annotator's clusters to the adjudicated clusters: the one-to-one
// alignment that maximises the sum of phi4(k, r) = 2 |k ∩ r| / (|k| + |r|), as CEAF-e does
// (annotation/domain/metrics/coreference.py). It runs in the browser because the adjudicated
// clusters change with every edit and the colours and support counts follow them live.
//
// Clusters that share no mention have phi4 = 0 and an optimal alignment never needs such a
// pair, so the problem is a best matching on the sparse graph of overlapping clusters
// (`bestMatching`), not an assignment over the dense matrix of all pairs. Pairs of phi4 = 0
// are never reported as aligned.

export type Key = number;

export interface ClusterSet {
  id: number;
  members: readonly Key[];
}

export function phi4(common: number, a: number, b: number): number {
  return a + b === 0 ? 0 : (2 * common) / (a + b);
}

/**
 * The best matching of a sparse bipartite graph: `edges[row]` lists `[column, weight]` with
 * weight in (0, 1]; each row takes at most one column and each column at most one row, and the
 * sum of the weights taken is the largest possible. Returns each row's column, or -1.
 *
 * Successive shortest paths with Dijkstra and potentials (the Hungarian method on a sparse
 * graph): every row also has a column of its own meaning "unmatched", and every cost is
 * 1 - weight (1 for "unmatched"), so costs are non-negative and the total cost differs from
 * the weight taken by the constant number of rows. A search stops at the first free column,
 * which is never further than the row's own "unmatched": on a clustering this visits a few
 * clusters per row, where a dense matrix would scan every column for every row.
 */
export function bestMatching(edges: readonly (readonly (readonly [number, number])[])[], columns: number): number[] {
  const n = edges.length;
  const total = columns + n; // column columns + i: row i unmatched
  const cost = (row: number, k: number) => (k === -1 ? 1 : 1 - edges[row]![k]![1]);
  const u = new Float64Array(n);
  const v = new Float64Array(total);
  const rowOf = new Int32Array(total).fill(-1);
  const colOf = new Int32Array(n).fill(-1);
  const dist = new Float64Array(total).fill(Infinity);
  const prev = new Int32Array(total).fill(-1);
  const done = new Uint8Array(total);
  for (let start = 0; start < n; start++) {
    // The columns reached, in the order first reached; the next to settle is the nearest one
    // (ties: the first reached). Searches reach a handful of columns: a scan beats a heap.
    const touched: number[] = [];
    const relax = (row: number, base: number) => {
      const list = edges[row]!;
      for (let k = -1; k < list.length; k++) {
        const col = k === -1 ? columns + row : list[k]![0];
        if (done[col]) continue;
        const d = base + cost(row, k) - u[row]! - v[col]!;
        if (d < dist[col]!) {
          if (dist[col] === Infinity) touched.push(col);
          dist[col] = d;
          prev[col] = row;
        }
      }
    };
    relax(start, 0);
    let sink = -1;
    let shortest = 0;
    const settled: number[] = [];
    for (;;) {
      let col = -1;
      for (const c of touched) if (!done[c] && (col === -1 || dist[c]! < dist[col]!)) col = c;
      if (col === -1) break;
      const d = dist[col]!;
      done[col] = 1;
      settled.push(col);
      if (rowOf[col] === -1) {
        sink = col;
        shortest = d;
        break;
      }
      relax(rowOf[col]!, d);
    }
    // Potentials keep every reduced cost non-negative for the next searches.
    u[start] = u[start]! + shortest;
    for (const col of settled) {
      if (col === sink) continue;
      const gain = shortest - dist[col]!;
      v[col] = v[col]! - gain;
      u[rowOf[col]!] = u[rowOf[col]!]! + gain;
    }
    for (let col = sink; ; ) {
      const row = prev[col]!;
      const next = colOf[row]!;
      rowOf[col] = row;
      colOf[row] = col;
      if (row === start) break;
      col = next;
    }
    for (const col of touched) {
      dist[col] = Infinity;
      done[col] = 0;
    }
  }
  return Array.from(colOf, (col) => (col < columns ? col : -1));
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
  bestMatching(edges, right.length).forEach((j, i) => {
    if (j >= 0) aligned.set(left[i]!.id, right[j]!.id);
  });
  return aligned;
}
