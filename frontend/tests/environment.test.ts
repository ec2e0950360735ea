// Vitest's default environment is Node: a file that needs a DOM says so in its first line
// (`// @vitest-environment happy-dom`), so the other files do not pay for setting one up.
import { describe, expect, it } from "vitest";

describe("the test environment", () => {
  it("has no DOM unless the file asks for one", () => {
    expect(typeof document).toBe("undefined");
    expect(typeof window).toBe("undefined");
  });
});
