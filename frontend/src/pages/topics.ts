// Helpers of the My topics page.

import type { AssignmentRow } from "../api/types";

const LABELS: Record<string, string> = {
  assigned: "To do",
  in_progress: "In progress",
  submitted: "Submitted",
  reopened: "Reopened",
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

/** The topic to continue: the first one not submitted. The server sends my topics in the
 * order to work through them (annotation/selectors/workspace.py MY_TOPICS_ORDER: in progress,
 * the latest edited first, then to do, then submitted); the page keeps that order. */
export function nextAssignment(rows: readonly AssignmentRow[]): AssignmentRow | null {
  return rows.find((r) => r.status !== "submitted") ?? null;
}

/** What the work is when it is not annotating: "adjudication" (an adjudicator's topic),
 * "validation" (a validation project's), or null. */
export function workKind(row: Pick<AssignmentRow, "role" | "project">): string | null {
  if (row.role === "adjudicator") return "adjudication";
  if (row.project.validation) return "validation";
  return null;
}

export type Status = AssignmentRow["status"];
/** The statuses in the filter, in the order of the page. */
export const STATUSES: readonly Status[] = ["in_progress", "reopened", "assigned", "submitted"];

export interface MyTopicsFilter {
  /** A project's id, or null for every project. */
  project: number | null;
  /** A status, or null for every status. */
  status: Status | null;
}

/** The rows of the project and status chosen, in the order given. */
export function filterMyTopics(
  rows: readonly AssignmentRow[],
  filter: MyTopicsFilter,
): AssignmentRow[] {
  return rows.filter(
    (r) =>
      (filter.project === null || r.project.id === filter.project) &&
      (filter.status === null || r.status === filter.status),
  );
}

/** The projects of my topics, by name, each with how many topics I have in it. */
export function projectsOf(
  rows: readonly AssignmentRow[],
): { id: number; name: string; count: number }[] {
  const byId = new Map<number, { id: number; name: string; count: number }>();
  for (const r of rows) {
    const seen = byId.get(r.project.id);
    if (seen) seen.count += 1;
    else byId.set(r.project.id, { id: r.project.id, name: r.project.name, count: 1 });
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** How many of my topics have each status. */
export function statusCounts(rows: readonly AssignmentRow[]): Record<Status, number> {
  const counts: Record<Status, number> = { in_progress: 0, reopened: 0, assigned: 0, submitted: 0 };
  for (const r of rows) counts[r.status] += 1;
  return counts;
}

export function relativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return "never";
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 86400 * 30) return `${Math.floor(seconds / 86400)} d ago`;
  return new Date(iso).toLocaleDateString();
}
