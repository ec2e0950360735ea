// Every occurrence of a text in the topic, for "add a mention at every occurrence" and "remove
// every mention of it" (the bulk mention dialog). The server checks the rules of each mention
// the batch adds or rejects (annotation/domain/operations/bulk.py); which places count as
// occurrences is decided here, and the dialog shows the count before anything is sent.
//
// The rules (docs/keyboard.md, "Every occurrence"):
// - An occurrence is a run of whole tokens equal to the selected tokens, in any document of the
//   topic: "CRF" does not occur inside "BiLSTM-CRF". Case is ignored unless "Match case" is on.
// - Occurrences do not overlap each other (the scan goes on after the end of each).
// - An occurrence that is already an active mention (exactly its span) is skipped as marked;
//   one that shares a token with another active mention is skipped as overlapping, so that a
//   bulk add never nests or crosses what the annotator marked. Rejected mentions do not count.
// - Removing takes every active mention whose words equal the text (same case rule), whether
//   a candidate or an added one; a discontinuous mention's words are its parts' words in order.

import type { Id, Span } from "../api/types";
import type { Mention } from "./state";

/** The most mentions one bulk operation takes (the server's BULK_LIMIT). */
export const BULK_LIMIT = 1000;

export interface Occurrence {
  document: Id;
  start: number;
  end: number;
}

export interface OccurrencePreview {
  /** Where a mention would be added. */
  add: Occurrence[];
  /** Occurrences that are a mention already. */
  marked: Occurrence[];
  /** Occurrences that share a word with another mention. */
  overlapping: Occurrence[];
}

interface Doc {
  readonly id: Id;
  readonly tokens: readonly string[];
}

const fold = (token: string, matchCase: boolean) => (matchCase ? token : token.toLowerCase());

/** The words of a selection (or a mention's spans), as the rules compare them. */
export function wordsOf(tokens: readonly string[], spans: readonly Span[]): string[] {
  return spans.flatMap(([start, end]) => tokens.slice(start, end + 1));
}

/** Every run of whole tokens equal to `words`, in document order, not overlapping. */
export function findOccurrences(
  documents: readonly Doc[],
  words: readonly string[],
  matchCase: boolean,
): Occurrence[] {
  const needle = words.map((w) => fold(w, matchCase));
  const out: Occurrence[] = [];
  if (needle.length === 0 || needle.every((w) => w.trim() === "")) return out;
  for (const doc of documents) {
    const tokens = doc.tokens;
    let i = 0;
    while (i + needle.length <= tokens.length) {
      let k = 0;
      while (k < needle.length && fold(tokens[i + k]!, matchCase) === needle[k]) k++;
      if (k === needle.length) {
        out.push({ document: doc.id, start: i, end: i + needle.length - 1 });
        i += needle.length;
      } else i++;
    }
  }
  return out;
}

const active = (mentions: readonly Mention[] | undefined) =>
  (mentions ?? []).filter((m) => !m.rejected);

/** Sorts the occurrences into those to add and those skipped, and why. */
export function previewOccurrences(
  occurrences: readonly Occurrence[],
  mentionsOf: (document: Id) => readonly Mention[] | undefined,
): OccurrencePreview {
  const preview: OccurrencePreview = { add: [], marked: [], overlapping: [] };
  for (const o of occurrences) {
    const mentions = active(mentionsOf(o.document));
    const exact = mentions.some(
      (m) => m.spans.length === 1 && m.spans[0]![0] === o.start && m.spans[0]![1] === o.end,
    );
    if (exact) preview.marked.push(o);
    else if (mentions.some((m) => m.spans.some(([s, e]) => s <= o.end && o.start <= e)))
      preview.overlapping.push(o);
    else preview.add.push(o);
  }
  return preview;
}

/** The active mentions whose words equal `words` (what "remove them all" rejects), in
 * document order then by position. */
export function mentionsWithWords(
  documents: readonly Doc[],
  mentionsOf: (document: Id) => readonly Mention[] | undefined,
  words: readonly string[],
  matchCase: boolean,
): Mention[] {
  const needle = words.map((w) => fold(w, matchCase)).join("\u0000");
  const out: Mention[] = [];
  for (const doc of documents) {
    const found = active(mentionsOf(doc.id)).filter(
      (m) =>
        wordsOf(doc.tokens, m.spans)
          .map((w) => fold(w, matchCase))
          .join("\u0000") === needle,
    );
    out.push(...found.sort((a, b) => a.spans[0]![0] - b.spans[0]![0] || a.id - b.id));
  }
  return out;
}
