import { describe, expect, it } from "vitest";
import type { AssignmentRow } from "../../src/api/types";
import {
  filterMyTopics,
  nextAssignment,
  projectsOf,
  statusCounts,
  workKind,
} from "../../src/pages/topics";

let nextId = 1;
function row(
  topic: string,
  status: AssignmentRow["status"],
  project: [number, string] = [1, "Alpha"],
): AssignmentRow {
  const id = nextId++;
  return {
    id,
    role: "annotator",
    status,
    user: 1,
    topic: { id, external_id: topic },
    project: { id: project[0], name: project[1], hierarchy: true, anaphora: false },
    annotation: id,
    version: 0,
    progress: { assigned: 0, total: 7 },
    last_edited: null,
    submitted_at: null,
  };
}

const BETA: [number, string] = [2, "Beta"];
/** As the server sends them: in progress, to do, submitted. */
const rows = [
  row("a-started", "in_progress"),
  row("b-reopened", "reopened", BETA),
  row("a-todo", "assigned"),
  row("b-todo", "assigned", BETA),
  row("a-done", "submitted"),
];
const topics = (list: AssignmentRow[]) => list.map((r) => r.topic.external_id);

describe("My topics", () => {
  it("continues with the first topic not submitted, in the server's order", () => {
    expect(nextAssignment(rows)?.topic.external_id).toBe("a-started");
    expect(nextAssignment(rows.slice(2))?.topic.external_id).toBe("a-todo");
    expect(nextAssignment([row("done", "submitted")])).toBeNull();
  });

  it("shows every topic in the order given without filters", () => {
    expect(topics(filterMyTopics(rows, { project: null, status: null }))).toEqual(topics(rows));
  });

  it("filters by project and keeps the order", () => {
    expect(topics(filterMyTopics(rows, { project: 2, status: null }))).toEqual([
      "b-reopened",
      "b-todo",
    ]);
  });

  it("filters by status, and by both", () => {
    expect(topics(filterMyTopics(rows, { project: null, status: "assigned" }))).toEqual([
      "a-todo",
      "b-todo",
    ]);
    expect(topics(filterMyTopics(rows, { project: 1, status: "assigned" }))).toEqual(["a-todo"]);
    expect(filterMyTopics(rows, { project: 2, status: "submitted" })).toEqual([]);
  });

  it("lists the projects by name with their topic counts, and counts the statuses", () => {
    expect(projectsOf([...rows].reverse())).toEqual([
      { id: 1, name: "Alpha", count: 3 },
      { id: 2, name: "Beta", count: 2 },
    ]);
    expect(statusCounts(rows)).toEqual({ in_progress: 1, reopened: 1, assigned: 2, submitted: 1 });
  });

  it("names the work that is not annotating: adjudication, validation", () => {
    const plain = row("t", "assigned");
    expect(workKind(plain)).toBeNull();
    expect(workKind({ ...plain, role: "adjudicator" })).toBe("adjudication");
    expect(workKind({ ...plain, project: { ...plain.project, validation: true } })).toBe(
      "validation",
    );
  });
});
