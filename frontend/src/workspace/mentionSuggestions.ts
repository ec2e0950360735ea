// Proposed mentions (a model found them in the raw text; the annotation lacks them): when one
// is still open, where G's walk visits it, and which mention it sits by. Pure.
//
// A proposal is settled once the annotation has an active mention with exactly its spans,
// however it got there (accepted, or marked by hand), as on the server
// (modelserve/selectors.py `proposed_mention`); links that name it are offered from then on,
// with the next fetch.

import type { Decision, Id, MentionSuggestionItem, Span } from "../api/types";
import { sameSpans } from "../domain/state";

interface MentionLike {
  readonly id: Id;
  readonly document: Id;
  readonly spans: readonly Span[];
  readonly rejected: boolean;
}

export function proposalSpans(item: MentionSuggestionItem): Span[] {
  return item.spans.map(([start, end]) => [start, end] as Span);
}

/** Whether the document already has an active mention with exactly these spans. */
export function hasMentionAt(
  mentions: readonly MentionLike[] | undefined,
  spans: readonly Span[],
): boolean {
  return (mentions ?? []).some((m) => !m.rejected && sameSpans(m.spans, spans));
}

/** Open: not accepted, and no active mention has its spans yet. */
export function proposalIsOpen(
  item: MentionSuggestionItem,
  decision: Decision | undefined,
  mentionsOfDocument: readonly MentionLike[] | undefined,
): boolean {
  return decision !== "accepted" && !hasMentionAt(mentionsOfDocument, proposalSpans(item));
}

/** The mention the proposal sits after in its document (else the document's first), so that
 * making it current brings the proposal on screen; null in a document without mentions. */
export function anchorMention(
  item: MentionSuggestionItem,
  mentionsOfDocument: readonly MentionLike[] | undefined,
): Id | null {
  const start = item.spans[0]![0];
  let before: MentionLike | null = null;
  let first: MentionLike | null = null;
  for (const m of mentionsOfDocument ?? []) {
    const s = m.spans[0]![0];
    if (first === null || s < first.spans[0]![0]) first = m;
    if (s <= start && (before === null || s > before.spans[0]![0])) before = m;
  }
  return (before ?? first)?.id ?? null;
}

/** Reading keys ([document index, first token]) of the mentions, in reading-order positions. */
export type ReadingKeys = readonly (readonly [number, number])[];

/** Where a proposal falls among the mentions in reading order: half a place before the first
 * mention that starts after it, so G visits it between its neighbours. */
export function walkPosition(documentIndex: number, start: number, keys: ReadingKeys): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const [d, s] = keys[mid]!;
    if (d < documentIndex || (d === documentIndex && s <= start)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 0.5;
}
