// What the shared effect cases (fixtures/golden/twins/effects.json, run by
// effects.golden.test.ts and by pytest) cannot say: the indexes the browser keeps beside the state.
import { describe, expect, it } from "vitest";
import { applyEffects } from "../../src/domain/effects";
import { topic } from "./factories";

describe("applyEffects", () => {
  it("keeps the link index in step with links", () => {
    const state = topic({}, { settings: { anaphora: true } });
    applyEffects(state, [{ e: "link_added", type: "COREFERENCE", anaphor: 2, antecedent: 1 }]);
    expect(state.mentionLinks.get(1)!.size).toBe(1);
    applyEffects(state, [{ e: "link_removed", type: "COREFERENCE", anaphor: 2, antecedent: 1 }]);
    expect(state.mentionLinks.get(1)!.size).toBe(0);
    expect(state.links.size).toBe(0);
  });
});
