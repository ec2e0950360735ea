// Where time goes (GET /api/projects/<id>/time/, docs/time-spent.md): the labels of the
// decision kinds, which kinds to show, and the numbers as the table writes them.

import type { AnnotatorTime, TimeReport } from "../../api/adminTypes";

export const KIND_LABELS: Record<string, string> = {
  assign: "Assign",
  new_cluster: "New cluster",
  merge: "Merge",
  split: "Split",
  hierarchy_edge: "Hierarchy edge",
  link: "Link",
  suggestion_accept: "Accept suggestion",
  suggestion_reject: "Reject suggestion",
  validation: "Validation",
  mention: "Mention edit",
  other: "Rename / note",
  undo_redo: "Undo / redo",
};

/** The kinds someone decided at least once, in the report's order. */
export function usedKinds(report: TimeReport): string[] {
  return report.kinds.filter((kind) =>
    report.annotators.some((a) => (a.kinds[kind]?.count ?? 0) + (a.kinds[kind]?.excluded ?? 0) > 0),
  );
}

/** "4.2 s", "1 min 05 s", or "–" with nothing to show. */
export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  if (value < 60) return `${value < 10 ? value.toFixed(1) : Math.round(value)} s`;
  const s = Math.round(value);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** Median acceptance latency in milliseconds under a second, else seconds. */
export function latency(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return value < 1 ? `${Math.round(value * 1000)} ms` : seconds(value);
}

/** Points of a sparkline of per-topic scores (0..1) in submission order, in a w x h box
 * with a pixel of margin above and below (so a score of 1 or 0 is not cut by the edge). */
export function sparkline(a: AnnotatorTime, w = 120, h = 24): string {
  const scores = a.gold.topics.map((t) => t.score).filter((s): s is number => s !== null);
  if (scores.length < 2) return "";
  const step = w / (scores.length - 1);
  return scores
    .map((s, i) => `${(i * step).toFixed(1)},${(1 + (1 - s) * (h - 2)).toFixed(1)}`)
    .join(" ");
}

export const GOLD_METRIC_LABELS: Record<string, string> = {
  conll_f1: "CoNLL F1",
  relation_exact_f1: "relation F1 (exact)",
};
