// The statistics table: one row per statistic, one column per scope (total, then each split),
// rows for a scheme the project does not use left out (the CSV and JSON keep them, as 0).

import type { Stats } from "./datasetsApi";

export const LINK_TYPES = [
  "COREFERENCE",
  "TRANSFORMED",
  "REACTION_ASSOCIATED",
  "WORK_UP",
  "CONTAINED",
] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface StatRow {
  key: string;
  label: string;
  /** What the number counts (the definition of docs/datasets.md, shortened). */
  help: string;
  value: (stats: Stats) => number;
  mean?: boolean;
}

const count = (key: keyof Omit<Stats, "links">) => (stats: Stats) => stats[key] as number;

const COMMON: StatRow[] = [
  {
    key: "topics",
    label: "Topics",
    help: "topics with an annotation of the source",
    value: count("topics"),
  },
  {
    key: "documents",
    label: "Documents",
    help: "each topic's documents, counted in that topic",
    value: count("documents"),
  },
  { key: "tokens", label: "Tokens", help: "tokens of those documents", value: count("tokens") },
  {
    key: "sentences",
    label: "Sentences",
    help: "the documents' own sentence boundaries, as imported",
    value: count("sentences"),
  },
  {
    key: "tokens_per_sentence",
    label: "Tokens per sentence",
    help: "tokens over sentences (ChEMU Table 1's Tokens/Sentences)",
    value: count("tokens_per_sentence"),
    mean: true,
  },
  {
    key: "mentions",
    label: "Mentions",
    help: "mentions of the annotation, rejected ones excluded",
    value: count("mentions"),
  },
  {
    key: "discontinuous_mentions",
    label: "Discontinuous mentions",
    help: "mentions with more than one span",
    value: count("discontinuous_mentions"),
  },
];
const HIERARCHY: StatRow[] = [
  { key: "clusters", label: "Clusters", help: "singletons included", value: count("clusters") },
  {
    key: "singletons",
    label: "Singletons",
    help: "clusters of one mention",
    value: count("singletons"),
  },
  {
    key: "relations",
    label: "Hierarchy relations",
    help: "edges as drawn, not their closure",
    value: count("relations"),
  },
  {
    key: "mean_components",
    label: "Components per topic",
    help: "clusters joined by hierarchy edges (undirected), mean over topics (SciCo's 6.8)",
    value: count("mean_components"),
    mean: true,
  },
  {
    key: "mean_max_depth",
    label: "Depth of the largest component",
    help: "levels (a lone cluster is 1), mean over topics (SciCo's 3.5)",
    value: count("mean_max_depth"),
    mean: true,
  },
  {
    key: "ambiguity",
    label: "Ambiguity",
    help: "clusters a head lemma appears in, mean over head lemmas (WEC Table 1)",
    value: count("ambiguity"),
    mean: true,
  },
  {
    key: "diversity",
    label: "Diversity",
    help: "distinct head lemmas per cluster of two or more mentions, mean (WEC Table 1)",
    value: count("diversity"),
    mean: true,
  },
];
const ANAPHORA: StatRow[] = [
  ...LINK_TYPES.map((type) => ({
    key: `links.${type}`,
    label: `${type} links`,
    help: "distinct links as drawn (no transitive closure)",
    value: (stats: Stats) => stats.links[type],
  })),
  {
    key: "anaphors",
    label: "Anaphors",
    help: "distinct mentions that are the anaphor of a link",
    value: count("anaphors"),
  },
  ...LINK_TYPES.map((type) => ({
    key: `link_entries.${type}`,
    label: `${type} link entries`,
    help: "link entries as the file lists them, repeats and empty sides included (ChEMU Table 1)",
    value: (stats: Stats) => stats.link_entries[type],
  })),
];

/** The rows to show: a scheme's rows when the project uses it or its numbers are not all 0. */
export function statRows(
  scheme: { hierarchy: boolean; anaphora: boolean },
  total: Stats,
): StatRow[] {
  const rows = [...COMMON];
  if (scheme.hierarchy || total.clusters > 0) rows.push(...HIERARCHY);
  if (scheme.anaphora || total.anaphors > 0) rows.push(...ANAPHORA);
  return rows;
}

export function statText(row: StatRow, stats: Stats): string {
  const value = row.value(stats);
  return row.mean ? value.toFixed(2) : value.toLocaleString("en");
}

/** The scopes of the table: the total, then each split in split order. */
export function scopes(page: { total: Stats; splits: Record<string, Stats> }): [string, Stats][] {
  return [["Total", page.total], ...Object.entries(page.splits)];
}

/** (value, count) pairs as chart bars from 1 to the largest value, a missing value as 0 (a
 * gap in a distribution is a fact to see), unless the range is too long to draw: then only
 * the values present. */
export function withGaps(
  pairs: readonly (readonly [number, number])[],
  longest = 40,
): { label: string; count: number }[] {
  const counts = new Map(pairs);
  const top = Math.max(0, ...counts.keys());
  const values = top <= longest ? Array.from({ length: top }, (_, i) => i + 1) : [...counts.keys()];
  return values.map((value) => ({ label: String(value), count: counts.get(value) ?? 0 }));
}

/** Topics per split, in split order, from the splits endpoint's answer (topics outside every
 * split not counted). */
export function splitSizes(answer: {
  names: string[];
  topics: { split: string }[];
}): [string, number][] {
  const counts = new Map<string, number>();
  for (const topic of answer.topics)
    if (topic.split) counts.set(topic.split, (counts.get(topic.split) ?? 0) + 1);
  return answer.names.filter((name) => counts.has(name)).map((name) => [name, counts.get(name)!]);
}
