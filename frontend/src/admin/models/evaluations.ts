// The Models page's tables, built from one or two evaluations (GET /api/model-evaluations/<id>/).
// Scores are the agreement report's metrics (names and formatting: ../agreement/metrics.ts).
import type { EvaluationDetail, EvaluationGold, ModelChoice } from "../../api/adminTypes";
import { dateTime, plural } from "../format";

export const GOLD_NAMES: Record<EvaluationGold, string> = {
  gold: "gold (adjudicated, else imported)",
  adjudicated: "adjudicated only",
  imported: "imported gold only",
};

/** The metrics the evaluations share, in the report's order. */
export function sharedMetrics(runs: EvaluationDetail[]): string[] {
  const seen: string[] = [];
  for (const run of runs)
    for (const m of run.result?.metrics ?? []) if (!seen.includes(m)) seen.push(m);
  return seen;
}

export interface TopicRow {
  topic: string;
  model: (number | null)[];
  annotators: (number | null)[];
  annotatorCount: number;
  /** The models trained on this topic (any of the runs': it was scored only because asked). */
  seenBy: string[];
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
    seenBy: [...new Set(byRun.flatMap((found) => found.get(topic)?.seen_by ?? []))],
  }));
}

/** "the default ChEMU model was trained on this text", "version 2, version 3 were trained on
 * this text". */
export function trainedOnText(seenBy: string[]): string {
  return `${seenBy.join(", ")} ${seenBy.length === 1 ? "was" : "were"} trained on this text`;
}

/** "#7 trained · version 3" for a learnt version, "#5 cross-encoder · versions/b2" for a
 * trained folder (its last two parts), "#4 singleton" for the backend's own model. */
export function runTitle(run: {
  id: number;
  backend: string;
  model_version: string;
  version?: { number: number } | null;
}): string {
  const model = run.version
    ? ` · version ${run.version.number}`
    : run.model_version
      ? ` · ${run.model_version.split("/").slice(-2).join("/")}`
      : "";
  return `#${run.id} ${run.backend}${model}`;
}

/** A learnt version as the model choice lists it: its number and backend, when it was trained,
 * the topics it learnt from, its held-out score and whether runs use it; a folder by its path. */
export function modelChoiceLabel(choice: ModelChoice): string {
  const v = choice.version;
  if (!v) return choice.model_version;
  const score =
    v.score === null ? "no held-out score" : `held-out ${v.metric} ${v.score.toFixed(3)}`;
  const state = v.serving
    ? v.pinned
      ? " · serving (chosen)"
      : " · serving"
    : v.eligible
      ? ""
      : " · not eligible";
  return `version ${v.number} (${v.backend}) · ${dateTime(v.created_at)} · ${plural(v.topics_used, "topic")} · ${score}${state}`;
}

/** The choice a backend starts on: the version runs use, else the first listed, else the
 * backend's own model (null). */
export function defaultModelChoice(choices: ModelChoice[]): ModelChoice | null {
  return choices.find((c) => c.version?.serving) ?? choices[0] ?? null;
}
