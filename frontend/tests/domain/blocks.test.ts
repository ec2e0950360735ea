import { describe, expect, it } from "vitest";
import { blockOf, blockRanges, documentBlocks } from "../../src/domain/blocks";
import { buildPieces, type Piece } from "../../src/domain/pieces";

function outline(pieces: Piece[]): string {
  return pieces
    .map((p) =>
      p.kind === "text"
        ? `${p.start}-${p.end}`
        : `[m${p.mention} ${p.start}-${p.end}${p.children.length ? ` ${outline(p.children)}` : ""}]`,
    )
    .join(" ");
}

describe("blocks of a long document", () => {
  it("ends a block with the sentence that takes it to the size", () => {
    expect(
      blockRanges(
        10,
        [
          [0, 3],
          [3, 5],
          [5, 8],
          [8, 10],
        ],
        4,
      ),
    ).toEqual([
      [0, 4],
      [5, 9],
    ]);
  });

  it("joins a short rest to the last block", () => {
    expect(
      blockRanges(
        10,
        [
          [0, 4],
          [4, 9],
          [9, 10],
        ],
        4,
      ),
    ).toEqual([
      [0, 3],
      [4, 9],
    ]);
  });

  it("cuts a run without a sentence end at the size", () => {
    expect(blockRanges(10, [[0, 10]], 4)).toEqual([
      [0, 3],
      [4, 9],
    ]);
    expect(blockRanges(13, [[0, 13]], 4)).toEqual([
      [0, 3],
      [4, 7],
      [8, 12],
    ]);
  });

  it("keeps a short document whole and numbers the blocks of each document", () => {
    const doc = (n: number) => ({ tokens: Array.from({ length: n }, () => "w") });
    const docs = [doc(3), doc(9), doc(0)];
    const blocks = documentBlocks(docs, (d) => [[0, d.tokens.length]], 4);
    expect(blocks.map((b) => [b.index, b.part, b.start, b.end, b.last])).toEqual([
      [0, 0, 0, 2, true],
      [1, 0, 0, 3, false],
      [1, 1, 4, 8, true],
      [2, 0, 0, -1, true],
    ]);
    expect(blockOf(blocks, 1, 0)).toBe(1);
    expect(blockOf(blocks, 1, 5)).toBe(2);
    expect(blockOf(blocks, 1, 99)).toBe(2); // never into the next document
  });

  it("draws a block's tokens only, cutting a mention across its ends", () => {
    const mentions = [
      { id: 1, spans: [[1, 2]] as [number, number][] },
      { id: 2, spans: [[3, 6]] as [number, number][] },
      { id: 3, spans: [[8, 9]] as [number, number][] },
    ];
    expect(outline(buildPieces(10, mentions, 0, 4))).toBe("0-0 [m1 1-2 1-2] [m2 3-4 3-4]");
    expect(outline(buildPieces(10, mentions, 5, 9))).toBe("[m2 5-6 5-6] 7-7 [m3 8-9 8-9]");
  });
});
