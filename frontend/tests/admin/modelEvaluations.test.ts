// The Models page's per-topic table: each run's model score and the annotators' AVG per topic.
import { describe, expect, it } from "vitest";
import type { EvaluationDetail, ModelChoice } from "../../src/api/adminTypes";
import {
  defaultModelChoice,
  modelChoiceLabel,
  runTitle,
  sharedMetrics,
  topicRows,
  trainedOnText,
} from "../../src/admin/models/evaluations";

function run(
  id: number,
  topics: [string, number, number | null][],
  seen: Record<string, string[]> = {},
): EvaluationDetail {
  return {
    id,
    project: 1,
    backend: "edit-distance",
    model_version: id === 2 ? "/models/cross-encoder/versions/b2" : "",
    version: null,
    gold_source: "gold",
    include_trained: false,
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
        seen_by: seen[topic] ?? [],
      })),
      overall: { topics: topics.length, model: {} },
      shared: { topics: 0, model: {}, annotators: [], annotators_avg: {} },
      seconds_per_topic: 0.1,
    },
  };
}

describe("the Models page's tables", () => {
  it("lines two runs up by topic, a topic one run lacks left empty", () => {
    const rows = topicRows(
      [
        run(1, [
          ["a", 0.5, 0.9],
          ["b", 0.4, null],
        ]),
        run(2, [["b", 0.7, null]]),
      ],
      "conll_f1",
    );
    expect(rows.map((r) => r.topic)).toEqual(["a", "b"]);
    expect(rows[0]!.model).toEqual([0.5, null]);
    expect(rows[0]!.annotators).toEqual([0.9, null]);
    expect(rows[0]!.annotatorCount).toBe(2);
    expect(rows[1]!.model).toEqual([0.4, 0.7]);
  });

  it("marks a topic any shown run's model was trained on, with who", () => {
    const rows = topicRows(
      [
        run(
          1,
          [
            ["a", 0.5, null],
            ["b", 0.4, null],
          ],
          { a: ["version 2"] },
        ),
        run(2, [["a", 0.7, null]], { a: ["the default ChEMU model"] }),
      ],
      "conll_f1",
    );
    expect(rows.map((r) => r.seenBy)).toEqual([["version 2", "the default ChEMU model"], []]);
    expect(trainedOnText(["the default ChEMU model"])).toBe(
      "the default ChEMU model was trained on this text",
    );
    expect(trainedOnText(rows[0]!.seenBy)).toBe(
      "version 2, the default ChEMU model were trained on this text",
    );
  });

  it("names a run by its backend and the end of its model folder", () => {
    expect(runTitle(run(2, []))).toBe("#2 edit-distance · versions/b2");
    expect(sharedMetrics([run(1, []), run(2, [])])).toEqual(["conll_f1", "path_ratio"]);
  });

  it("names a run of a learnt version by its number", () => {
    const learnt = {
      ...run(3, []),
      backend: "trained",
      model_version: "learned/project-1/t4/model",
      version: { id: 9, number: 4 },
    };
    expect(runTitle(learnt)).toBe("#3 trained · version 4");
  });
});

function learnt(id: number, number: number, serving: boolean, score: number | null): ModelChoice {
  return {
    model_version: `learned/project-1/t${number}/model`,
    version: {
      id,
      number,
      backend: "trained",
      created_at: "2026-11-26T10:00:00Z",
      topics_used: 12,
      holdout_topics: 3,
      score,
      metric: "CoNLL F1",
      not_worse: score !== 0.1,
      eligible: score !== 0.1 && score !== null,
      eligibility: "",
      serving,
      pinned: false,
    },
  };
}

describe("the Models page's model choice", () => {
  const folder: ModelChoice = { model_version: "trained/SciCo", version: null };

  it("says what a learnt version is, and a folder by its path", () => {
    const label = modelChoiceLabel(learnt(9, 4, true, 0.61));
    expect(label).toMatch(
      /^version 4 \(trained\) · .+ · 12 topics · held-out CoNLL F1 0\.610 · serving$/,
    );
    expect(modelChoiceLabel(learnt(8, 3, false, null))).toContain("no held-out score");
    expect(modelChoiceLabel(learnt(7, 2, false, 0.1))).toContain("not eligible");
    expect(modelChoiceLabel(folder)).toBe("trained/SciCo");
  });

  it("starts on the serving version, else the first listed, else the backend's own", () => {
    const serving = learnt(8, 3, true, 0.5);
    expect(defaultModelChoice([learnt(9, 4, false, 0.1), serving, folder])).toBe(serving);
    expect(defaultModelChoice([folder])).toBe(folder);
    expect(defaultModelChoice([])).toBeNull();
  });
});
