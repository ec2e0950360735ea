import { describe, expect, it } from "vitest";
import { extendSelection, moveCaret, spanOf } from "../../src/workspace/textSelection";

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
