import { describe, expect, it } from "vitest";
import {
  extendBySentence,
  extendSelection,
  moveBySentence,
  moveCaret,
  sentencesOf,
  spanOf,
  type TokenBox,
  tokenOnNextLine,
} from "../../src/workspace/textSelection";

const at = (anchor: number, focus: number) => ({ document: 7, anchor, focus });

describe("a text selection made by keyboard", () => {
  it("is a span from its first to its last token, whichever end moved", () => {
    expect(spanOf(at(3, 6))).toEqual([3, 6]);
    expect(spanOf(at(6, 3))).toEqual([3, 6]);
    expect(spanOf(at(4, 4))).toEqual([4, 4]);
  });

  it("grows and shrinks at its focus with Shift+arrows while the anchor stays", () => {
    const grown = extendSelection(extendSelection(at(53, 53), 1, 100), 1, 100);
    expect(grown).toEqual(at(53, 55));
    expect(extendSelection(grown, -1, 100)).toEqual(at(53, 54));
    expect(spanOf(extendSelection(at(53, 53), -2, 100))).toEqual([51, 53]);
  });

  it("collapses to one token next to the focus when the caret moves", () => {
    expect(moveCaret(at(2, 5), 1, 100)).toEqual(at(6, 6));
    expect(moveCaret(at(2, 5), -1, 100)).toEqual(at(4, 4));
  });

  it("stays inside its document", () => {
    expect(moveCaret(at(0, 0), -1, 10)).toEqual(at(0, 0));
    expect(extendSelection(at(8, 9), 1, 10)).toEqual(at(8, 9));
    expect(extendSelection(at(8, 9), 3, 10).document).toBe(7);
  });
});

describe("moving a selection by sentence and by line", () => {
  const sentences: [number, number][] = [
    [0, 4],
    [4, 9],
    [9, 12],
  ];

  it("takes a document's own sentences, else ends one at . ! or ? (a raw snippet)", () => {
    expect(sentencesOf({ tokens: ["a", "b"], sentences: [[0, 2]] })).toEqual([[0, 2]]);
    expect(
      sentencesOf({ tokens: ["It", "boils", ".", "Then", "?", "no", "end"], sentences: [] }),
    ).toEqual([
      [0, 3],
      [3, 5],
      [5, 7],
    ]);
  });

  it("moves the caret to the next sentence's first word, or back to its own sentence's first", () => {
    expect(moveBySentence(at(5, 6), 1, sentences)).toEqual(at(9, 9));
    expect(moveBySentence(at(9, 9), 1, sentences)).toEqual(at(9, 9)); // the last sentence
    expect(moveBySentence(at(6, 6), -1, sentences)).toEqual(at(4, 4));
    expect(moveBySentence(at(4, 4), -1, sentences)).toEqual(at(0, 0));
  });

  it("extends the focus to its sentence's end, then the next one's, and back to starts", () => {
    expect(extendBySentence(at(5, 5), 1, sentences)).toEqual(at(5, 8));
    expect(extendBySentence(at(5, 8), 1, sentences)).toEqual(at(5, 11));
    expect(extendBySentence(at(5, 7), -1, sentences)).toEqual(at(5, 4));
    expect(extendBySentence(at(5, 4), -1, sentences)).toEqual(at(5, 0));
  });

  it("goes to the word drawn below (or above) nearest in x, and nowhere past the last line", () => {
    const box = (token: number, line: number, left: number): TokenBox => ({
      token,
      top: line * 20,
      bottom: line * 20 + 16,
      left,
      right: left + 40,
    });
    const boxes = [
      box(0, 0, 0),
      box(1, 0, 50),
      box(2, 0, 100),
      box(3, 1, 0),
      box(4, 1, 70),
      box(5, 2, 0),
    ];
    expect(tokenOnNextLine(boxes, 1, 1)).toBe(4);
    expect(tokenOnNextLine(boxes, 2, 1)).toBe(4);
    expect(tokenOnNextLine(boxes, 4, -1)).toBe(1);
    expect(tokenOnNextLine(boxes, 4, 1)).toBe(5);
    expect(tokenOnNextLine(boxes, 5, 1)).toBeNull();
    expect(tokenOnNextLine(boxes, 0, -1)).toBeNull();
  });
});
