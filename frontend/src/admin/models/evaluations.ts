// The Models page's tables, built from one or two evaluations (GET /api/model-evaluations/<id>/).
// Scores are the agreement report's metrics (names and formatting: ../agreement/metrics.ts).
import type { EvaluationDetail, EvaluationGold } from "../../api/adminTypes";

export const GOLD_NAMES: Record<EvaluationGold, string> = {
  gold: "gold (adjudicated, else imported)",
  adjudicated: "adjudicated only",
  imported: "imported gold only",
};

/** The metrics the evaluations share, in the report's order. */
export function sharedMetrics(runs: EvaluationDetail[]): string[] {
  const seen: string[] = [];
  for (const run of runs) for (const m of run.result?.metrics ?? []) if (!seen.includes(m)) seen.push(m);
  return seen;
}

export interface TopicRow {
  topic: string;
  model: (number | null)[];
  annotators: (number | null)[];
  annotatorCount: number;
}

/** One row per topic of any run: each run's model score and the annotators' AVG there. */
export function topicRows(runs: EvaluationDetail[], metric: string): TopicRow[] {
  const order: string[] = [];
  const byRun = runs.map((run) => {
    const found = new Map((run.result?.topics ?? []).map((t) => [t.topic, t]));
    for (const t of run.result?.topics ?? []) if (!order.includes(t.topic)) order.push(t.topic);
    return found;
  });
  return order.map((topic) => ({
    topic,
    model: byRun.map((found) => found.get(topic)?.model[metric] ?? null),
    annotators: byRun.map((found) => found.get(topic)?.annotators?.[metric] ?? null),
    annotatorCount: Math.max(0, ...byRun.map((found) => found.get(topic)?.annotator_count ?? 0)),
  }));
}

export function runTitle(run: { id: number; backend: string; model_version: string }): string {
  const version = run.model_version ? ` · ${run.model_version.split("/").slice(-2).join("/")}` : "";
  return `#${run.id} ${run.backend}${version}`;
}
