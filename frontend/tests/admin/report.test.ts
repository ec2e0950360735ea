import { describe, expect, it } from "vitest";
import {
  belowCount,
  cellValue,
  filterRows,
  isBelow,
  metricColumn,
  reportMetrics,
  reportRows,
  sortRows,
  visibleMetrics,
} from "../../src/admin/agreement/report";
import {
  formatInterval,
  formatScore,
  fromDisplay,
  metricDomain,
  toDisplay,
} from "../../src/admin/agreement/metrics";
import { report } from "./factories";

const topics = (rows: { topic: string }[]) => rows.map((r) => r.topic);

describe("the agreement table", () => {
  it("has one row per scored topic in the report's order, with the annotators from the pair keys", () => {
    const rows = reportRows(report());

    expect(topics(rows)).toEqual(["t10", "t2", "t3"]);
    expect(rows[0]!.annotators).toEqual(["ann-a", "bob", "carol"]);
    expect(rows[1]!.annotators).toEqual(["ann-a", "bob"]);
    expect(rows[2]!.annotators).toEqual(["bob", "carol"]);
  });

  it("lists the metrics in the scorer's order", () => {
    expect(reportMetrics(report())).toEqual(["conll_f1", "path_ratio"]);
  });

  it("puts SciCo's raw hierarchy count in the closure count's place when the project chose it", () => {
    const s = { avg: 0.5, std: 0, max_micro: 0.5, max_macro: 0.5, topics: 3, interval_note: null };
    const overall = {
      conll_f1: s,
      hierarchy_f1: s,
      path_ratio: s,
      hierarchy_f1_raw: s,
      mention_f1: s,
    };
    const closure = { ...report(), overall };

    expect(reportMetrics(closure)).toEqual([
      "conll_f1",
      "hierarchy_f1",
      "path_ratio",
      "hierarchy_f1_raw",
      "mention_f1",
    ]);
    expect(reportMetrics({ ...closure, hierarchy_count: "raw" })).toEqual([
      "conll_f1",
      "hierarchy_f1_raw",
      "hierarchy_f1",
      "path_ratio",
      "mention_f1",
    ]);
  });

  it("sorts topic ids naturally, both ways", () => {
    const rows = reportRows(report());

    expect(topics(sortRows(rows, "topic", "asc"))).toEqual(["t2", "t3", "t10"]);
    expect(topics(sortRows(rows, "topic", "desc"))).toEqual(["t10", "t3", "t2"]);
  });

  it("sorts by any metric's AVG or MAX", () => {
    const rows = reportRows(report());

    expect(topics(sortRows(rows, metricColumn("conll_f1", "avg"), "asc"))).toEqual([
      "t2",
      "t10",
      "t3",
    ]);
    expect(topics(sortRows(rows, metricColumn("conll_f1", "max"), "desc"))).toEqual([
      "t3",
      "t10",
      "t2",
    ]);
    expect(topics(sortRows(rows, "annotators", "desc"))).toEqual(["t10", "t2", "t3"]);
  });

  it("puts an undefined score last whichever the direction", () => {
    const rows = reportRows(report());
    const column = metricColumn("path_ratio", "avg");

    expect(topics(sortRows(rows, column, "asc"))).toEqual(["t10", "t3", "t2"]);
    expect(topics(sortRows(rows, column, "desc"))).toEqual(["t3", "t10", "t2"]);
    expect(cellValue(rows[1]!, column)).toBeNull();
  });

  it("keeps the report's order between equal values", () => {
    const rows = reportRows(report()).map((r) => ({ ...r, annotators: ["x", "y"] }));

    expect(topics(sortRows(rows, "annotators", "desc"))).toEqual(["t10", "t2", "t3"]);
  });

  it("filters by topic id text, case-insensitively", () => {
    const rows = reportRows(report());

    expect(topics(filterRows(rows, " T1 "))).toEqual(["t10"]);
    expect(topics(filterRows(rows, ""))).toEqual(["t10", "t2", "t3"]);
  });

  it("shows every metric or only the one chosen", () => {
    expect(visibleMetrics(["a", "b"], "all")).toEqual(["a", "b"]);
    expect(visibleMetrics(["a", "b"], "b")).toEqual(["b"]);
    expect(visibleMetrics(["a", "b"], "gone")).toEqual(["a", "b"]);
    const all = [
      "conll_f1",
      "hierarchy_f1",
      "hierarchy_f1_raw",
      "mention_f1",
      "mention_relaxed_f1",
    ];
    expect(visibleMetrics(all, "all")).toEqual(["conll_f1", "hierarchy_f1", "mention_f1"]);
    const rawFirst = ["conll_f1", "hierarchy_f1_raw", "hierarchy_f1", "mention_f1"];
    expect(visibleMetrics(rawFirst, "all")).toEqual(["conll_f1", "hierarchy_f1_raw", "mention_f1"]);
    expect(visibleMetrics(all, "mention_relaxed_f1")).toEqual(["mention_relaxed_f1"]);
  });

  it("flags defined scores strictly below the threshold, never undefined ones", () => {
    const rows = reportRows(report());

    expect(isBelow(0.59, 0.6)).toBe(true);
    expect(isBelow(0.6, 0.6)).toBe(false);
    expect(isBelow(null, 0.6)).toBe(false);
    expect(isBelow(0.1, null)).toBe(false);
    expect(belowCount(rows, "path_ratio", "avg", 0.6)).toBe(1);
    expect(belowCount(rows, "conll_f1", "max", 0.95)).toBe(2);
  });
});

describe("metric values", () => {
  it("are written as percentages for F1 and as fractions for alpha", () => {
    expect(formatScore("conll_f1", 0.8123)).toBe("81.2");
    expect(formatScore("alpha_mentions", 0.8123)).toBe("0.812");
    expect(formatInterval("conll_f1", [0.751, 0.8123])).toBe("[75.1–81.2]");
    expect(formatInterval("alpha_relations", null)).toBe("");
    expect(formatScore("conll_f1", null)).toBe("—");
  });

  it("convert between the shown unit and the stored fraction", () => {
    expect(fromDisplay("conll_f1", 75)).toBe(0.75);
    expect(toDisplay("conll_f1", 0.755)).toBe(75.5);
    expect(fromDisplay("alpha_relations", 0.5)).toBe(0.5);
    expect(metricDomain("alpha_relations")).toEqual([-1, 1]);
    expect(metricDomain("lea_f1")).toEqual([0, 1]);
  });
});
