// The TypeScript twin of the notes and attributes on links and clusters
// (annotation/domain/effects.py, tests/domain/operations/test_link_notes_and_attributes.py).
import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/api/types";
import { applyEffects, CorruptEffects, invertEffects } from "../../src/domain/effects";
import { AnnotationState } from "../../src/domain/state";
import { nextValue } from "../../src/workspace/noteCommands";
import { topic } from "./factories";

const base = () =>
  topic(
    { 1: ["A", [1]], 2: ["B", [3]] },
    {
      links: [
        ["COREFERENCE", 2, 1],
        ["WORK_UP", 3, 1],
      ],
      settings: { anaphora: true },
    },
  );

const WRITTEN: Effect[] = [
  { e: "link_note_set", type: "WORK_UP", anaphor: 3, antecedent: 1, old: "", new: "filtered" },
  { e: "link_attribute_set", type: "COREFERENCE", anaphor: 2, antecedent: 1, name: "certainty", old: null, new: "low" },
  { e: "link_attribute_set", type: "COREFERENCE", anaphor: 2, antecedent: 1, name: "source", old: null, new: "text" },
  { e: "cluster_attribute_set", cluster: 2, name: "certainty", old: null, new: "high" },
];

describe("notes and attributes", () => {
  it("give the snapshot Python's state gives for the same effects", () => {
    const state = base();
    applyEffects(state, WRITTEN);
    const snapshot = state.snapshot() as Record<string, unknown>;
    // Printed by annotation.domain.state.AnnotationState.snapshot() for the same topic and effects.
    expect({
      link_notes: snapshot.link_notes,
      link_attributes: snapshot.link_attributes,
      cluster_attributes: snapshot.cluster_attributes,
    }).toEqual({
      link_notes: [["WORK_UP", 3, 1, "filtered"]],
      link_attributes: [
        ["COREFERENCE", 2, 1, "certainty", "low"],
        ["COREFERENCE", 2, 1, "source", "text"],
      ],
      cluster_attributes: [[2, "certainty", "high"]],
    });
  });

  it("are undone by the inverse effects", () => {
    const state = base();
    const before = state.snapshot();
    applyEffects(state, WRITTEN);
    applyEffects(state, invertEffects(WRITTEN));
    expect(state.snapshot()).toEqual(before);
    expect(state.linkAttributes.size).toBe(0);
  });

  it("refuse a value that is not the one the state holds, and roll back", () => {
    const state = base();
    applyEffects(state, WRITTEN);
    const wrong: Effect[] = [
      { e: "link_note_set", type: "WORK_UP", anaphor: 3, antecedent: 1, old: "filtered", new: "" },
      { e: "cluster_attribute_set", cluster: 2, name: "certainty", old: "low", new: null },
    ];
    expect(() => applyEffects(state, wrong)).toThrow(CorruptEffects);
    expect(state.linkNotes.get("WORK_UP|3|1")).toBe("filtered");
  });

  it("keep a noted link or a cluster with attributes from being removed bare", () => {
    const state = base();
    applyEffects(state, WRITTEN);
    expect(() => applyEffects(state, [{ e: "link_removed", type: "WORK_UP", anaphor: 3, antecedent: 1 }])).toThrow(
      /still has a note or attributes/,
    );
    applyEffects(state, [{ e: "member_set", mention: 3, old: 2, new: null }]);
    expect(() => applyEffects(state, [{ e: "cluster_deleted", cluster: 2, label: "B", note: "" }])).toThrow(
      /still has attributes/,
    );
  });

  it("load from the workspace payload's link details", () => {
    const state = new AnnotationState({
      mentions: base().mentions.values(),
      links: [{ type: "COREFERENCE", anaphor: 2, antecedent: 1 }],
      clusters: [{ id: 1, label: "A", members: [1], attributes: { certainty: "low" } }],
      linkDetails: [{ type: "COREFERENCE", anaphor: 2, antecedent: 1, note: "same", attributes: { certainty: "high" } }],
    });
    expect(state.linkNotes.get("COREFERENCE|2|1")).toBe("same");
    expect(state.linkAttributes.get("COREFERENCE|2|1")?.get("certainty")).toBe("high");
    expect(state.clusters.get(1)?.attributes.get("certainty")).toBe("low");
  });
});

describe("nextValue (Alt+k)", () => {
  it("steps through the values, then none, then the first again", () => {
    const values = ["high", "low"];
    expect(nextValue(values, null)).toBe("high");
    expect(nextValue(values, "high")).toBe("low");
    expect(nextValue(values, "low")).toBeNull();
  });
});
