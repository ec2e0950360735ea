// The state cases shared with pytest (fixtures/golden/twins/states.json, read there by
// tests/domain/test_golden_states.py): the same rows give the same snapshot as Python's.
import { describe, expect, it } from "vitest";
import golden from "../../../fixtures/golden/twins/states.json";
import { asRows, picture, stateFrom } from "./twins";

interface Case {
  name: string;
  state: unknown;
  snapshot?: unknown;
  refused?: boolean;
}
const cases = golden.cases as Case[];

describe("the shared state cases", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    if (c.refused) {
      expect(() => stateFrom(asRows(c.state))).toThrow();
      return;
    }
    expect(picture(stateFrom(asRows(c.state)))).toEqual(c.snapshot);
  });
});
