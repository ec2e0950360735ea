// The agreement report as a table: one row per scored topic, sortable by any column,
// filtered by topic id text, with the topics below a threshold flagged. Pure functions.

import type { AgreementReport, Score, TopicMetricScores } from "../../api/adminTypes";
import { pairResolver } from "../charts/heatmap";

export type Stat = "avg" | "max";
export type Direction = "asc" | "desc";

export interface ReportRow {
  topic: string;
  /** Position in the report (the project's topic order): the tie-breaker of every sort. */
  order: number;
  /** Annotators who submitted the topic (from the pair keys). */
  annotators: string[];
  scores: Record<string, TopicMetricScores>;
}

/** A column: "topic", "annotators", or "<metric>:<avg|max>". */
export type ColumnKey = string;

export const metricColumn = (metric: string, stat: Stat): ColumnKey => `${metric}:${stat}`;

/** The metrics of the report in the scorer's order (overall first, else the first topic's). */
export function reportMetrics(report: AgreementReport): string[] {
  const overall = Object.keys(report.overall);
  const first = Object.values(report.topics)[0];
  return primaryFirst(
    overall.length ? overall : first ? Object.keys(first) : [],
    report.hierarchy_count,
  );
}

/** The project's primary hierarchy F1 first: the raw edges count (not SciCo's) takes SciCo's
 * closure count's place when the project chose it (annotation.Project.hierarchy_count); both
 * are always shown. */
function primaryFirst(metrics: string[], primary: string | undefined): string[] {
  const closure = metrics.indexOf("hierarchy_f1");
  if (primary !== "raw" || closure < 0 || !metrics.includes("hierarchy_f1_raw")) return metrics;
  const rest = metrics.filter((m) => m !== "hierarchy_f1_raw");
  rest.splice(closure, 0, "hierarchy_f1_raw");
  return rest;
}

export function reportRows(report: AgreementReport): ReportRow[] {
  const resolve = pairResolver(report.annotators);
  return Object.entries(report.topics).map(([topic, scores], order) => {
    const names = new Set<string>();
    for (const metric of Object.values(scores)) {
      for (const key of Object.keys(metric.pairs)) {
        const pair = resolve(key);
        if (pair) pair.forEach((name) => names.add(name));
      }
    }
    const annotators = report.annotators.filter((name) => names.has(name));
    return { topic, order, annotators, scores };
  });
}

export function cellValue(row: ReportRow, column: ColumnKey): string | number | null {
  if (column === "topic") return row.topic;
  if (column === "annotators") return row.annotators.length;
  const [metric, stat] = column.split(":") as [string, Stat];
  return row.scores[metric]?.[stat] ?? null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Sorted copy; topic ids compare naturally ("t2" < "t10"); an undefined score goes last
 * in either direction; equal values keep the report's order. */
export function sortRows(
  rows: readonly ReportRow[],
  column: ColumnKey,
  direction: Direction,
): ReportRow[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = cellValue(a, column);
    const y = cellValue(b, column);
    if (x === null || y === null) {
      if (x === y) return a.order - b.order;
      return x === null ? 1 : -1;
    }
    const compared =
      typeof x === "string" || typeof y === "string"
        ? collator.compare(String(x), String(y))
        : x - y;
    return compared !== 0 ? sign * compared : a.order - b.order;
  });
}

/** Rows whose topic id contains the text (case-insensitive); blank text keeps every row. */
export function filterRows(rows: readonly ReportRow[], text: string): ReportRow[] {
  const needle = text.trim().toLowerCase();
  return needle ? rows.filter((row) => row.topic.toLowerCase().includes(needle)) : [...rows];
}

export function scoreOf(row: ReportRow, metric: string, stat: Stat): Score {
  return row.scores[metric]?.[stat] ?? null;
}

/** Below the threshold: a defined score strictly under it (an undefined score is not flagged). */
export function isBelow(score: Score, threshold: number | null): boolean {
  return threshold !== null && score !== null && score < threshold;
}

export function belowCount(
  rows: readonly ReportRow[],
  metric: string,
  stat: Stat,
  threshold: number | null,
): number {
  return rows.filter((row) => isBelow(scoreOf(row, metric, stat), threshold)).length;
}

/** Variants the per-topic table leaves to the cards, the CSV and the metric filter under
 * "all", so the table fits the page: the overlap (relaxed) variants, and whichever hierarchy
 * count the project did not choose as primary (the later of the two in `metrics`). */
function secondaryMetrics(metrics: readonly string[]): Set<string> {
  const secondary = new Set(["mention_relaxed_f1", "anaphor_relaxed_f1"]);
  const closure = metrics.indexOf("hierarchy_f1");
  const raw = metrics.indexOf("hierarchy_f1_raw");
  if (closure >= 0 && raw >= 0) secondary.add(raw > closure ? "hierarchy_f1_raw" : "hierarchy_f1");
  return secondary;
}

/** The metrics whose columns show: all but the variants, or the one chosen in the filter. */
export function visibleMetrics(metrics: readonly string[], filter: string): string[] {
  if (filter !== "all" && metrics.includes(filter)) return [filter];
  const secondary = secondaryMetrics(metrics);
  return metrics.filter((m) => !secondary.has(m));
}
