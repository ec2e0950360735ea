import { describe, expect, it } from "vitest";
import {
  applyMessage,
  buildMatrix,
  columnTotals,
  filterMatrixRows,
} from "../../src/admin/progress/matrix";
import { throttle, type Timers } from "../../src/admin/progress/throttle";
import { parseImportProblem } from "../../src/admin/data/importErrors";
import { progress } from "./factories";

describe("the progress matrix", () => {
  it("has a row per topic and a column per annotator, empty where not assigned", () => {
    const m = buildMatrix(progress());

    expect(m.annotators.map((a) => a.username)).toEqual(["ann", "bob"]);
    expect(m.rows.map((r) => r.cells.map((c) => c?.assignment ?? null))).toEqual([
      [11, 12],
      [null, 21],
      [null, null],
    ]);
  });

  it("adds extra columns for people without a topic yet", () => {
    const m = buildMatrix(progress(), [
      { id: 8, username: "bob" },
      { id: 9, username: "cy" },
    ]);

    expect(m.annotators.map((a) => a.username)).toEqual(["ann", "bob", "cy"]);
    expect(m.rows[0]!.cells).toHaveLength(3);
  });

  it("changes a cell's status and version from a message", () => {
    const m = buildMatrix(progress());

    const cell = applyMessage(m, {
      type: "progress",
      assignment: 21,
      version: 4,
      status: "in_progress",
    });

    expect(cell).toBe(m.rows[1]!.cells[1]);
    expect(cell).toMatchObject({ status: "in_progress", version: 4 });
  });

  it("ignores an older version and an unknown assignment", () => {
    const m = buildMatrix(progress());
    applyMessage(m, { type: "progress", assignment: 21, version: 4 });

    applyMessage(m, { type: "progress", assignment: 21, version: 2 });

    expect(m.byAssignment.get(21)!.version).toBe(4);
    expect(applyMessage(m, { type: "progress", assignment: 999, version: 1 })).toBeNull();
    expect(applyMessage(m, { type: "progress", action: "deleted", assignments: [11] })).toBeNull();
  });

  it("totals each annotator's topics, mentions and time", () => {
    const [ann, bob] = columnTotals(buildMatrix(progress()));

    expect(ann).toEqual({
      assigned: 1,
      started: 0,
      submitted: 1,
      mentionsDone: 7,
      mentionsTotal: 7,
      seconds: 60,
    });
    expect(bob).toMatchObject({
      assigned: 2,
      started: 1,
      submitted: 0,
      mentionsDone: 3,
      seconds: 30,
    });
  });

  it("filters rows by topic text and by coverage", () => {
    const rows = buildMatrix(progress()).rows;
    const ids = (filter: Parameters<typeof filterMatrixRows>[2], text = "") =>
      filterMatrixRows(rows, text, filter).map((r) => r.topic.external_id);

    expect(ids("all", "B")).toEqual(["b"]);
    expect(ids("unassigned")).toEqual(["c"]);
    expect(ids("open")).toEqual(["a", "b"]);
    expect(ids("submitted")).toEqual([]);
    expect(ids("partial")).toEqual(["b", "c"]);
  });
});

function fakeTimers() {
  let now = 0;
  let queue: { at: number; fn: () => void; id: number }[] = [];
  let next = 1;
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      queue.push({ at: now + ms, fn, id: next });
      return next++;
    },
    clearTimeout: (id) => {
      queue = queue.filter((t) => t.id !== id);
    },
  };
  async function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      queue.sort((a, b) => a.at - b.at);
      const first = queue[0];
      if (!first || first.at > end) break;
      queue.shift();
      now = first.at;
      first.fn();
      await Promise.resolve();
      await Promise.resolve();
    }
    now = end;
  }
  return { timers, advance };
}

describe("the refetch throttle", () => {
  it("runs at once, then at most once per interval, and once more after the last request", async () => {
    const { timers, advance } = fakeTimers();
    const runs: number[] = [];
    const t = throttle(() => void runs.push(timers.now()), 1000, timers);

    t.request();
    await advance(0);
    for (let i = 0; i < 10; i++) {
      t.request();
      await advance(100);
    }
    await advance(5000);

    expect(runs).toEqual([0, 1000]);
  });

  it("never runs twice at once: a request during a run waits for it", async () => {
    const { timers, advance } = fakeTimers();
    let resolve: () => void = () => {};
    let started = 0;
    const t = throttle(
      () =>
        new Promise<void>((r) => {
          started += 1;
          resolve = r;
        }),
      100,
      timers,
    );

    t.request();
    await advance(0);
    t.request();
    await advance(500);
    expect(started).toBe(1);
    resolve();
    await advance(0);
    await advance(100);

    expect(started).toBe(2);
  });

  it("does nothing after cancel", async () => {
    const { timers, advance } = fakeTimers();
    let runs = 0;
    const t = throttle(() => void (runs += 1), 100, timers);
    t.request();
    t.cancel();
    await advance(1000);

    expect(runs).toBe(0);
  });
});

describe("import errors", () => {
  it("name the file, line and field", () => {
    expect(
      parseImportProblem("bad.jsonl: line 3, field tokens: missing (a SciCo topic needs id)"),
    ).toMatchObject({
      file: "bad.jsonl",
      record: "line 3",
      field: "tokens",
      message: "missing (a SciCo topic needs id)",
    });
  });

  it("read records without a field, brat ids and whole-file problems", () => {
    expect(parseImportProblem("bad.jsonl: line 2: malformed JSON: Expecting value")).toMatchObject({
      record: "line 2",
      field: "",
      message: "malformed JSON: Expecting value",
    });
    expect(parseImportProblem("doc1.ann: T12, field spans: overlaps")).toMatchObject({
      file: "doc1.ann",
      record: "T12",
      field: "spans",
    });
    expect(parseImportProblem("x.zip: cannot be read (bad zip)")).toMatchObject({
      file: "x.zip",
      record: "",
      message: "cannot be read (bad zip)",
    });
  });
});
