// The places of a practice attempt's differences from gold, in the order the results list
// them: what the D key walks through and each entry's click opens in the workspace. They are
// the annotator's own clusters, edges and links: gold's answer is never in the feedback.

import type { PracticeDiff } from "./api";

export interface Place {
  mention: number | null;
  cluster: number | null;
}

export function differencePlaces(diff: PracticeDiff): Place[] {
  const places: Place[] = [
    ...diff.clusters.map((d) => ({ mention: d.mention, cluster: d.cluster })),
    ...diff.extra_edges.map((d) => ({ mention: d.mention, cluster: d.cluster })),
    ...diff.extra_links.map((d) => ({ mention: d.mention, cluster: null })),
  ];
  return places.filter((p) => p.mention !== null || p.cluster !== null);
}

/** The metrics' names in words (the agreement report's: admin/agreement/metrics.ts). */
export const METRIC_LABELS: Record<string, string> = {
  conll_f1: "CoNLL F1",
  muc_f1: "MUC F1",
  bcub_f1: "B³ F1",
  ceafe_f1: "CEAF-e F1",
  lea_f1: "LEA F1",
  hierarchy_f1: "Hierarchy F1 (SciCo, closure)",
  hierarchy_f1_raw: "Hierarchy F1, raw edges (not SciCo's)",
  mention_f1: "Mention F1",
  mention_relaxed_f1: "Mention F1 (overlap)",
  anaphor_f1: "Anaphor F1",
  anaphor_relaxed_f1: "Anaphor F1 (relaxed)",
  hierarchy_50_f1: "Hierarchy F1-50%",
  path_ratio: "Path ratio",
  relation_exact_f1: "Link F1 (exact)",
  relation_relaxed_f1: "Link F1 (relaxed)",
  alpha_relations: "α relations",
  alpha_mentions: "α mentions",
  alpha_mentions_coreference: "α coreference mentions",
  alpha_mentions_transformed: "α transformed mentions",
  alpha_mentions_reaction_associated: "α reaction-associated mentions",
  alpha_mentions_work_up: "α work-up mentions",
  alpha_mentions_contained: "α contained mentions",
};

export function formatMetric(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return metric.startsWith("alpha") ? value.toFixed(3) : `${(value * 100).toFixed(1)}`;
}

/** What is wrong with one of the annotator's clusters, in words that name no gold member. */
export function clusterProblem(cluster: { mixed: boolean; split: boolean }): string {
  const parts = [
    cluster.mixed ? "mixes mentions that gold keeps apart" : "",
    cluster.split ? "gold puts some of its mentions with mentions outside it" : "",
  ].filter(Boolean);
  return parts.join("; ");
}

/** Whether an attempt's feedback finds nothing wrong. */
export function nothingWrong(diff: PracticeDiff): boolean {
  return (
    diff.mentions_wrong +
      diff.clusters.length +
      diff.missing_edges +
      diff.extra_edges.length +
      diff.missing_links +
      diff.extra_links.length ===
    0
  );
}
