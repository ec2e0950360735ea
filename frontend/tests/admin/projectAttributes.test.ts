// The admin's attribute lines (`certainty: high, low`) to definitions and back.
import { describe, expect, it } from "vitest";
import { attributesText, parseAttributes } from "../../src/admin/projects/projectForm";

describe("parseAttributes", () => {
  it("reads one attribute a line and writes it back the same way", () => {
    const parsed = parseAttributes("certainty: high, low\n\nsource: text,inferred");
    expect(parsed).toEqual({
      attributes: [
        { name: "certainty", values: ["high", "low"] },
        { name: "source", values: ["text", "inferred"] },
      ],
      error: null,
    });
    expect(attributesText(parsed.attributes)).toBe("certainty: high, low\nsource: text, inferred");
  });

  it.each([
    ["certainty", "certainty needs at least one value"],
    ["two words: x", "one word, a colon"],
    ["certainty: high, high", "lists a value twice"],
    ["a: x\na: y", "Line 2: a is defined twice"],
    ["certainty: very high", "“very high” is not one word"],
  ])("refuses %j in words", (text, words) => {
    expect(parseAttributes(text).error).toContain(words);
  });
});
