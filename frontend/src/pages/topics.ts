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

/** The topic to continue: the most recently edited one in progress (or reopened), else the first to do. */
export function nextAssignment(rows: readonly AssignmentRow[]): AssignmentRow | null {
  const open = rows.filter((r) => r.status !== "submitted");
  const started = open
    .filter((r) => r.status === "in_progress" || r.status === "reopened")
    .sort((a, b) => (b.last_edited ?? "").localeCompare(a.last_edited ?? ""));
  return started[0] ?? open[0] ?? null;
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
