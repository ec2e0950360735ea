// The Models page's per-topic table: each run's model score and the annotators' AVG per topic.
import { describe, expect, it } from "vitest";
import type { EvaluationDetail } from "../../src/api/adminTypes";
import { runTitle, sharedMetrics, topicRows } from "../../src/admin/models/evaluations";

function run(id: number, topics: [string, number, number | null][]): EvaluationDetail {
  return {
    id,
    project: 1,
    backend: "edit-distance",
    model_version: id === 2 ? "/models/cross-encoder/versions/b2" : "",
    gold_source: "gold",
    status: "succeeded",
    progress: 1,
    message: "",
    device: "",
    requested_by: null,
    created_at: "2026-11-26T00:00:00Z",
    started_at: null,
    finished_at: null,
    params: {},
    error: "",
    result: {
      scheme: "scico",
      metrics: ["conll_f1", "path_ratio"],
      topics: topics.map(([topic, model, humans]) => ({
        topic,
        model: { conll_f1: model, path_ratio: 0.5 },
        annotators: humans === null ? null : { conll_f1: humans, path_ratio: 0.9 },
        annotator_count: humans === null ? 0 : 2,
      })),
      overall: { topics: topics.length, model: {} },
      shared: { topics: 0, model: {}, annotators: [], annotators_avg: {} },
      seconds_per_topic: 0.1,
    },
  };
}

describe("the Models page's tables", () => {
  it("lines two runs up by topic, a topic one run lacks left empty", () => {
    const rows = topicRows([run(1, [["a", 0.5, 0.9], ["b", 0.4, null]]), run(2, [["b", 0.7, null]])], "conll_f1");
    expect(rows.map((r) => r.topic)).toEqual(["a", "b"]);
    expect(rows[0].model).toEqual([0.5, null]);
    expect(rows[0].annotators).toEqual([0.9, null]);
    expect(rows[0].annotatorCount).toBe(2);
    expect(rows[1].model).toEqual([0.4, 0.7]);
  });

  it("names a run by its backend and the end of its model folder", () => {
    expect(runTitle(run(2, []))).toBe("#2 edit-distance · versions/b2");
    expect(sharedMetrics([run(1, []), run(2, [])])).toEqual(["conll_f1", "path_ratio"]);
  });
});
