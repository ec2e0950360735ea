import { describe, expect, it } from "vitest";
import { plural } from "../../src/admin/format";

describe("plural", () => {
  it("writes one of a thing in the singular", () => {
    expect(plural(1, "topic")).toBe("1 topic");
    expect(plural(1, "annotator")).toBe("1 annotator");
  });

  it("writes none and many in the plural", () => {
    expect(plural(0, "topic")).toBe("0 topics");
    expect(plural(2, "annotator")).toBe("2 annotators");
  });

  it("takes an irregular plural, verbs included", () => {
    expect(plural(1, "topic has", "topics have")).toBe("1 topic has");
    expect(plural(3, "topic has", "topics have")).toBe("3 topics have");
  });

  it("groups the digits of large counts", () => {
    expect(plural(12000, "mention")).toBe(`${(12000).toLocaleString()} mentions`);
  });
});
