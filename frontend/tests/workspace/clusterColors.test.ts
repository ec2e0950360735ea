// Cluster colours stay apart: neighbours differ in colour, repeats differ in border pattern.
import { describe, expect, it } from "vitest";
import {
  createClusterColors,
  PALETTE,
  PATTERNS,
  slotColor,
  swatchStyle,
} from "../../src/workspace/clusterColors";

function clusters(ids: number[]) {
  return {
    clusters: new Map(
      ids.map((id) => [
        id,
        {
          id,
          label: "",
          note: "",
          members: new Set<number>(),
          attributes: new Map<string, string>(),
        },
      ]),
    ),
  };
}

describe("cluster colours", () => {
  it("gives the first clusters the palette's distinct colours, in creation order", () => {
    const colors = createClusterColors(() => clusters([30, 10, 20]));
    expect([10, 20, 30].map((id) => colors.of(id).background)).toEqual(
      PALETTE.slice(0, 3).map((p) => p.background),
    );
  });

  it("never gives two clusters the same colour and pattern while fewer than palette x patterns exist", () => {
    const n = PALETTE.length * PATTERNS.length;
    const ids = Array.from({ length: n }, (_, i) => 1000 + 7 * i);
    const colors = createClusterColors(() => clusters(ids));
    const seen = new Set(ids.map((id) => `${colors.of(id).background}|${colors.of(id).pattern}`));
    expect(seen.size).toBe(n);
    expect(colors.of(ids[PALETTE.length]!).background).toBe(colors.of(ids[0]!).background);
    expect(colors.of(ids[PALETTE.length]!).pattern).not.toBe(colors.of(ids[0]!).pattern);
  });

  it("keeps every colour when a cluster goes, and gives its slot to the next new cluster", () => {
    let state = clusters([1, 2, 3]);
    const colors = createClusterColors(() => state);
    const before = [1, 3].map((id) => colors.of(id).slot);
    state = clusters([1, 3, 9]); // 2 merged away, 9 created
    expect([1, 3].map((id) => colors.of(id).slot)).toEqual(before);
    expect(colors.of(9).slot).toBe(1);
  });

  it("uses the second cue only past the palette", () => {
    expect(slotColor(0).pattern).toBe("solid");
    expect(slotColor(PALETTE.length - 1).pattern).toBe("solid");
    expect(slotColor(PALETTE.length).pattern).toBe("dashed");
  });

  it("fills the repeats of a colour differently, so the text tells them apart (not only the bank)", () => {
    const fills = PATTERNS.map((_, round) => slotColor(round * PALETTE.length).fill);
    expect(new Set(fills).size).toBe(PATTERNS.length);
    expect(fills[0]).toBe(PALETTE[0]!.background);
    for (const fill of fills) expect(fill).toContain(PALETTE[0]!.background);
    expect(swatchStyle(slotColor(PALETTE.length))).toEqual({
      background: fills[1],
      borderColor: PALETTE[0]!.border,
      borderStyle: "dashed",
    });
  });
});
