import { describe, expect, it } from "vitest";
import {
  colourDomain,
  HEATMAP_CELL,
  heatmapLayout,
  pairMatrix,
  pairResolver,
} from "../../src/admin/charts/heatmap";
import { histogram } from "../../src/admin/charts/histogram";
import { linearScale, niceTicks, rampColor } from "../../src/admin/charts/scale";
import { report } from "./factories";

describe("histogram binning", () => {
  it("puts each value in its [x0, x1) bin and the maximum in the last bin", () => {
    const { bins } = histogram([0, 0.05, 0.1, 0.55, 0.999, 1], 0, 1, 10);

    expect(bins.map((b) => b.count)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(bins[0]).toMatchObject({ x0: 0, x1: 0.1 });
    expect(bins[9]!.x1).toBe(1);
  });

  it("counts undefined scores apart", () => {
    const result = histogram([null, 0.5, Number.NaN], 0, 1, 4);

    expect(result.undefinedCount).toBe(2);
    expect(result.bins.reduce((n, b) => n + b.count, 0)).toBe(1);
  });

  it("bins alpha over [-1, 1] and clamps values outside the range", () => {
    const { bins } = histogram([-1, -0.2, 0, 0.99, 1.5], -1, 1, 4);

    expect(bins.map((b) => b.count)).toEqual([1, 1, 1, 2]);
  });

  it("does not lose a value on a bin edge to rounding", () => {
    const { bins } = histogram([0.3, 0.7], 0, 1, 10);

    expect(bins[3]!.count).toBe(1);
    expect(bins[7]!.count).toBe(1);
  });
});

describe("the pair heatmap", () => {
  it("resolves pair keys against the annotators, even with '-' in a username", () => {
    const resolve = pairResolver(["ann-a", "bob", "carol"]);

    expect(resolve("ann-a-bob")).toEqual(["ann-a", "bob"]);
    expect(resolve("bob-carol")).toEqual(["bob", "carol"]);
    expect(resolve("ann-bob")).toBeNull();
  });

  it("refuses to guess when two pairs share a key", () => {
    const resolve = pairResolver(["a-b", "c", "a", "b-c"]);

    expect(resolve("a-b-c")).toBeNull();
    expect(resolve("a-c")).toEqual(["a", "c"]);
  });

  it("averages each pair over the topics both annotated, symmetrically", () => {
    const m = pairMatrix(report(), "conll_f1");

    expect(m.names).toEqual(["ann-a", "bob", "carol"]);
    expect(m.cells[0]![1]!.mean).toBeCloseTo(0.75);
    expect(m.cells[0]![1]!.topics).toBe(2);
    expect(m.cells[1]![0]).toEqual(m.cells[0]![1]);
    expect(m.cells[1]![2]).toMatchObject({ topics: 2, min: 0.8, max: 0.95 });
    expect(m.cells[0]![0]).toBeNull();
  });

  it("leaves undefined scores out of the mean but counts the topic", () => {
    const m = pairMatrix(report(), "path_ratio");

    expect(m.cells[0]![1]).toMatchObject({ mean: 0.6, topics: 2 });
  });

  it("can be restricted to some topics; pairs without a shared topic are empty", () => {
    const m = pairMatrix(report(), "conll_f1", ["t3"]);

    expect(m.cells[1]![2]!.mean).toBe(0.95);
    expect(m.cells[0]![1]).toBeNull();
  });
});

describe("the heatmap's layout", () => {
  const sevenPx = (text: string) => text.length * 7;
  const names = ["ann", "bob", "annotator-with-a-very-long-name"];

  it("leaves room on the left for the longest row name, in full", () => {
    const layout = heatmapLayout(names, sevenPx);

    expect(layout.left).toBeGreaterThanOrEqual(sevenPx(names[2]!) + 8);
  });

  it("leaves room above for the longest rotated column name", () => {
    const layout = heatmapLayout(names, sevenPx);

    expect(layout.top).toBeGreaterThanOrEqual(
      sevenPx(names[2]!) * Math.sin((40 * Math.PI) / 180) + 8,
    );
  });

  it("widens the chart for a long last column name that reaches past the cells", () => {
    const layout = heatmapLayout(names, sevenPx);
    const reach =
      layout.left +
      2 * HEATMAP_CELL +
      HEATMAP_CELL / 2 +
      sevenPx(names[2]!) * Math.cos((40 * Math.PI) / 180);

    expect(layout.width).toBeGreaterThanOrEqual(reach);
  });

  it("is as wide as its cells for short names", () => {
    const layout = heatmapLayout(["a", "b", "c"], sevenPx);

    expect(layout.width).toBe(layout.left + 3 * HEATMAP_CELL + 8);
    expect(layout.height).toBe(layout.top + 3 * HEATMAP_CELL + 34);
  });
});

describe("the heatmap's colour range", () => {
  it("spans the pairs' means so that close scores look different", () => {
    const [lo, hi] = colourDomain(pairMatrix(report(), "conll_f1"), [0, 1]);

    expect(lo).toBeCloseTo(0.7);
    expect(hi).toBeCloseTo(0.875);
  });

  it("is at least the minimum span wide and stays inside the metric's range", () => {
    const one = {
      names: ["a", "b"],
      cells: [
        [null, { mean: 0.99, topics: 1, min: 0.99, max: 0.99 }],
        [null, null],
      ],
    };

    expect(colourDomain(one, [0, 1])).toEqual([0.9, 1]);
    expect(colourDomain({ names: [], cells: [] }, [-1, 1])).toEqual([-1, 1]);
  });
});

describe("scales", () => {
  it("map a domain onto a range", () => {
    const x = linearScale([0, 1], [10, 110]);

    expect(x(0.5)).toBe(60);
    expect(linearScale([-1, 1], [0, 100])(0)).toBe(50);
  });

  it("give round ticks", () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-1, 1, 4)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(niceTicks(0, 7, 4)).toEqual([0, 2, 4, 6]);
  });

  it("colour the ramp from light to dark", () => {
    expect(rampColor(0)).not.toBe(rampColor(1));
    expect(rampColor(-3)).toBe(rampColor(0));
  });
});
