// The effect cases shared with pytest (fixtures/golden/twins/effects.json, read there by
// tests/domain/test_golden_effects.py): the browser applies the server's effects with the
// same checks, the same refusals and the same all-or-nothing rule.
import { describe, expect, it } from "vitest";
import golden from "../../../fixtures/golden/twins/effects.json";
import type { Effect } from "../../src/api/types";
import {
  applyEffects,
  CorruptEffects,
  EFFECT_KINDS,
  invertEffects,
} from "../../src/domain/effects";
import { asRows, picture, stateFrom } from "./twins";

interface Case {
  name: string;
  kind: string;
  state: keyof typeof golden.states;
  effects: Effect[];
  state_after?: unknown;
  refused?: string;
}
const cases = golden.cases as unknown as Case[];
const start = (c: Case) => stateFrom(asRows(golden.states[c.state]));
// Each case gets its own copy: the JSON module is shared by every test.
const effectsOf = (c: Case): Effect[] => structuredClone(c.effects);

describe("the shared effect cases", () => {
  it("have a case that applies and one that is refused for every kind of effect", () => {
    const kinds = (test: (c: Case) => boolean) =>
      new Set(
        cases
          .filter(test)
          .map((c) => c.kind)
          .filter((k) => k !== "sequence"),
      );
    expect([...kinds((c) => c.state_after !== undefined)].sort()).toEqual([...EFFECT_KINDS].sort());
    expect([...kinds((c) => c.refused !== undefined)].sort()).toEqual([...EFFECT_KINDS].sort());
  });

  it.each(cases.map((c) => [`${c.kind}: ${c.name}`, c] as const))("%s", (_, c) => {
    const state = start(c);
    const before = picture(state);
    if (c.refused !== undefined) {
      let refusal: unknown;
      try {
        applyEffects(state, effectsOf(c));
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(CorruptEffects);
      expect((refusal as Error).message.startsWith(c.refused), (refusal as Error).message).toBe(
        true,
      );
      expect(picture(state)).toEqual(before); // all or nothing
      return;
    }
    applyEffects(state, effectsOf(c));
    expect(picture(state)).toEqual(c.state_after);
    applyEffects(state, invertEffects(effectsOf(c)));
    expect(picture(state)).toEqual(before);
    expect(invertEffects(invertEffects(effectsOf(c)))).toEqual(c.effects);
  });
});
