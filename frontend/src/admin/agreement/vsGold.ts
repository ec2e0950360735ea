// The report's annotator-vs-gold section as a table: one row per metric, one column per
// annotator, each cell F1 with precision and recall (reporting/selectors/agreement_gold.py).

import type { components } from "../../api/schema";

export type VsGoldSection = components["schemas"]["VsGoldSection"];
type Scores = components["schemas"]["PrecisionRecallF1"];

const LABELS: Record<string, string> = {
  mentions: "Mentions (exact)",
  mentions_relaxed: "Mentions (overlap)",
  muc: "MUC",
  bcub: "B³",
  ceafe: "CEAF-e",
  lea: "LEA",
  conll: "CoNLL",
  hierarchy: "Hierarchy (SciCo, closure)",
  hierarchy_raw: "Hierarchy, raw edges (not SciCo's)",
  hierarchy_50: "Hierarchy 50%",
  relation_exact: "Relations (exact)",
  relation_relaxed: "Relations (relaxed)",
  anaphor_exact: "Anaphors (exact)",
  anaphor_relaxed: "Anaphors (relaxed)",
};

export const vsGoldLabel = (metric: string): string => LABELS[metric] ?? metric;

export interface VsGoldRow {
  metric: string;
  label: string;
  /** In the order of `section.annotators`. */
  cells: Scores[];
}

export function vsGoldRows(section: VsGoldSection): VsGoldRow[] {
  return section.metrics.map((metric) => ({
    metric,
    label: vsGoldLabel(metric),
    cells: section.annotators.map(
      (a) => a.scores[metric] ?? { precision: null, recall: null, f1: null },
    ),
  }));
}

/** A fraction as a percentage with one decimal, as the rest of the page writes F1. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value)
    ? "—"
    : (value * 100).toFixed(1);
}

/** Where the gold comes from, in words. */
export function goldSource(section: VsGoldSection): string {
  const imported = section.gold_topics - section.adjudicated_topics;
  const parts = [];
  if (section.adjudicated_topics) parts.push(`${section.adjudicated_topics} adjudicated`);
  if (imported) parts.push(`${imported} imported`);
  return `gold of ${section.gold_topics} topic${section.gold_topics === 1 ? "" : "s"} (${parts.join(", ")})`;
}
