import { describe, expect, it } from "vitest";
import { exportWarnings } from "../../src/api/admin";

describe("exportWarnings", () => {
  it("reads the header's JSON list, escaped mention texts included", () => {
    const header = JSON.stringify([
      "conll: CoNLL-2012 cannot hold link notes: 2 left out",
      "\u00e9ther",
    ]).replace("\u00e9", "\\u00e9");
    expect(exportWarnings(header)).toEqual([
      "conll: CoNLL-2012 cannot hold link notes: 2 left out",
      "éther",
    ]);
  });

  it("is empty without the header or with one it cannot read (the file still arrived)", () => {
    expect(exportWarnings(null)).toEqual([]);
    expect(exportWarnings("not json")).toEqual([]);
    expect(exportWarnings('{"a": 1}')).toEqual([]);
    expect(exportWarnings('["kept", 3]')).toEqual(["kept"]);
  });
});
