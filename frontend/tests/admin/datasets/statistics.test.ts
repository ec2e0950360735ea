// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import CountBars from "../../../src/admin/datasets/CountBars.vue";
import type { Stats } from "../../../src/admin/datasets/datasetsApi";
import { statisticsCsvUrl } from "../../../src/admin/datasets/datasetsApi";
import {
  scopes,
  splitSizes,
  statRows,
  statText,
  withGaps,
} from "../../../src/admin/datasets/statsTable";

const stats = (over: Partial<Stats> = {}): Stats => ({
  topics: 2,
  documents: 3,
  tokens: 1200,
  mentions: 40,
  discontinuous_mentions: 1,
  clusters: 0,
  singletons: 0,
  relations: 0,
  mean_components: 0,
  mean_max_depth: 0,
  links: { COREFERENCE: 4, TRANSFORMED: 1, REACTION_ASSOCIATED: 2, WORK_UP: 3, CONTAINED: 0 },
  anaphors: 7,
  sentences: 80,
  tokens_per_sentence: 15,
  ambiguity: 0,
  diversity: 0,
  link_entries: {
    COREFERENCE: 5,
    TRANSFORMED: 1,
    REACTION_ASSOCIATED: 2,
    WORK_UP: 4,
    CONTAINED: 0,
  },
  ...over,
});

describe("the statistics table", () => {
  it("shows a scheme's rows only when the project uses it or has its numbers", () => {
    const anaphora = statRows({ hierarchy: false, anaphora: true }, stats());
    const hierarchy = statRows({ hierarchy: true, anaphora: false }, stats({ anaphors: 0 }));

    expect(anaphora.map((r) => r.key)).toContain("links.CONTAINED");
    expect(anaphora.map((r) => r.key)).not.toContain("clusters");
    expect(hierarchy.map((r) => r.key)).toContain("mean_max_depth");
    expect(hierarchy.map((r) => r.key)).not.toContain("anaphors");
    // ChEMU Table 1's sentences for every scheme; WEC's Ambiguity and Diversity with clusters
    expect(anaphora.map((r) => r.key)).toContain("tokens_per_sentence");
    expect(anaphora.map((r) => r.key)).not.toContain("ambiguity");
    expect(hierarchy.map((r) => r.key)).toEqual(expect.arrayContaining(["ambiguity", "diversity"]));
  });

  it("writes counts with thousands separators and means with two decimals", () => {
    const rows = statRows({ hierarchy: true, anaphora: true }, stats());
    const row = (key: string) => rows.find((r) => r.key === key)!;

    expect(statText(row("tokens"), stats())).toBe("1,200");
    expect(statText(row("mean_components"), stats({ mean_components: 6.8333 }))).toBe("6.83");
    expect(statText(row("links.WORK_UP"), stats())).toBe("3");
    // ChEMU Table 1 counts the file's entries: a repeat twice
    expect(statText(row("link_entries.WORK_UP"), stats())).toBe("4");
  });

  it("puts the total first, then the splits in the order the server gives", () => {
    const page = {
      total: stats(),
      splits: { train: stats({ topics: 1 }), test: stats({ topics: 1 }) },
    };

    expect(scopes(page).map(([name]) => name)).toEqual(["Total", "train", "test"]);
  });

  it("downloads the CSV of the chosen source (gold is the default, not repeated)", () => {
    expect(statisticsCsvUrl(3, "gold")).toBe("/api/projects/3/statistics/?format=csv");
    expect(statisticsCsvUrl(3, "submitted")).toBe(
      "/api/projects/3/statistics/?format=csv&source=submitted",
    );
  });
});

describe("count bars", () => {
  it("draws one bar per category with its count, and says them all in its description", () => {
    const wrapper = mount(CountBars, {
      props: {
        items: [
          { label: "1", count: 36 },
          { label: "2", count: 0 },
          { label: "3", count: 12 },
        ],
        title: "Cluster sizes",
        xName: "size",
        yName: "clusters",
      },
    });

    expect(wrapper.findAll("rect.bar")).toHaveLength(3);
    expect(wrapper.findAll("text.bar-value").map((t) => t.text())).toEqual(["36", "12"]);
    expect(wrapper.find("desc").text()).toBe("1: 36, 2: 0, 3: 12");
  });
});

describe("distributions as bars", () => {
  it("fills a gap with a zero bar from 1 up to the largest value", () => {
    expect(
      withGaps([
        [1, 34],
        [2, 48],
        [7, 1],
      ]).map((b) => `${b.label}:${b.count}`),
    ).toEqual(["1:34", "2:48", "3:0", "4:0", "5:0", "6:0", "7:1"]);
  });

  it("keeps only the values present when the range is too long to draw", () => {
    expect(
      withGaps([
        [1, 5],
        [300, 1],
      ]).map((b) => b.label),
    ).toEqual(["1", "300"]);
  });
});

describe("topics per split", () => {
  it("counts each split's topics in split order, topics outside every split left out", () => {
    const answer = {
      names: ["train", "test"],
      topics: [{ split: "test" }, { split: "" }, { split: "train" }, { split: "test" }],
    };

    expect(splitSizes(answer)).toEqual([
      ["train", 1],
      ["test", 2],
    ]);
  });
});
