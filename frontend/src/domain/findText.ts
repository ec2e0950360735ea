// Find in text: where a query occurs in the documents' text as the workspace shows it (tokens
// joined with the spaces the page puts between them), as token ranges. It searches the data,
// not the page: the document list draws only what is on the screen, so the browser's own
// find misses the documents further down.

import type { Id } from "../api/types";
import { spaceBefore } from "./documents";

export interface FindHit {
  doc: Id;
  /** The first and last token the match touches (inclusive). */
  start: number;
  end: number;
}

/** Past this many matches the search stops: the count then says "first 1000". */
export const FIND_LIMIT = 1000;

interface DocumentText {
  id: Id;
  /** The text, lower-cased token by token (so offsets stay those of the tokens). */
  text: string;
  /** Where each token starts in `text`. */
  starts: number[];
}

/** A document's text for searching; computed once per topic (the tokens never change). */
export function documentText(doc: { id: Id; tokens: readonly string[] }): DocumentText {
  const starts: number[] = [];
  let text = "";
  doc.tokens.forEach((token, i) => {
    if (spaceBefore(doc.tokens, i)) text += " ";
    starts.push(text.length);
    text += token.toLowerCase();
  });
  return { id: doc.id, text, starts };
}

/** The last token that starts at or before `offset`. */
function tokenAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Every match of `query` (case-insensitive, surrounding spaces ignored) in document order,
 * at most `limit`. Matches do not overlap. */
export function findInDocuments(
  documents: readonly DocumentText[],
  query: string,
  limit = FIND_LIMIT,
): FindHit[] {
  const needle = query.trim().toLowerCase();
  const hits: FindHit[] = [];
  if (!needle) return hits;
  for (const doc of documents) {
    let from = doc.text.indexOf(needle);
    while (from >= 0) {
      if (hits.length >= limit) return hits;
      hits.push({
        doc: doc.id,
        start: tokenAt(doc.starts, from),
        end: tokenAt(doc.starts, from + needle.length - 1),
      });
      from = doc.text.indexOf(needle, from + needle.length);
    }
  }
  return hits;
}

/** Per document, token -> the index of the match it is part of (what the text highlights). */
export function hitsByDocument(hits: readonly FindHit[]): Map<Id, Map<number, number>> {
  const out = new Map<Id, Map<number, number>>();
  hits.forEach((hit, index) => {
    let tokens = out.get(hit.doc);
    if (!tokens) out.set(hit.doc, (tokens = new Map<number, number>()));
    for (let t = hit.start; t <= hit.end; t++) tokens.set(t, index);
  });
  return out;
}
