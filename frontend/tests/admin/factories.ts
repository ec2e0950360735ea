// Small agreement reports and progress payloads for the admin tests.

import type {
  AgreementReport,
  ProgressCell,
  ProgressPayload,
  TopicMetricScores,
} from "../../src/api/adminTypes";

export function scores(
  avg: number | null,
  max: number | null,
  pairs: Record<string, number | null>,
): TopicMetricScores {
  return { avg, max, pairs };
}

/** Three annotators (one with a "-" in the name), three scored topics, one unscored. */
export function report(): AgreementReport {
  return {
    project: "p",
    scheme: "hierarchy",
    annotators: ["ann-a", "bob", "carol"],
    hierarchy_count: "closure",
    notices: [],
    topics: {
      t10: {
        conll_f1: scores(0.8, 0.9, { "ann-a-bob": 0.9, "ann-a-carol": 0.7, "bob-carol": 0.8 }),
        path_ratio: scores(0.5, 0.6, { "ann-a-bob": 0.6, "ann-a-carol": 0.4, "bob-carol": 0.5 }),
      },
      t2: {
        conll_f1: scores(0.6, 0.6, { "ann-a-bob": 0.6 }),
        path_ratio: scores(null, null, { "ann-a-bob": null }),
      },
      t3: {
        conll_f1: scores(0.95, 0.95, { "bob-carol": 0.95 }),
        path_ratio: scores(0.7, 0.7, { "bob-carol": 0.7 }),
      },
    },
    overall: {
      conll_f1: {
        avg: 0.8,
        std: 0.05,
        max_micro: 0.9,
        max_macro: 0.82,
        topics: 3,
        interval_note: "no interval: 3 topics scored, fewer than 10",
      },
      path_ratio: {
        avg: 0.55,
        std: 0.1,
        max_micro: 0.6,
        max_macro: 0.65,
        topics: 2,
        interval_note: "no interval: 2 topics scored, fewer than 10",
      },
    },
    unscored_topics: ["t4"],
    undefined_reasons: {
      conll_f1: "no cluster of two or more mentions on either side",
      path_ratio: "no hierarchy relation on either side",
    },
    left_out: {
      practice: { topics: ["p1"], reason: "practice topics measure each annotator against gold" },
      unscored: { topics: ["t4"], reason: "fewer than two submitted annotations" },
      undefined: { path_ratio: { topics: ["t2"], reason: "no hierarchy relation on either side" } },
    },
    interval_min_topics: 10,
    vs_gold: {
      gold_topics: 0,
      adjudicated_topics: 0,
      metrics: [],
      annotators: [],
      gold_coverage: null,
    },
  };
}

export function cell(
  partial: Partial<ProgressCell> & Pick<ProgressCell, "assignment" | "topic" | "user">,
): ProgressCell {
  return {
    status: "assigned",
    role: "annotator",
    annotation: partial.assignment + 1000,
    version: 0,
    start_version: 0,
    mentions_done: 0,
    mentions_total: 7,
    links: 0,
    seconds_spent: 0,
    ...partial,
  };
}

export function progress(): ProgressPayload {
  return {
    project: 1,
    topics: [
      { id: 1, external_id: "a" },
      { id: 2, external_id: "b" },
      { id: 3, external_id: "c" },
    ],
    annotators: [
      { id: 7, username: "ann" },
      { id: 8, username: "bob" },
    ],
    cells: [
      cell({
        assignment: 11,
        topic: 1,
        user: 7,
        status: "submitted",
        mentions_done: 7,
        seconds_spent: 60,
      }),
      cell({
        assignment: 12,
        topic: 1,
        user: 8,
        status: "in_progress",
        mentions_done: 3,
        seconds_spent: 30,
      }),
      cell({ assignment: 21, topic: 2, user: 8 }),
    ],
  };
}
