import { describe, expect, it } from "vitest";
import { assignRequest, overlapTopics } from "../../src/admin/assign/assignRequest";
import { addAll, inOrder, removeAll, setRange, toggleOne } from "../../src/admin/assign/selection";

const topics = Array.from({ length: 10 }, (_, i) => 100 + i);

describe("the balanced assignment form", () => {
  it("asks for each overlap topic k times, the overlap spread evenly over the chosen topics", () => {
    const plan = assignRequest(5, {
      mode: "balanced",
      topics,
      users: [7, 8, 9],
      k: 3,
      overlap: { kind: "count", count: 4, pick: "spread" },
    });

    expect(plan.errors).toEqual([]);
    expect(plan.request).toEqual({
      project: 5,
      topics,
      users: [7, 8, 9],
      mode: "balanced",
      k: 3,
      overlap: [100, 102, 105, 107],
    });
    expect(plan.upTo).toBe(4 * 3 + 6);
  });

  it("can take every topic, or the first N, as the overlap set", () => {
    expect(overlapTopics(topics, { kind: "all" })).toEqual(topics);
    expect(overlapTopics(topics, { kind: "none" })).toEqual([]);
    expect(overlapTopics(topics, { kind: "count", count: 3, pick: "first" })).toEqual([
      100, 101, 102,
    ]);
    expect(overlapTopics(topics, { kind: "count", count: 10, pick: "spread" })).toEqual(topics);
  });

  it("refuses k above the number of annotators and an overlap larger than the topics", () => {
    const plan = assignRequest(5, {
      mode: "balanced",
      topics: [1, 2],
      users: [7, 8],
      k: 3,
      overlap: { kind: "count", count: 5, pick: "first" },
    });

    expect(plan.request).toBeNull();
    expect(plan.errors).toEqual([
      "Each topic needs between 1 and 2 annotators (the number chosen).",
      "The overlap set needs between 1 and 2 topics.",
    ]);
  });

  it("needs topics and annotators", () => {
    const plan = assignRequest(5, {
      mode: "all",
      topics: [],
      users: [],
      k: 1,
      overlap: { kind: "none" },
    });

    expect(plan.errors).toEqual(["Choose at least one topic.", "Choose at least one annotator."]);
  });

  it("by hand sends every topic to every annotator, without k or overlap", () => {
    const plan = assignRequest(5, {
      mode: "all",
      topics: [1, 2, 2],
      users: [7],
      k: 3,
      overlap: { kind: "all" },
    });

    expect(plan.request).toEqual({ project: 5, topics: [1, 2], users: [7], mode: "all" });
    expect(plan.upTo).toBe(2);
  });

  it("by hand can assign adjudicators", () => {
    const plan = assignRequest(5, {
      mode: "all",
      topics: [1],
      users: [7],
      k: 1,
      overlap: { kind: "none" },
      role: "adjudicator",
    });

    expect(plan.request).toEqual({
      project: 5,
      topics: [1],
      users: [7],
      mode: "all",
      role: "adjudicator",
    });
  });
});

describe("selecting rows", () => {
  const ordered = [1, 2, 3, 4, 5];

  it("toggles one row", () => {
    expect([...toggleOne(new Set([1]), 2)]).toEqual([1, 2]);
    expect([...toggleOne(new Set([1, 2]), 2)]).toEqual([1]);
  });

  it("sets the range from the anchor to the target, in either direction", () => {
    expect(inOrder(setRange(new Set(), ordered, 2, 4, true), ordered)).toEqual([2, 3, 4]);
    expect(inOrder(setRange(new Set(ordered), ordered, 4, 2, false), ordered)).toEqual([1, 5]);
    expect(inOrder(setRange(new Set(), ordered, 99, 3, true), ordered)).toEqual([3]);
  });

  it("adds and removes the rows shown", () => {
    expect(inOrder(addAll(new Set([5]), [1, 2]), ordered)).toEqual([1, 2, 5]);
    expect(inOrder(removeAll(new Set(ordered), [1, 2]), ordered)).toEqual([3, 4, 5]);
  });
});
