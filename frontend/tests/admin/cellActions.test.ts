// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import CellActions from "../../src/admin/assign/CellActions.vue";
import { cell } from "./factories";

function deleteDialog(cells: ReturnType<typeof cell>[]) {
  const wrapper = mount(CellActions, { props: { cells, users: [], taken: new Set<number>() } });
  return wrapper
    .findAll("button")
    .find((b) => b.text() === "Delete…")!
    .trigger("click")
    .then(() => wrapper.text());
}

describe("the selected assignments' actions", () => {
  it("counts an annotation holding only the topic's seed as not started", async () => {
    const seeded = cell({ assignment: 1, topic: 1, user: 7, version: 1, start_version: 1 });

    expect(await deleteDialog([seeded])).toContain("None of them has been started.");
  });

  it("counts a change above the seed as work", async () => {
    const worked = cell({ assignment: 1, topic: 1, user: 7, version: 2, start_version: 1 });
    const unseeded = cell({ assignment: 2, topic: 2, user: 7, version: 1, start_version: 0 });

    expect(await deleteDialog([worked, unseeded])).toContain("2 of them have work in them");
  });
});
