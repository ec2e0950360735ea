import { describe, expect, it } from "vitest";
import type { AnnotatorTime, TimeReport } from "../../../src/api/adminTypes";
import { latency, seconds, sparkline, usedKinds } from "../../../src/admin/progress/timeReport";

const kind = (count: number, excluded = 0) => ({
  count,
  total_seconds: count,
  median_seconds: count ? 1 : null,
  mean_seconds: count ? 1 : null,
  excluded,
});
const annotator = (
  kinds: Record<string, ReturnType<typeof kind>>,
  scores: (number | null)[] = [],
): AnnotatorTime => ({
  annotator: "ann",
  kinds,
  acceptance: { accepted: 0, unseen: 0, median_seconds: null, rubber_stamping: false },
  gold: {
    topics: scores.map((score, i) => ({
      order: i + 1,
      topic: i,
      external_id: `t${i}`,
      submitted_at: null,
      week: "",
      score,
    })),
    weeks: [],
  },
});

describe("the time report's helpers", () => {
  it("shows the kinds someone decided, a first decision of a topic included", () => {
    const report: TimeReport = {
      idle_cap_seconds: 300,
      rubber_stamp_seconds: 0.5,
      kinds: ["assign", "merge", "split"],
      gold_metric: null,
      annotators: [annotator({ assign: kind(3), merge: kind(0, 1), split: kind(0) })],
    };
    expect(usedKinds(report)).toEqual(["assign", "merge"]);
  });

  it("writes seconds and latencies for a reader", () => {
    expect(seconds(4.21)).toBe("4.2 s");
    expect(seconds(42.4)).toBe("42 s");
    expect(seconds(65)).toBe("1 min 05 s");
    expect(seconds(null)).toBe("–");
    expect(latency(0.2)).toBe("200 ms");
    expect(latency(2.5)).toBe("2.5 s");
  });

  it("draws scores in submission order, higher up, and nothing for fewer than two", () => {
    expect(sparkline(annotator({}, [1, 0.5, null, 0]), 100, 20)).toBe(
      "0.0,1.0 50.0,10.0 100.0,19.0",
    );
    expect(sparkline(annotator({}, [0.7]))).toBe("");
  });
});
