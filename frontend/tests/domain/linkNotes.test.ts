// The notes and attributes on links and clusters as the workspace payload loads them; their
// effects are among the cases shared with pytest (fixtures/golden/twins/effects.json).
import { describe, expect, it } from "vitest";
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

describe("notes and attributes", () => {
  it("load from the workspace payload's link details", () => {
    const state = new AnnotationState({
      mentions: base().mentions.values(),
      links: [{ type: "COREFERENCE", anaphor: 2, antecedent: 1 }],
      clusters: [{ id: 1, label: "A", members: [1], attributes: { certainty: "low" } }],
      linkDetails: [
        {
          type: "COREFERENCE",
          anaphor: 2,
          antecedent: 1,
          note: "same",
          attributes: { certainty: "high" },
        },
      ],
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
