// Vitest's default environment is Node: a file that needs a DOM names happy-dom in a
// vitest-environment docblock on its first line, so the other files do not pay for one.
import { describe, expect, it } from "vitest";

describe("the test environment", () => {
  it("has no DOM unless the file asks for one", () => {
    expect(typeof document).toBe("undefined");
    expect(typeof window).toBe("undefined");
  });
});
