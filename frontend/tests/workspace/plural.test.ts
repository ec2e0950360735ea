import { describe, expect, it } from "vitest";
import { countOf, nounFor } from "../../src/workspace/plural";

describe("countOf", () => {
  it("says 1 topic, 2 topics, 0 topics", () => {
    expect(countOf(1, "topic")).toBe("1 topic");
    expect(countOf(2, "topic")).toBe("2 topics");
    expect(countOf(0, "topic")).toBe("0 topics");
    expect(countOf(1, "hierarchy edge")).toBe("1 hierarchy edge");
    expect(countOf(1200, "mention")).toBe("1,200 mentions");
  });

  it("takes an irregular plural", () => {
    expect(nounFor(3, "child", "children")).toBe("children");
  });
});
