// Every occurrence of a text: whole tokens, case folded unless asked, skipped where a mention
// is (marked) or touches one (overlapping); removing takes the active mentions of that text.
import { describe, expect, it } from "vitest";
import {
  findOccurrences,
  mentionsWithWords,
  previewOccurrences,
  wordsOf,
} from "../../src/domain/occurrences";
import { makeMention, type Mention } from "../../src/domain/state";

const docs = [
  {
    id: 1,
    tokens: ["The", "mixture", "was", "stirred", "and", "the", "mixture", "was", "cooled", "."],
  },
  {
    id: 2,
    tokens: ["A", "BiLSTM-CRF", "beats", "a", "CRF", ";", "the", "mixture", "mixture", "."],
  },
];

describe("finding occurrences", () => {
  it("finds every run of the words in every document, ignoring case", () => {
    expect(findOccurrences(docs, ["the", "mixture"], false)).toEqual([
      { document: 1, start: 0, end: 1 },
      { document: 1, start: 5, end: 6 },
      { document: 2, start: 6, end: 7 },
    ]);
  });

  it("matches case when asked", () => {
    expect(findOccurrences(docs, ["The", "mixture"], true)).toEqual([
      { document: 1, start: 0, end: 1 },
    ]);
  });

  it("matches whole tokens only: CRF is not inside BiLSTM-CRF", () => {
    expect(findOccurrences(docs, ["CRF"], false)).toEqual([{ document: 2, start: 4, end: 4 }]);
  });

  it("never returns overlapping occurrences", () => {
    expect(findOccurrences([{ id: 3, tokens: ["a", "a", "a"] }], ["a", "a"], false)).toEqual([
      { document: 3, start: 0, end: 1 },
    ]);
  });

  it("finds nothing for an empty or blank text", () => {
    expect(findOccurrences(docs, [], false)).toEqual([]);
    expect(findOccurrences(docs, [" "], false)).toEqual([]);
  });
});

describe("the preview", () => {
  const mentions = new Map<number, Mention[]>([
    [
      1,
      [
        makeMention(10, 1, [[0, 1]]),
        makeMention(11, 1, [[7, 8]]),
        makeMention(12, 1, [[5, 6]], false, true),
      ],
    ],
  ]);
  const found = findOccurrences(docs, ["the", "mixture"], false);
  const preview = previewOccurrences(found, (d) => mentions.get(d));

  it("adds where no active mention is, skips what is marked or overlaps, and says which", () => {
    // [5, 6] is only a rejected mention: it is added (the server allows it); [0, 1] is marked.
    expect(preview.marked).toEqual([{ document: 1, start: 0, end: 1 }]);
    expect(preview.overlapping).toEqual([]);
    expect(preview.add).toEqual([
      { document: 1, start: 5, end: 6 },
      { document: 2, start: 6, end: 7 },
    ]);
  });

  it("skips an occurrence that shares a word with a mention", () => {
    const touching = previewOccurrences(findOccurrences(docs, ["mixture", "was"], false), (d) =>
      mentions.get(d),
    );
    expect(touching.overlapping).toEqual([
      { document: 1, start: 1, end: 2 },
      { document: 1, start: 6, end: 7 },
    ]);
    expect(touching.add).toEqual([]);
  });

  it("removes the active mentions whose words are the text, discontinuous ones included", () => {
    const withParts = new Map<number, Mention[]>([
      [
        1,
        [
          ...mentions.get(1)!,
          makeMention(13, 1, [
            [0, 0],
            [6, 6],
          ]),
        ],
      ],
      [2, [makeMention(20, 2, [[6, 7]]), makeMention(21, 2, [[7, 8]])]],
    ]);
    const removed = mentionsWithWords(docs, (d) => withParts.get(d), ["THE", "mixture"], false);
    expect(removed.map((m) => m.id)).toEqual([10, 13, 20]);
    expect(
      mentionsWithWords(docs, (d) => withParts.get(d), ["the", "mixture"], true).map((m) => m.id),
    ).toEqual([20]);
    expect(
      wordsOf(docs[0]!.tokens, [
        [0, 0],
        [6, 6],
      ]),
    ).toEqual(["The", "mixture"]);
  });
});
