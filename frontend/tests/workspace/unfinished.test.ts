// What the submit dialog lists as unfinished.
import { describe, expect, it } from "vitest";
import { blocksSubmit, needsConfirmation, unfinishedWork } from "../../src/workspace/unfinished";
import { topic } from "../domain/factories";

const ORDER = Array.from({ length: 12 }, (_, i) => i + 1);

describe("unfinishedWork", () => {
  it("lists the mentions in no cluster, in reading order, leaving out rejected ones", () => {
    const state = topic({ 100: ["A", [1, 2, 3, 5, 6, 7, 8, 9, 10]] }, { rejected: [12] });
    const work = unfinishedWork({
      state,
      project: { hierarchy: true, anaphora: false },
      order: ORDER,
      openSuggestions: 0,
    });
    expect(work.unclustered).toEqual([4, 11]);
    expect(blocksSubmit(work)).toBe(true);
  });

  it("counts an assignment sent but not yet confirmed as done", () => {
    const state = topic({ 100: ["A", ORDER.filter((id) => id !== 4)] });
    const pending = new Map([[4, 100]]);
    const work = unfinishedWork({
      state,
      project: { hierarchy: true, anaphora: false },
      order: ORDER,
      openSuggestions: 0,
      pendingAssign: pending,
    });
    expect(work.unclustered).toEqual([]);
    expect(blocksSubmit(work)).toBe(false);
    expect(needsConfirmation(work)).toBe(false);
  });

  it("lists mentions without a link in an anaphora project, and asks to confirm them", () => {
    const state = topic(
      {},
      { links: [["COREFERENCE", 2, 1]], settings: { anaphora: true, hierarchy: false } },
    );
    const work = unfinishedWork({
      state,
      project: { hierarchy: false, anaphora: true },
      order: [1, 2, 3],
      openSuggestions: 0,
    });
    expect(work.unlinked).toEqual([3]);
    expect(blocksSubmit(work)).toBe(false);
    expect(needsConfirmation(work)).toBe(true);
  });

  it("asks to confirm open suggestions", () => {
    const state = topic({ 100: ["A", ORDER] });
    const work = unfinishedWork({
      state,
      project: { hierarchy: true, anaphora: false },
      order: ORDER,
      openSuggestions: 2,
    });
    expect(needsConfirmation(work)).toBe(true);
  });
});
