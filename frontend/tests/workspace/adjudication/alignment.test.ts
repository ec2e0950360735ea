import { describe, expect, it } from "vitest";
import { alignClusters, phi4, stableMatching } from "../../../src/workspace/adjudication/alignment";

/** The best total phi4 by trying every one-to-one alignment (small cases only). */
function bruteForceBest(left: number[][], right: number[][]): number {
  const score = (a: number[], b: number[]) => phi4(a.filter((m) => b.includes(m)).length, a.length, b.length);
  let best = 0;
  const walk = (i: number, used: Set<number>, total: number) => {
    if (i === left.length) {
      best = Math.max(best, total);
      return;
    }
    walk(i + 1, used, total);
    right.forEach((r, j) => {
      if (used.has(j)) return;
      used.add(j);
      walk(i + 1, used, total + score(left[i]!, r));
      used.delete(j);
    });
  };
  walk(0, new Set(), 0);
  return best;
}

const sets = (clusters: number[][], offset = 0) => clusters.map((members, i) => ({ id: i + offset, members }));

function total(left: number[][], right: number[][], aligned: Map<number, number>): number {
  let sum = 0;
  for (const [i, j] of aligned) {
    const a = left[i]!;
    const b = right[j - 100]!;
    sum += phi4(a.filter((m) => b.includes(m)).length, a.length, b.length);
  }
  return sum;
}

describe("stableMatching", () => {
  it("takes the best pair first, then the best of what is left", () => {
    // 0.9 (row 1, column 0) first; row 0 then takes column 1 (0.6)
    expect(stableMatching([[[0, 0.8], [1, 0.6]], [[0, 0.9], [1, 0.1]]], 2)).toEqual([1, 0]);
  });

  it("leaves a row unmatched when its only column went to a better pair", () => {
    expect(stableMatching([[[0, 0.3]], [[0, 0.7]]], 1)).toEqual([-1, 0]);
  });

  it("keeps a strong pair rather than trading it for two weak ones", () => {
    // The largest total would be 0.4 + 0.4 (rows 0-1 and 1-0); the stable one keeps 0.75.
    expect(stableMatching([[[0, 0.75], [1, 0.4]], [[0, 0.4]]], 2)).toEqual([0, -1]);
  });

  it("leaves rows without edges unmatched", () => {
    expect(stableMatching([[], [[1, 0.5]]], 2)).toEqual([-1, 1]);
  });
});

describe("alignClusters", () => {
  it("aligns identical clusterings cluster to cluster", () => {
    const aligned = alignClusters(sets([[1, 2], [3], [4, 5, 6]]), sets([[4, 5, 6], [1, 2], [3]], 100));
    expect([...aligned.entries()].sort()).toEqual([[0, 101], [1, 102], [2, 100]]);
  });

  it("never aligns clusters that share no mention", () => {
    expect(alignClusters(sets([[1, 2]]), sets([[3, 4]], 100)).size).toBe(0);
  });

  it("gives the big cluster to the part that matches it best when two compete", () => {
    // {1,2,3,4} split as {1,2,3} and {4}: {1,2,3} gets it, {4} stays unaligned
    const aligned = alignClusters(sets([[1, 2, 3], [4]]), sets([[1, 2, 3, 4]], 100));
    expect([...aligned.entries()]).toEqual([[0, 100]]);
  });

  it("keeps annotator 2's message-passing cluster on the demo after annotator 1's move", () => {
    // Topic 9002 of the agreement demo, after adopting annotator 1's "edge-conditioned MPN"
    // into "message passing framework": mentions 1-3 framework, scheme, MPNN; 4 edge-conditioned
    // MPN; 5 sampling-based aggregation. Annotator 2: {1,2,3,5} and {4}.
    const aligned = alignClusters(sets([[1, 2, 3, 5], [4]]), sets([[1, 2, 3, 4], [5]], 100));
    expect(aligned.get(0)).toBe(100);
    expect(aligned.has(1)).toBe(false);
  });

  it("is one-to-one and stable on tangled clusterings, within half of CEAF-e's best total", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const score = (a: number[], b: number[]) => phi4(a.filter((m) => b.includes(m)).length, a.length, b.length);
    for (let round = 0; round < 200; round++) {
      const mentions = Array.from({ length: 9 }, (_, i) => i);
      const partition = (parts: number) => {
        const clusters: number[][] = Array.from({ length: parts }, () => []);
        for (const m of mentions) clusters[Math.floor(random() * parts)]!.push(m);
        return clusters.filter((c) => c.length > 0);
      };
      const left = partition(2 + Math.floor(random() * 4));
      const right = partition(2 + Math.floor(random() * 4));
      const aligned = alignClusters(sets(left), sets(right, 100));
      expect(new Set(aligned.values()).size).toBe(aligned.size); // one-to-one
      const back = new Map([...aligned].map(([i, j]) => [j, i]));
      // Stable: no two clusters left apart match better than either does with its partner.
      left.forEach((a, i) =>
        right.forEach((b, j) => {
          const mine = aligned.has(i) ? score(a, right[aligned.get(i)! - 100]!) : 0;
          const theirs = back.has(j + 100) ? score(left[back.get(j + 100)!]!, b) : 0;
          expect(Math.max(mine, theirs)).toBeGreaterThanOrEqual(score(a, b) - 1e-12);
        }),
      );
      expect(total(left, right, aligned)).toBeGreaterThanOrEqual(bruteForceBest(left, right) / 2 - 1e-12);
    }
  });
});
