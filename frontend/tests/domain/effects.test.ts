// Ports of tests/domain/operations/test_effects.py: the browser applies the server's effects
// with the same checks and the same all-or-nothing rule.
import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/api/types";
import { applyEffects, CorruptEffects, invertEffects } from "../../src/domain/effects";
import { topic } from "./factories";

const EVERY_KIND: Effect[] = [
  { e: "cluster_created", cluster: 100, label: "new", note: "" },
  { e: "member_set", mention: 5, old: null, new: 100 },
  { e: "edge_added", parent: 1, child: 100 },
  { e: "label_set", cluster: 100, old: "new", new: "renamed" },
  { e: "note_set", cluster: 100, old: "", new: "a note" },
  { e: "link_added", type: "WORK_UP", anaphor: 2, antecedent: 1 },
  { e: "mention_added", mention: 1000, document: 1, spans: [[20, 21], [23, 23]] },
  { e: "spans_set", mention: 1000, old: [[20, 21], [23, 23]], new: [[20, 22]] },
  { e: "rejected_set", mention: 3, old: false, new: true },
  { e: "suggestion_decided", suggestion: 7, old: null, new: "accepted" },
];

const base = () => topic({ 1: ["A", [1]] }, { settings: { anaphora: true } });

describe("applyEffects", () => {
  it("applies effects that survive a JSON round trip", () => {
    const state = base();
    const viaJson = base();
    applyEffects(state, EVERY_KIND);
    applyEffects(viaJson, JSON.parse(JSON.stringify(EVERY_KIND)) as Effect[]);
    expect(viaJson.snapshot()).toEqual(state.snapshot());
  });

  it("undoes every kind of effect with the inverse", () => {
    const state = base();
    const before = state.snapshot();
    applyEffects(state, EVERY_KIND);
    applyEffects(state, invertEffects(EVERY_KIND));
    expect(state.snapshot()).toEqual(before);
  });

  it("gives the effects back when inverting twice", () => {
    expect(invertEffects(invertEffects(EVERY_KIND))).toEqual(EVERY_KIND);
  });

  it("refuses a stale old value", () => {
    expect(() => applyEffects(base(), [{ e: "label_set", cluster: 1, old: "not A", new: "B" }])).toThrow(/label differs/);
  });

  it("rolls back the effects before a failing one", () => {
    const state = base();
    const before = state.snapshot();
    expect(() =>
      applyEffects(state, [
        { e: "cluster_created", cluster: 100, label: "new", note: "" },
        { e: "member_set", mention: 2, old: null, new: 100 },
        { e: "edge_added", parent: 1, child: 1 },
      ]),
    ).toThrow(CorruptEffects);
    expect(state.snapshot()).toEqual(before);
  });

  it("does not delete a cluster with members", () => {
    expect(() => applyEffects(base(), [{ e: "cluster_deleted", cluster: 1, label: "A", note: "" }])).toThrow(
      /still has members/,
    );
  });

  it("does not delete a cluster with edges", () => {
    const state = topic({ 1: ["A", [1]], 2: ["B", [2]] }, { edges: [[1, 2]] });
    expect(() =>
      applyEffects(state, [
        { e: "member_set", mention: 1, old: 1, new: 2 },
        { e: "cluster_deleted", cluster: 1, label: "A", note: "" },
      ]),
    ).toThrow(/still has edges/);
  });

  it("does not let a rejected mention join a cluster", () => {
    expect(() => applyEffects(topic({ 1: ["A", [1]] }, { rejected: [2] }), [{ e: "member_set", mention: 2, old: null, new: 1 }])).toThrow(
      /rejected/,
    );
  });

  it("does not mark a mention in a cluster rejected", () => {
    expect(() => applyEffects(base(), [{ e: "rejected_set", mention: 1, old: false, new: true }])).toThrow(CorruptEffects);
  });

  it("refuses an unknown effect", () => {
    expect(() => applyEffects(base(), [{ e: "teleport" } as unknown as Effect])).toThrow(/unknown effect/);
  });

  it("refuses a malformed effect", () => {
    expect(() => applyEffects(base(), [{ e: "edge_added", parent: 1 } as unknown as Effect])).toThrow(/malformed/);
  });

  it("re-attaches the children of an emptied cluster (the server's effects for assign m2 -> P)", () => {
    // test_an_emptied_clusters_deletion_comes_after_its_moves_and_edge_changes
    const state = topic({ 1: ["P", [1]], 2: ["E", [2], "note"], 3: ["C", [3]] }, { edges: [[1, 2], [2, 3]] });
    applyEffects(state, [
      { e: "member_set", mention: 2, old: 2, new: 1 },
      { e: "edge_removed", parent: 1, child: 2 },
      { e: "edge_removed", parent: 2, child: 3 },
      { e: "edge_added", parent: 1, child: 3 },
      { e: "cluster_deleted", cluster: 2, label: "E", note: "note" },
    ]);
    expect(state.clusters.has(2)).toBe(false);
    expect([...state.children.get(1)!]).toEqual([3]);
    expect([...state.parents.get(3)!]).toEqual([1]);
    expect([...state.clusters.get(1)!.members].sort()).toEqual([1, 2]);
  });

  it("moves a merged cluster's mentions, children and note to the target", () => {
    // merge(source=2, target=3) with 1 -> 2 -> 4 and 3 at the top: the planner's effects.
    const state = topic({ 1: ["P", [1]], 2: ["S", [2, 5], "s-note"], 3: ["T", [3]], 4: ["K", [4]] }, { edges: [[1, 2], [2, 4]] });
    applyEffects(state, [
      { e: "member_set", mention: 2, old: 2, new: 3 },
      { e: "member_set", mention: 5, old: 2, new: 3 },
      { e: "edge_removed", parent: 1, child: 2 },
      { e: "edge_removed", parent: 2, child: 4 },
      { e: "edge_added", parent: 1, child: 3 },
      { e: "edge_added", parent: 3, child: 4 },
      { e: "note_set", cluster: 3, old: "", new: "s-note" },
      { e: "cluster_deleted", cluster: 2, label: "S", note: "s-note" },
    ]);
    expect(state.snapshot()).toEqual(
      topic({ 1: ["P", [1]], 3: ["T", [2, 3, 5], "s-note"], 4: ["K", [4]] }, { edges: [[1, 3], [3, 4]] }).snapshot(),
    );
  });

  it("keeps the link index in step with links", () => {
    const state = topic({}, { settings: { anaphora: true } });
    applyEffects(state, [{ e: "link_added", type: "COREFERENCE", anaphor: 2, antecedent: 1 }]);
    expect(state.mentionLinks.get(1)!.size).toBe(1);
    applyEffects(state, [{ e: "link_removed", type: "COREFERENCE", anaphor: 2, antecedent: 1 }]);
    expect(state.mentionLinks.get(1)!.size).toBe(0);
    expect(state.links.size).toBe(0);
  });
});
