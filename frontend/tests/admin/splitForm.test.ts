import { describe, expect, it } from "vitest";
import { defaultParts, signedPercent, splitRequest } from "../../src/admin/datasets/splitForm";

describe("the split dialog's form", () => {
  it("makes the request of named shares", () => {
    expect(splitRequest(defaultParts(), "7", "mentions", false)).toEqual({
      request: {
        names: ["train", "dev", "test"],
        ratios: [0.6, 0.15, 0.25],
        seed: 7,
        balance: "mentions",
        replace: false,
      },
    });
  });

  it("says what is wrong before anything is sent", () => {
    const parts = [
      { name: "train", ratio: 0.5 },
      { name: "test", ratio: "0.6" },
    ];
    expect(splitRequest(parts, 0, "clusters", false)).toEqual({
      error: "The shares add up to 1.1, not 1.",
    });
    expect(splitRequest([{ name: "a", ratio: 1 }], 0, "clusters", false)).toEqual({
      error: "A split needs at least two parts.",
    });
    expect(
      splitRequest(
        [
          { name: "a", ratio: 0.5 },
          { name: " a", ratio: 0.5 },
        ],
        0,
        "clusters",
        false,
      ),
    ).toEqual({
      error: "The parts need different names.",
    });
    expect(
      splitRequest(
        [
          { name: "a", ratio: 0.5 },
          { name: "", ratio: 0.5 },
        ],
        0,
        "clusters",
        false,
      ),
    ).toEqual({
      error: "Every part needs a name.",
    });
    expect(
      splitRequest(
        [
          { name: "a", ratio: "x" },
          { name: "b", ratio: 0.5 },
        ],
        0,
        "clusters",
        false,
      ),
    ).toEqual({
      error: "Every share must be a number above 0.",
    });
    expect(splitRequest(defaultParts(), "-1", "clusters", false)).toEqual({
      error: "The seed is a whole number, 0 or more.",
    });
  });

  it("shows deviations as signed percentages", () => {
    expect(signedPercent(0.0123)).toBe("+1.2%");
    expect(signedPercent(-0.05)).toBe("−5.0%");
    expect(signedPercent(null)).toBe("–");
  });
});

describe("a refusal in the server's words", () => {
  it("gives the fields' reasons rather than 'Invalid input.'", async () => {
    const { ApiError } = await import("../../src/api/http");
    const { refusalText } = await import("../../src/admin/datasets/refusal");
    const refused = new ApiError(400, {
      error: "invalid",
      message: "Invalid input.",
      fields: { split: ["Ensure this field has no more than 40 characters."] },
    });
    expect(refusalText(refused)).toBe("Ensure this field has no more than 40 characters.");
    expect(refusalText(new ApiError(400, { error: "refused", message: "No." }))).toBe("No.");
  });
});
