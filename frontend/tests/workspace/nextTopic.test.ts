// After submitting, the next topic offered is the first of mine still to do, in the server's order.
import { describe, expect, it } from "vitest";
import type { AssignmentRow } from "../../src/api/types";
import { nextTopicToDo } from "../../src/workspace/workspace";

const row = (id: number, status: AssignmentRow["status"]): AssignmentRow => ({
  id,
  role: "annotator",
  status,
  user: 1,
  topic: { id: id * 10, external_id: `t${id}` },
  project: { id: 1, name: "p", hierarchy: true, anaphora: false },
  annotation: id * 100,
  version: 0,
  progress: { assigned: 0, total: 1 },
  last_edited: null,
  submitted_at: null,
});

describe("nextTopicToDo", () => {
  it("skips the topic just submitted and those already submitted", () => {
    const rows = [
      row(1, "submitted"),
      row(2, "submitted"),
      row(3, "assigned"),
      row(4, "in_progress"),
    ];
    expect(nextTopicToDo(rows, 2)?.id).toBe(3);
  });

  it("prefers this topic's project: after the tutorial its test, after qualifying its real topics", () => {
    const other = {
      ...row(1, "assigned"),
      project: { id: 2, name: "Aardvark", hierarchy: true, anaphora: false },
    };
    expect(nextTopicToDo([other, row(2, "submitted"), row(3, "assigned")], 2)?.id).toBe(3);
    expect(nextTopicToDo([other, row(2, "submitted")], 2)?.id).toBe(1);
  });

  it("is null when nothing is left", () => {
    expect(nextTopicToDo([row(1, "submitted"), row(2, "in_progress")], 2)).toBeNull();
  });
});
