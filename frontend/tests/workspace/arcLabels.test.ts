// Arc labels placed so that none covers a word or another label.
import { describe, expect, it } from "vitest";
import { bezierPoints, placeLabels, type Box } from "../../src/workspace/arcLabels";

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const bounds = { x: 0, y: 0, width: 400, height: 200 };

describe("placeLabels", () => {
  it("moves a label along its arc past a word and past a label placed before it", () => {
    const word = { x: 40, y: 40, width: 30, height: 16 };
    const placed = placeLabels(
      [
        {
          key: "a",
          width: 20,
          height: 10,
          candidates: [
            { x: 55, y: 48 },
            { x: 100, y: 30 },
          ],
        },
        {
          key: "b",
          width: 20,
          height: 10,
          candidates: [
            { x: 100, y: 30 },
            { x: 110, y: 30 },
            { x: 140, y: 30 },
          ],
        },
      ],
      [word],
      bounds,
    );
    expect(placed.get("a")).toEqual({ x: 90, y: 25 });
    expect(placed.get("b")).toEqual({ x: 130, y: 25 });
  });

  it("leaves out a label that fits nowhere, and never lets two placed ones overlap", () => {
    const words = Array.from({ length: 20 }, (_, i) => ({
      x: i * 20,
      y: 50,
      width: 18,
      height: 16,
    }));
    const labels = Array.from({ length: 40 }, (_, i) => ({
      key: `l${i}`,
      width: 24,
      height: 10,
      candidates: [0, 10, 20, 30].map((dx) => ({
        x: 20 + ((i * 7 + dx) % 360),
        y: 40 + (i % 3) * 8,
      })),
    }));
    const placed = placeLabels(labels, words, bounds);
    const boxes = [...placed.values()].flatMap((p) => (p ? [{ ...p, width: 24, height: 10 }] : []));
    expect(boxes.length).toBeGreaterThan(5);
    expect(boxes.length).toBeLessThan(40);
    for (const [i, a] of boxes.entries()) {
      for (const word of words) expect(overlap(a, word)).toBe(false);
      for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
    }
  });

  it("keeps labels inside the drawing", () => {
    const placed = placeLabels(
      [
        {
          key: "a",
          width: 20,
          height: 10,
          candidates: [
            { x: 5, y: 5 },
            { x: 30, y: 30 },
          ],
        },
      ],
      [],
      bounds,
    );
    expect(placed.get("a")).toEqual({ x: 20, y: 25 });
  });
});

describe("bezierPoints", () => {
  it("gives the ends at 0 and 1 and the middle of a symmetric arc at 0.5", () => {
    const arc = [
      { x: 0, y: 40 },
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 40 },
    ] as const;
    expect(bezierPoints(arc, [0, 0.5, 1])).toEqual([
      { x: 0, y: 40 },
      { x: 50, y: 10 },
      { x: 100, y: 40 },
    ]);
  });
});
