// The annotator x annotator agreement matrix. The report names a pair by the two usernames
// joined with "-" (scorer/corefscore/metrics/iaa.py pair_label); usernames may contain "-"
// themselves, so keys are matched against every pair of the report's annotators rather than
// split.

import type { AgreementReport } from "../../api/adminTypes";

export function pairResolver(names: readonly string[]): (key: string) => [string, string] | null {
  const byKey = new Map<string, [string, string] | null>();
  for (let i = 0; i < names.length; i++) {
    for (let j = 0; j < names.length; j++) {
      if (i === j) continue;
      const key = `${names[i]}-${names[j]}`;
      const pair: [string, string] = [names[i]!, names[j]!];
      const seen = byKey.get(key);
      // Two different pairs with the same key ("a-b"+"c" and "a"+"b-c"): say nothing rather than guess.
      byKey.set(key, seen === undefined || samePair(seen, pair) ? pair : null);
    }
  }
  return (key) => byKey.get(key) ?? null;
}

function samePair(a: [string, string] | null, b: [string, string]): boolean {
  return a !== null && ((a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]));
}

export interface PairCell {
  /** Mean over the topics both annotated of the pair's score (undefined scores left out). */
  mean: number | null;
  topics: number;
  min: number | null;
  max: number | null;
}

export interface PairMatrix {
  names: string[];
  /** cells[i][j] for names i and j (symmetric); null on the diagonal and for pairs that share no topic. */
  cells: (PairCell | null)[][];
}

/** The pairs' scores of `metric`, over the topics listed (all scored topics when omitted). */
export function pairMatrix(
  report: AgreementReport,
  metric: string,
  topics?: readonly string[],
): PairMatrix {
  const names = [...report.annotators];
  const index = new Map(names.map((name, i) => [name, i]));
  const resolve = pairResolver(names);
  const sums = names.map(() =>
    names.map(() => ({ total: 0, defined: 0, topics: 0, min: Infinity, max: -Infinity })),
  );
  for (const topic of topics ?? Object.keys(report.topics)) {
    const pairs = report.topics[topic]?.[metric]?.pairs ?? {};
    for (const [key, score] of Object.entries(pairs)) {
      const pair = resolve(key);
      if (!pair) continue;
      const [i, j] = [index.get(pair[0])!, index.get(pair[1])!];
      for (const [a, b] of [
        [i, j],
        [j, i],
      ] as const) {
        const cell = sums[a]![b]!;
        cell.topics += 1;
        if (score === null) continue;
        cell.total += score;
        cell.defined += 1;
        cell.min = Math.min(cell.min, score);
        cell.max = Math.max(cell.max, score);
      }
    }
  }
  const cells = sums.map((row, i) =>
    row.map((cell, j): PairCell | null =>
      i === j || cell.topics === 0
        ? null
        : {
            mean: cell.defined ? cell.total / cell.defined : null,
            topics: cell.topics,
            min: cell.defined ? cell.min : null,
            max: cell.defined ? cell.max : null,
          },
    ),
  );
  return { names, cells };
}

/** The colour range of the heatmap: the range of the pairs' means, at least `minSpan` wide
 * and inside the metric's range, so that pairs at 90 and 96 look different (the legend
 * gives the range). */
export function colourDomain(
  matrix: PairMatrix,
  metric: readonly [number, number],
  minSpan = 0.1,
): [number, number] {
  const means = matrix.cells
    .flat()
    .flatMap((cell) => (cell && cell.mean !== null ? [cell.mean] : []));
  if (!means.length) return [metric[0], metric[1]];
  let lo = Math.min(...means);
  let hi = Math.max(...means);
  if (hi - lo < minSpan) {
    const middle = (lo + hi) / 2;
    lo = middle - minSpan / 2;
    hi = middle + minSpan / 2;
    if (lo < metric[0]) [lo, hi] = [metric[0], metric[0] + minSpan];
    if (hi > metric[1]) [lo, hi] = [metric[1] - minSpan, metric[1]];
  }
  return [Math.max(metric[0], lo), Math.min(metric[1], hi)];
}

/** Where the heatmap's parts go, in px: names written in full, the column names rotated
 * (`angle` degrees) above the cells, the row names on the left. */
export interface HeatmapLayout {
  top: number;
  left: number;
  width: number;
  height: number;
}

export const HEATMAP_CELL = 62;
export const HEATMAP_ANGLE = 40;

/** Room for every name as `textWidth` measures it: a rotated name rises by its length times
 * sin(angle) and reaches right by its length times cos(angle), past the last column for long
 * names; the legend takes 34 px below the cells. */
export function heatmapLayout(
  names: readonly string[],
  textWidth: (text: string) => number,
  cell = HEATMAP_CELL,
): HeatmapLayout {
  const widths = names.map((name) => Math.ceil(textWidth(name)));
  const longest = Math.max(0, ...widths);
  const radians = (HEATMAP_ANGLE * Math.PI) / 180;
  const top = 24 + Math.ceil(longest * Math.sin(radians));
  const left = 16 + longest;
  const cells = left + names.length * cell + 8;
  const overhang = widths.reduce(
    (right, w, j) =>
      Math.max(right, left + j * cell + cell / 2 + Math.ceil(w * Math.cos(radians)) + 8),
    0,
  );
  return {
    top,
    left,
    width: Math.max(cells, overhang, left + 5 * 28 + 8),
    height: top + names.length * cell + 34,
  };
}
