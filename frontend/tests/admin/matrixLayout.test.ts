import { describe, expect, it } from "vitest";
import { COLUMN, matrixColumns, topicColumnWidth } from "../../src/admin/progress/matrix";

describe("the matrix's columns", () => {
  it("leave out the annotator columns when nobody is assigned: repeat(0, ...) is invalid CSS", () => {
    expect(matrixColumns(0, 100, false)).toBe(`100px minmax(${COLUMN.coverage}px, 1fr)`);
    expect(matrixColumns(0, 100, true)).not.toContain("repeat");
  });

  it("have a select column, the topic, one column per annotator and the coverage", () => {
    expect(matrixColumns(3, 120, true)).toBe(
      `${COLUMN.select}px 120px repeat(3, ${COLUMN.annotator}px) minmax(${COLUMN.coverage}px, 1fr)`,
    );
  });

  it("make the topic column as wide as the longest id, within bounds", () => {
    expect(topicColumnWidth([])).toBe(COLUMN.topicMin);
    expect(topicColumnWidth(["9001", "9002"])).toBe(COLUMN.topicMin);
    const long = "chemu-snippet-0042";
    expect(topicColumnWidth(["a", long])).toBe(long.length * 9 + 20);
    expect(topicColumnWidth(["x".repeat(200)])).toBe(COLUMN.topicMax);
  });
});
