// The ranking cases shared with pytest (fixtures/golden/twins/ranking.json, read there by
// tests/modelserve/test_golden_ranking.py): the browser asks first what the server ranks first.
import { describe, expect, it } from "vitest";
import golden from "../../../fixtures/golden/twins/ranking.json";
import { compareQuestions, type Ranked } from "../../src/workspace/questions";

interface Case {
  name: string;
  candidates: Ranked[];
  order: number[];
}
const cases = golden.cases as Case[];

describe("the shared ranking cases", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expect([...c.candidates].sort(compareQuestions).map((q) => q.suggestion)).toEqual(c.order);
    expect(
      [...c.candidates]
        .reverse()
        .sort(compareQuestions)
        .map((q) => q.suggestion),
    ).toEqual(c.order);
  });
});
