// What the workspace shows about a document and a mention: metadata under the names the
// sources use, and mention text from the document's tokens.

import type { Span } from "../api/types";

export interface DocumentMeta {
  title: string | null;
  venue: string | null;
  year: string | null;
  url: string | null;
}

// Metadata keys vary by source: SciCo uses `title`, `BookTitle` (venue), `Year`, `url`;
// other importers write `venue`, `year`, `link`. The first non-empty key wins.
const KEYS: Record<keyof DocumentMeta, string[]> = {
  title: ["title", "Title", "paper_title"],
  venue: ["venue", "Venue", "BookTitle", "booktitle", "journal", "Journal"],
  year: ["year", "Year"],
  url: ["url", "URL", "link", "Link", "doi_url"],
};

function text(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value === "number") return String(value);
  return null;
}

export function documentMeta(metadata: Record<string, unknown> | null | undefined): DocumentMeta {
  const meta = metadata ?? {};
  const pick = (keys: string[]) => {
    for (const key of keys) {
      const value = text(meta[key]);
      if (value !== null) return value;
    }
    return null;
  };
  const url = pick(KEYS.url);
  return {
    title: pick(KEYS.title),
    venue: pick(KEYS.venue),
    year: pick(KEYS.year),
    // Only web links become clickable: metadata is imported data, not trusted markup.
    url: url !== null && /^https?:\/\//i.test(url) ? url : null,
  };
}

const NO_SPACE_BEFORE = new Set([".", ",", ";", ":", "!", "?", ")", "]", "}", "%", "'s", "n't"]);
const NO_SPACE_AFTER = new Set(["(", "[", "{"]);

/** Whether a space separates token `i` from the token before it. */
export function spaceBefore(tokens: readonly string[], i: number): boolean {
  if (i === 0) return false;
  return !NO_SPACE_BEFORE.has(tokens[i]!) && !NO_SPACE_AFTER.has(tokens[i - 1]!);
}

export function tokensText(tokens: readonly string[], start: number, end: number): string {
  let out = "";
  for (let i = start; i <= end && i < tokens.length; i++) {
    if (i > start && spaceBefore(tokens, i)) out += " ";
    out += tokens[i];
  }
  return out;
}

/** A mention's text; the parts of a discontinuous mention are joined with an ellipsis. */
export function mentionText(tokens: readonly string[], spans: readonly Span[]): string {
  return spans.map(([s, e]) => tokensText(tokens, s, e)).join(" … ");
}
