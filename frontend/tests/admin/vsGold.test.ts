// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import VsGoldTable from "../../src/admin/agreement/VsGoldTable.vue";
import {
  goldSource,
  percent,
  vsGoldRows,
  type VsGoldSection,
} from "../../src/admin/agreement/vsGold";
import { goldCoverageNote } from "../../src/admin/goldCoverage";

const section: VsGoldSection = {
  gold_topics: 3,
  adjudicated_topics: 1,
  metrics: ["muc", "conll"],
  annotators: [
    {
      annotator: "alice",
      topics: 3,
      scores: {
        muc: { precision: 0.5, recall: 0.25, f1: 1 / 3 },
        conll: { precision: null, recall: null, f1: 0.8 },
      },
    },
    { annotator: "bob", topics: 2, scores: { muc: { precision: 1, recall: 1, f1: 1 } } },
  ],
  gold_coverage: null,
};

describe("the annotator-vs-gold table", () => {
  it("has one row per metric in the report's order, one cell per annotator", () => {
    const rows = vsGoldRows(section);

    expect(rows.map((r) => r.label)).toEqual(["MUC", "CoNLL"]);
    expect(rows[0]!.cells.map((c) => c.f1)).toEqual([1 / 3, 1]);
  });

  it("leaves a cell empty where an annotator has no score for the metric", () => {
    expect(vsGoldRows(section)[1]!.cells[1]).toEqual({ precision: null, recall: null, f1: null });
  });

  it("writes fractions as percentages with one decimal, and a dash for no score", () => {
    expect([percent(1 / 3), percent(1), percent(null)]).toEqual(["33.3", "100.0", "—"]);
  });

  it("says where the gold comes from", () => {
    expect(goldSource(section)).toBe("gold of 3 topics (1 adjudicated, 2 imported)");
  });

  it("says so instead of an empty table when no metric applies (a validation project)", () => {
    const none = mount(VsGoldTable, { props: { section: { ...section, metrics: [] } } });
    const some = mount(VsGoldTable, { props: { section } });

    expect(none.find("table").exists()).toBe(false);
    expect(none.find("[data-testid=vs-gold-none]").exists()).toBe(true);
    expect(some.findAll("tbody tr")).toHaveLength(2);
  });

  it("says beside the table how much of the mentions a partial gold covers, and nothing for a full one", () => {
    const partial = { covered: 1, mentions: 14, topics: 3, partial_topics: 1 };
    const shown = mount(VsGoldTable, {
      props: { section: { ...section, gold_coverage: partial } },
    });
    const full = mount(VsGoldTable, { props: { section } });

    expect(shown.get("[data-testid=vs-gold-coverage]").text()).toBe(
      "Gold covers 1 of 14 mentions: in 1 of its 3 topics it leaves mentions outside every cluster, " +
        "so scores against it are low by construction.",
    );
    expect(full.find("[data-testid=vs-gold-coverage]").exists()).toBe(false);
    expect(goldCoverageNote({ ...partial, topics: 1 })).toContain("in its topic it leaves");
  });
});
