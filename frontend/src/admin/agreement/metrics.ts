// The agreement metrics: their names in words, how they are written, and their range.
// Names and order as scorer/corefscore/scoring writes them (docs/agreement-csv.md).

export type MetricKind = "f1" | "alpha";

export interface MetricInfo {
  label: string;
  kind: MetricKind;
}

const KNOWN: Record<string, MetricInfo> = {
  conll_f1: { label: "CoNLL F1", kind: "f1" },
  muc_f1: { label: "MUC F1", kind: "f1" },
  bcub_f1: { label: "B³ F1", kind: "f1" },
  ceafe_f1: { label: "CEAF-e F1", kind: "f1" },
  lea_f1: { label: "LEA F1", kind: "f1" },
  hierarchy_f1: { label: "Hierarchy F1 (SciCo, closure)", kind: "f1" },
  hierarchy_f1_raw: { label: "Hierarchy F1, raw edges (not SciCo's)", kind: "f1" },
  hierarchy_50_f1: { label: "Hierarchy F1-50%", kind: "f1" },
  path_ratio: { label: "Path ratio", kind: "f1" },
  relation_exact_f1: { label: "Relation F1 (exact)", kind: "f1" },
  relation_relaxed_f1: { label: "Relation F1 (relaxed)", kind: "f1" },
  alpha_relations: { label: "α relations", kind: "alpha" },
  alpha_mentions: { label: "α mentions", kind: "alpha" },
  alpha_mentions_coreference: { label: "α coreference mentions", kind: "alpha" },
  alpha_mentions_transformed: { label: "α transformed mentions", kind: "alpha" },
  alpha_mentions_reaction_associated: { label: "α reaction-associated mentions", kind: "alpha" },
  alpha_mentions_work_up: { label: "α work-up mentions", kind: "alpha" },
  alpha_mentions_contained: { label: "α contained mentions", kind: "alpha" },
  mention_f1: { label: "Mention F1", kind: "f1" },
  mention_relaxed_f1: { label: "Mention F1 (overlap)", kind: "f1" },
  anaphor_f1: { label: "Anaphor F1", kind: "f1" },
  anaphor_relaxed_f1: { label: "Anaphor F1 (relaxed)", kind: "f1" },
};

export function metricInfo(metric: string): MetricInfo {
  return KNOWN[metric] ?? { label: metric, kind: metric.startsWith("alpha") ? "alpha" : "f1" };
}

/** The range a metric's values live in: F1 scores and ratios [0, 1], Krippendorff's alpha [-1, 1]. */
export function metricDomain(metric: string): [number, number] {
  return metricInfo(metric).kind === "alpha" ? [-1, 1] : [0, 1];
}

/** F1 scores as percentages with one decimal (as SciCo reports them), alpha as a fraction. */
export function formatScore(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return metricInfo(metric).kind === "alpha" ? value.toFixed(3) : (value * 100).toFixed(1);
}

/** A score, or "undefined" where there was nothing to score on either side (never 0). */
export function formatDefined(metric: string, value: number | null | undefined): string {
  return value === null || value === undefined ? "undefined" : formatScore(metric, value);
}

/** A 95% bootstrap interval as "[low–high]", or "" when the metric has none (alpha). */
export function formatInterval(
  metric: string,
  bounds: readonly number[] | null | undefined,
): string {
  if (!bounds || bounds.length !== 2) return "";
  return `[${formatScore(metric, bounds[0])}–${formatScore(metric, bounds[1])}]`;
}

/** The unit the page writes a metric's values in (for labels of inputs and axes). */
export function metricUnit(metric: string): string {
  return metricInfo(metric).kind === "alpha" ? "" : "%";
}

/** A value as written on the page (percent for F1) back to the stored fraction, and the reverse. */
export function fromDisplay(metric: string, shown: number): number {
  return metricInfo(metric).kind === "alpha" ? shown : shown / 100;
}

export function toDisplay(metric: string, value: number): number {
  return metricInfo(metric).kind === "alpha" ? value : Math.round(value * 1000) / 10;
}

/** An axis label: whole percentages for F1, one decimal for alpha. */
export function formatTick(metric: string, value: number): string {
  return metricInfo(metric).kind === "alpha" ? value.toFixed(1) : String(Math.round(value * 100));
}
