import { describe, expect, it, vi } from "vitest";
import { ApiError, NetworkError } from "../../src/api/http";
import { createShownRecorder, type ShownItem } from "../../src/workspace/suggestionShown";

describe("the record of shown suggestions", () => {
  it("sends each suggestion's first display once, with how long ago it was shown", async () => {
    vi.useFakeTimers();
    let clock = 1000;
    const sent: ShownItem[][] = [];
    const recorder = createShownRecorder(async (items) => void sent.push(items), {
      now: () => clock,
      delay: 250,
    });

    recorder.shown(7);
    clock += 100;
    recorder.shown(8);
    recorder.shown(7); // shown again: not a new display
    clock += 150;
    await vi.advanceTimersByTimeAsync(250);

    expect(sent).toEqual([
      [
        { suggestion: 7, age_ms: 250 },
        { suggestion: 8, age_ms: 150 },
      ],
    ]);
    recorder.shown(7);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
    vi.useRealTimers();
  });

  it("keeps a batch the server did not take for the next one, with its first display time", async () => {
    vi.useFakeTimers();
    let clock = 0;
    let fail = true;
    const sent: ShownItem[][] = [];
    const recorder = createShownRecorder(
      async (items) => {
        if (fail) throw new NetworkError();
        sent.push(items);
      },
      { now: () => clock },
    );

    recorder.shown(1);
    await vi.advanceTimersByTimeAsync(250);
    fail = false;
    clock = 2000;
    recorder.shown(2);
    await vi.advanceTimersByTimeAsync(250);

    expect(sent).toEqual([
      [
        { suggestion: 1, age_ms: 2000 },
        { suggestion: 2, age_ms: 0 },
      ],
    ]);
    vi.useRealTimers();
  });

  it("drops a batch the server refused (a read-only topic)", async () => {
    vi.useFakeTimers();
    const calls: ShownItem[][] = [];
    const recorder = createShownRecorder(async (items) => {
      calls.push(items);
      throw new ApiError(409, { detail: "submitted" } as never);
    });
    recorder.shown(1);
    await vi.advanceTimersByTimeAsync(250);
    recorder.shown(2);
    await vi.advanceTimersByTimeAsync(250);
    expect(calls.map((batch) => batch.map((i) => i.suggestion))).toEqual([[1], [2]]);
    vi.useRealTimers();
  });
});
