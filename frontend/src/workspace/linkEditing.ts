// Editing anaphora links in place: the links of the current mention in a stable order (to move
// through them with [ and ]), the retype operation (one link, or a chosen set: one undo), and
// where a mention sits (sentence and word) so that two links with the same texts differ.

import type { Id, LinkType, Operation } from "../api/types";
import type { AnnotationState, Link } from "../domain/state";

/** The links touching `mention`, ordered by where their other end starts in the text. */
export function linksOfMention(state: AnnotationState, mention: Id): Link[] {
  const start = (id: Id) => state.mentions.get(id)?.spans[0]?.[0] ?? 0;
  const other = (link: Link) => otherEnd(link, mention);
  return keyedLinks(state, mention).sort(
    (a, b) =>
      start(other(a)) - start(other(b)) || a.type.localeCompare(b.type) || a.anaphor - b.anaphor,
  );
}

function keyedLinks(state: AnnotationState, mention: Id): Link[] {
  const out: Link[] = [];
  for (const key of state.mentionLinks.get(mention) ?? []) {
    const link = state.links.get(key);
    if (link) out.push(link);
  }
  return out;
}

/** The end of `link` that is not `mention` (the antecedent when it is the anaphor). */
export function otherEnd(link: Link, mention: Id): Id {
  return link.anaphor === mention ? link.antecedent : link.anaphor;
}

/** The link `delta` places from `current` in `links` (wrapping); the first (or last) when
 * `current` is not among them. */
export function stepLink(
  links: readonly Link[],
  current: string | null,
  delta: 1 | -1,
  key: (link: Link) => string,
): Link | null {
  if (links.length === 0) return null;
  const at = current === null ? -1 : links.findIndex((link) => key(link) === current);
  if (at < 0) return delta > 0 ? links[0]! : links[links.length - 1]!;
  return links[(at + delta + links.length) % links.length]!;
}

/** The links between an anaphor and an antecedent (of any type). */
export function pairLinks(state: AnnotationState, anaphor: Id, antecedent: Id): Link[] {
  return keyedLinks(state, anaphor).filter(
    (link) => link.anaphor === anaphor && link.antecedent === antecedent,
  );
}

/** Give every link of `links` the type `type`: null when each has it already. */
export function retypeOperation(links: readonly Link[], type: LinkType): Operation | null {
  if (links.every((link) => link.type === type)) return null;
  return {
    op: "retype_links",
    type,
    links: links.map(({ type: old, anaphor, antecedent }) => ({ type: old, anaphor, antecedent })),
  };
}

/** Sentence and word (both from 1) of `token`, given the document's sentences (sentencesOf). */
export function tokenPlace(
  sentences: readonly (readonly [number, number])[],
  token: number,
): { sentence: number; word: number } {
  // Sentences are in text order: the last one starting at or before the token (a binary search,
  // as a novel's link list asks for thousands of places among thousands of sentences).
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sentences[mid]![0] <= token) lo = mid;
    else hi = mid - 1;
  }
  const found = sentences[lo];
  if (!found || token < found[0] || token >= found[1]) return { sentence: 1, word: token + 1 };
  return { sentence: lo + 1, word: token - found[0] + 1 };
}
