import { describe, expect, it } from "vitest";
import { leftOutLines } from "../../src/admin/agreement/leftOut";
import { formatDefined } from "../../src/admin/agreement/metrics";
import { report } from "./factories";

describe("what the agreement report leaves out", () => {
  it("names the practice topics and each metric's undefined topics, with the reason", () => {
    const lines = leftOutLines(report());

    expect(lines.map((line) => line.text)).toEqual([
      "1 practice topic left out, p1: practice topics measure each annotator against gold",
      "Path ratio undefined on 1 topic, t2 (no hierarchy relation on either side): left out of its AVG, MAX-micro and MAX-macro",
    ]);
    expect(lines[1]!.topics).toEqual(["t2"]);
  });

  it("puts metrics undefined on the same topics for the same reason on one line", () => {
    const base = report();
    const same = { topics: ["t2", "t3"], reason: "no hierarchy relation on either side" };
    const grouped = {
      ...base,
      left_out: {
        ...base.left_out,
        practice: { topics: [], reason: "" },
        undefined: { hierarchy_f1: same, path_ratio: same },
      },
    };

    expect(leftOutLines(grouped).map((line) => line.text)).toEqual([
      "Hierarchy F1 (SciCo, closure), Path ratio undefined on 2 topics, t2, t3 (no hierarchy relation on either side): left out of their AVG, MAX-micro and MAX-macro",
    ]);
  });

  it("says nothing when nothing is left out", () => {
    const plain = {
      ...report(),
      left_out: {
        practice: { topics: [], reason: "" },
        unscored: { topics: [], reason: "" },
        undefined: {},
      },
    };
    expect(leftOutLines(plain)).toEqual([]);
  });

  it("writes an undefined score as undefined, never as 0", () => {
    expect(formatDefined("conll_f1", null)).toBe("undefined");
    expect(formatDefined("conll_f1", 0)).toBe("0.0");
  });
});
