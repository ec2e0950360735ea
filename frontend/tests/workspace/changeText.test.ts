// Undo and redo say what they undid or redid, from the effects the server sends.
import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/api/types";
import { invertEffects } from "../../src/domain/effects";
import { describeChange, type ChangeNames } from "../../src/workspace/changeText";

const names: ChangeNames = {
  mention: (id) => `"m${id}"`,
  cluster: (id) => (id === 1 ? `"CRF tagger"` : `"c${id}"`),
  text: (_document, spans) => `"text ${spans[0]![0]}"`,
};

const undo = (name: string, effects: Effect[]) =>
  describeChange({ name, kind: "undo", effects: invertEffects(effects) }, names);
const redo = (name: string, effects: Effect[]) =>
  describeChange({ name, kind: "redo", effects }, names);

describe("describeChange", () => {
  it("names both clusters of an undone merge, the source by the label its effect carries", () => {
    const merge: Effect[] = [
      { e: "member_set", mention: 3, old: 2, new: 1 },
      { e: "cluster_deleted", cluster: 2, label: "CRF", note: "" },
    ];
    expect(undo("merge", merge)).toBe('Undid merge of "CRF" into "CRF tagger".');
    expect(redo("merge", merge)).toBe('Redid merge of "CRF" into "CRF tagger".');
  });

  it("says an assignment went to a new cluster when the operation created it", () => {
    const assign: Effect[] = [
      { e: "cluster_created", cluster: 9, label: "m4", note: "" },
      { e: "member_set", mention: 4, old: null, new: 9 },
    ];
    expect(undo("assign", assign)).toBe('Undid assignment of "m4" to a new cluster.');
    expect(undo("assign", [{ e: "member_set", mention: 4, old: null, new: 1 }])).toBe(
      'Undid assignment of "m4" to "CRF tagger".',
    );
  });

  it("names a rename by its old and new label, and a split by how many it moved", () => {
    expect(undo("rename", [{ e: "label_set", cluster: 1, old: "CRF", new: "CRF tagger" }])).toBe(
      'Undid rename of "CRF" to "CRF tagger".',
    );
    const split: Effect[] = [
      { e: "cluster_created", cluster: 9, label: "m4", note: "" },
      { e: "member_set", mention: 4, old: 1, new: 9 },
      { e: "member_set", mention: 5, old: 1, new: 9 },
    ];
    expect(redo("split", split)).toBe("Redid split of 2 mentions into a new cluster.");
  });

  it("names links and hierarchy edges by their ends", () => {
    expect(
      undo("add_link", [{ e: "link_added", type: "COREFERENCE", anaphor: 5, antecedent: 2 }]),
    ).toBe('Undid adding the COREFERENCE link "m5" → "m2".');
    expect(undo("set_parent", [{ e: "edge_added", parent: 1, child: 7 }])).toBe(
      'Undid putting "c7" under "CRF tagger".',
    );
    expect(undo("set_parent", [{ e: "edge_removed", parent: 1, child: 7 }])).toBe(
      'Undid move of "c7" to the top level.',
    );
  });

  it("names an added mention by its text, since undoing it removes the mention", () => {
    expect(
      undo("add_mention", [{ e: "mention_added", mention: 50, document: 1, spans: [[12, 13]] }]),
    ).toBe('Undid adding the mention "text 12".');
  });
});
