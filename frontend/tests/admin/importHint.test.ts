import { describe, expect, it } from "vitest";
import { looksLike } from "../../src/admin/data/importErrors";

describe("the import's format hint", () => {
  it("reads the format a refused file looks like from the server's message", () => {
    const message =
      "chemu.jsonl: 24 error(s); nothing was imported; it looks like ChEMU-Ref jsonlines (--format chemu: its records carry coref and bridging)";
    expect(looksLike(message)).toEqual({ label: "ChEMU-Ref jsonlines", format: "chemu" });
  });

  it("finds none in a refusal that names no other format", () => {
    expect(looksLike("a.jsonl: 2 error(s); nothing was imported")).toBeNull();
    expect(looksLike("The file is empty: there is nothing to import.")).toBeNull();
  });
});
