import { describe, expect, it } from "vitest";
import type { PracticeDiff } from "../../src/onboarding/api";
import {
  clusterProblem,
  differencePlaces,
  formatMetric,
  nothingWrong,
} from "../../src/onboarding/differences";
import { placeCard } from "../../src/onboarding/tourTargets";

describe("practice differences", () => {
  const diff: PracticeDiff = {
    mentions_wrong: 3,
    unclustered: 0,
    clusters: [{ cluster: 9, label: "CNN", size: 1, mixed: false, split: true, mention: 4 }],
    missing_edges: 2,
    extra_edges: [{ parent: "c", child: "d", cluster: 11, mention: null }],
    missing_links: 1,
    extra_links: [{ type: "WORK_UP", anaphor: "the mixture", antecedent: "y", mention: 7 }],
  };

  it("lists the places of the annotator's own clusters, edges and links, in the order shown", () => {
    expect(differencePlaces(diff)).toEqual([
      { mention: 4, cluster: 9 },
      { mention: null, cluster: 11 },
      { mention: 7, cluster: null },
    ]);
  });

  it("says what is wrong with a cluster without naming gold's members", () => {
    expect(clusterProblem({ mixed: true, split: false })).toBe(
      "mixes mentions that gold keeps apart",
    );
    expect(clusterProblem({ mixed: true, split: true })).toContain(
      "; gold puts some of its mentions with mentions outside it",
    );
  });

  it("finds nothing wrong only when every count is zero", () => {
    expect(nothingWrong(diff)).toBe(false);
    expect(
      nothingWrong({
        ...diff,
        mentions_wrong: 0,
        clusters: [],
        missing_edges: 0,
        extra_edges: [],
        missing_links: 0,
        extra_links: [],
      }),
    ).toBe(true);
    expect(
      nothingWrong({
        ...diff,
        mentions_wrong: 0,
        clusters: [],
        missing_edges: 1,
        extra_edges: [],
        missing_links: 0,
        extra_links: [],
      }),
    ).toBe(false);
  });

  it("writes F1 scores as percentages and alpha as a fraction", () => {
    expect(formatMetric("conll_f1", 0.756)).toBe("75.6");
    expect(formatMetric("alpha_mentions", 0.5)).toBe("0.500");
    expect(formatMetric("muc_f1", null)).toBe("—");
  });
});

describe("tour card placement", () => {
  const view = { width: 1000, height: 800 };
  const card = { width: 300, height: 150 };
  it("goes below a small target", () => {
    expect(
      placeCard({ top: 100, bottom: 120, left: 200, width: 50, height: 20 }, card, view),
    ).toEqual({ top: 130, left: 200 });
  });
  it("goes above a target near the bottom", () => {
    expect(
      placeCard({ top: 700, bottom: 720, left: 200, width: 50, height: 20 }, card, view).top,
    ).toBe(540);
  });
  it("stays inside the window", () => {
    const placed = placeCard(
      { top: 100, bottom: 120, left: 950, width: 50, height: 20 },
      card,
      view,
    );
    expect(placed.left).toBe(690);
  });
});
