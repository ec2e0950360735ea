// How much of its topics' mentions a gold clusters, as every figure built on it says it
// (annotation/selectors/gold.py: GoldCoverage): a partial gold scores everyone low by
// construction, so the note stands beside the figure.

import type { components } from "../api/schema";

export type GoldCoverage = components["schemas"]["GoldCoverageSummary"];

/** "" for a gold that clusters every mention (the API sends null). */
export function goldCoverageNote(coverage: GoldCoverage | null | undefined): string {
  if (!coverage) return "";
  const topics =
    coverage.partial_topics === coverage.topics
      ? coverage.topics === 1
        ? "its topic"
        : `all ${coverage.topics} of its topics`
      : `${coverage.partial_topics} of its ${coverage.topics} topics`;
  return (
    `Gold covers ${coverage.covered} of ${coverage.mentions} mentions: in ${topics} it leaves mentions outside every ` +
    "cluster, so scores against it are low by construction."
  );
}
