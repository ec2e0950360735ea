import { describe, expect, it } from "vitest";
import { adjudicatedText, adjudicateRequest } from "../../src/admin/assign/adjudicate";

const form = { adjudicator: 7, seed: "consensus", threshold: 0.5, submit: false, topics: [3, 1] };

describe("the adjudicate bulk action", () => {
  it("sends the adjudicator, the seed, the threshold and the selected topics", () => {
    expect(adjudicateRequest(2, form)).toEqual({
      request: {
        project: 2,
        user: 7,
        topics: [3, 1],
        seed: "consensus",
        threshold: 0.5,
        submit: false,
      },
      errors: [],
    });
  });

  it("sends no topics to mean every topic with two submitted annotations", () => {
    expect(adjudicateRequest(2, { ...form, topics: [] }).request?.topics).toEqual([]);
  });

  it("refuses to send without an adjudicator, a seed or a threshold below 1", () => {
    const { request, errors } = adjudicateRequest(2, {
      ...form,
      adjudicator: null,
      seed: " ",
      threshold: 1,
    });

    expect(request).toBeNull();
    expect(errors).toEqual([
      "Choose the adjudicator.",
      "Choose what the adjudication starts from.",
      "The threshold is at least 0 and below 1.",
    ]);
  });

  it("says what was assigned, submitted and skipped", () => {
    expect(
      adjudicatedText({ user: "judge", created: ["1", "2"], skipped: ["3"], submitted: 2 }),
    ).toBe(
      "2 adjudications assigned to judge; 2 submitted as seeded; 1 already adjudicated by judge, skipped.",
    );
  });
});
