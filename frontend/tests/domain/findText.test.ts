// Find in text: matches as token ranges over the text as shown, case-insensitive.
import { describe, expect, it } from "vitest";
import { documentText, findInDocuments, hitsByDocument } from "../../src/domain/findText";

const docs = [
  documentText({
    id: 1,
    tokens: ["Graph", "attention", "networks", "(", "GAT", ")", "use", "attention", "."],
  }),
  documentText({ id: 2, tokens: ["Self-Attention", "is", "all", "you", "need"] }),
];

describe("find in text", () => {
  it("finds every match in document order, whatever the case", () => {
    const hits = findInDocuments(docs, "ATTENTION");
    expect(hits).toEqual([
      { doc: 1, start: 1, end: 1 },
      { doc: 1, start: 7, end: 7 },
      { doc: 2, start: 0, end: 0 },
    ]);
  });

  it("matches across tokens as the text shows them (spaces between words, none inside brackets)", () => {
    expect(findInDocuments(docs, "networks (gat)")).toEqual([{ doc: 1, start: 2, end: 5 }]);
    expect(findInDocuments(docs, "ention net")).toEqual([{ doc: 1, start: 1, end: 2 }]);
  });

  it("finds nothing for a blank query and stops at the limit", () => {
    expect(findInDocuments(docs, "   ")).toEqual([]);
    expect(findInDocuments(docs, "t", 2)).toHaveLength(2);
  });

  it("says which match each highlighted token belongs to", () => {
    const byDoc = hitsByDocument(findInDocuments(docs, "attention networks"));
    expect([...byDoc.get(1)!.entries()]).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(byDoc.has(2)).toBe(false);
  });
});
