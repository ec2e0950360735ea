import { describe, expect, it } from "vitest";
import type { PracticeDiff } from "../../src/onboarding/api";
import { differencePlaces, formatMetric } from "../../src/onboarding/differences";
import { placeCard } from "../../src/onboarding/tourTargets";

describe("practice differences", () => {
  it("lists the places of every difference in the order shown, skipping those with none", () => {
    const diff: PracticeDiff = {
      mentions: [{ mention: 4, text: "CNN", cluster: 9, yours: ["CNN"], gold: ["CNN", "convnet"] }],
      missing_edges: [{ parent: ["a"], child: ["b"], cluster: null, mention: 5 }],
      extra_edges: [{ parent: ["c"], child: ["d"], cluster: 11, mention: null }],
      missing_links: [{ type: "COREFERENCE", anaphor: "it", antecedent: "x", mention: null }],
      extra_links: [{ type: "WORK_UP", anaphor: "the mixture", antecedent: "y", mention: 7 }],
    };
    expect(differencePlaces(diff)).toEqual([
      { mention: 4, cluster: 9 },
      { mention: 5, cluster: null },
      { mention: null, cluster: 11 },
      { mention: 7, cluster: null },
    ]);
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
    expect(placeCard({ top: 100, bottom: 120, left: 200, width: 50, height: 20 }, card, view)).toEqual({ top: 130, left: 200 });
  });
  it("goes above a target near the bottom", () => {
    expect(placeCard({ top: 700, bottom: 720, left: 200, width: 50, height: 20 }, card, view).top).toBe(540);
  });
  it("stays inside the window", () => {
    const placed = placeCard({ top: 100, bottom: 120, left: 950, width: 50, height: 20 }, card, view);
    expect(placed.left).toBe(690);
  });
});
