// The topics x annotators matrix of a project's progress (GET /api/projects/<id>/progress/),
// and how a websocket message changes one cell before the next fetch. Pure functions.

import type { ProgressCell, ProgressMessage, ProgressPayload } from "../../api/adminTypes";
import type { Id } from "../../api/types";

export interface Person {
  id: Id;
  username: string;
}

export interface MatrixRow {
  topic: { id: Id; external_id: string };
  /** One entry per column of `annotators`; undefined where the topic is not assigned to them. */
  cells: (ProgressCell | undefined)[];
}

export interface Matrix {
  annotators: Person[];
  rows: MatrixRow[];
  byAssignment: Map<Id, ProgressCell>;
}

/** Columns: the project's annotators (by name), then `extra` people not among them (e.g.
 * annotators chosen in the assignment form who have no topic yet). */
export function buildMatrix(progress: ProgressPayload, extra: readonly Person[] = []): Matrix {
  const known = new Set(progress.annotators.map((a) => a.id));
  const annotators = [...progress.annotators, ...extra.filter((p) => !known.has(p.id))];
  const column = new Map(annotators.map((a, i) => [a.id, i]));
  const rowOf = new Map<Id, MatrixRow>();
  const rows = progress.topics.map((topic) => {
    const row: MatrixRow = {
      topic,
      cells: new Array<ProgressCell | undefined>(annotators.length).fill(undefined),
    };
    rowOf.set(topic.id, row);
    return row;
  });
  const byAssignment = new Map<Id, ProgressCell>();
  for (const cell of progress.cells) {
    const row = rowOf.get(cell.topic);
    const i = column.get(cell.user);
    if (row === undefined || i === undefined) continue;
    row.cells[i] = cell;
    byAssignment.set(cell.assignment, cell);
  }
  return { annotators, rows, byAssignment };
}

/** Apply what a message says about one cell at once (status, version); the counts and the
 * time come with the next fetch. Returns the cell changed, or null if the message names no
 * known assignment (a new one, a bulk action): then only a fetch can tell. */
export function applyMessage(matrix: Matrix, message: ProgressMessage): ProgressCell | null {
  if (message.assignment === undefined) return null;
  const cell = matrix.byAssignment.get(message.assignment);
  if (!cell) return null;
  if (message.status) cell.status = message.status;
  if (message.version !== undefined && message.version > cell.version)
    cell.version = message.version;
  return cell;
}

export interface ColumnTotals {
  assigned: number;
  started: number;
  submitted: number;
  mentionsDone: number;
  mentionsTotal: number;
  seconds: number;
}

export function columnTotals(matrix: Matrix): ColumnTotals[] {
  return matrix.annotators.map((_, i) => {
    const totals: ColumnTotals = {
      assigned: 0,
      started: 0,
      submitted: 0,
      mentionsDone: 0,
      mentionsTotal: 0,
      seconds: 0,
    };
    for (const row of matrix.rows) {
      const cell = row.cells[i];
      if (!cell) continue;
      totals.assigned += 1;
      if (cell.status === "submitted") totals.submitted += 1;
      else if (cell.status !== "assigned") totals.started += 1;
      totals.mentionsDone += cell.mentions_done;
      totals.mentionsTotal += cell.mentions_total;
      totals.seconds += cell.seconds_spent;
    }
    return totals;
  });
}

/** Widths in px of the matrix's columns (exported for the tests). */
export const COLUMN = {
  select: 36,
  annotator: 146,
  coverage: 104,
  topicMin: 96,
  topicMax: 240,
} as const;

/** The topic column: as wide as the longest topic id (monospace, about 9 px a character),
 * within [topicMin, topicMax]; a longer id is cut with an ellipsis and shown in full on hover. */
export function topicColumnWidth(topicIds: readonly string[]): number {
  const longest = topicIds.reduce((n, id) => Math.max(n, id.length), 0);
  return Math.min(COLUMN.topicMax, Math.max(COLUMN.topicMin, longest * 9 + 20));
}

/** `grid-template-columns` of the header and of every row (each virtualised row is a grid of
 * its own, so the widths are fixed): [select box], topic, one column per annotator, coverage (which takes what is left).
 * CSS `repeat()` needs a count of at least 1: with no annotator there is no repeat at all, as
 * an invalid template would drop the whole declaration and stack every cell in one column. */
export function matrixColumns(annotators: number, topicWidth: number, select: boolean): string {
  const parts = [`${topicWidth}px`];
  if (select) parts.unshift(`${COLUMN.select}px`);
  if (annotators > 0) parts.push(`repeat(${annotators}, ${COLUMN.annotator}px)`);
  parts.push(`minmax(${COLUMN.coverage}px, 1fr)`);
  return parts.join(" ");
}

export type RowFilter = "all" | "unassigned" | "open" | "submitted" | "partial";

/** Rows whose topic id contains `text` and that pass the status filter:
 * unassigned (nobody has it), open (someone has not submitted), submitted (everyone
 * assigned has submitted), partial (fewer than `k` annotators: for agreement coverage). */
export function filterMatrixRows(
  rows: readonly MatrixRow[],
  text: string,
  filter: RowFilter,
  k = 2,
): MatrixRow[] {
  const needle = text.trim().toLowerCase();
  return rows.filter((row) => {
    if (needle && !row.topic.external_id.toLowerCase().includes(needle)) return false;
    const cells = row.cells.filter((c): c is ProgressCell => c !== undefined);
    switch (filter) {
      case "unassigned":
        return cells.length === 0;
      case "open":
        return cells.some((c) => c.status !== "submitted");
      case "submitted":
        return cells.length > 0 && cells.every((c) => c.status === "submitted");
      case "partial":
        return cells.length < k;
      default:
        return true;
    }
  });
}
