// A row of the agreement report opens each annotator's annotation of the topic.
import { describe, expect, it } from "vitest";
import { reviewLink, reviewLinks } from "../../src/admin/agreement/reviewLinks";
import { cell, progress } from "./factories";

describe("reviewLinks", () => {
  it("finds each annotator's annotation of a topic by topic id and username", () => {
    const links = reviewLinks(progress());
    expect(reviewLink(links, "a", "ann")).toBe(1011);
    expect(reviewLink(links, "a", "bob")).toBe(1012);
    expect(reviewLink(links, "b", "ann")).toBeUndefined();
  });

  it("leaves out adjudications", () => {
    const payload = progress();
    payload.cells.push(cell({ assignment: 31, topic: 3, user: 7, role: "adjudicator" }));
    expect(reviewLink(reviewLinks(payload), "c", "ann")).toBeUndefined();
  });
});
