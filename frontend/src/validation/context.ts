// What the validator reads: the mention in its paragraph, and a short context for each other
// member of its cluster. A SciCo document is a paragraph already; a long document (CoRefi,
// brat) is cut to the sentences around the mention, or to a window of words without them.
import type { ValidationDocument } from "./types";

export interface Piece {
  text: string;
  mark: boolean;
}

export type Span = [number, number];

const WINDOW = 60; // words either side when a long document has no sentences
const LONG = 2 * WINDOW + 20;

/** The token range [start, end) to show for `spans` of `document`. */
export function paragraphRange(
  document: ValidationDocument,
  spans: readonly Span[],
): [number, number] {
  const n = document.tokens.length;
  if (n <= LONG) return [0, n];
  const first = spans[0]![0];
  const last = spans[spans.length - 1]![1];
  const sentences = document.sentences;
  if (sentences.length > 0) {
    const at = (t: number) => sentences.findIndex(([s, e]) => s <= t && t < e);
    const from = Math.max(0, at(first) - 1);
    const to = Math.min(sentences.length - 1, Math.max(at(last), at(first)) + 1);
    if (at(first) >= 0) return [sentences[from]![0], sentences[to]![1]];
  }
  return [Math.max(0, first - WINDOW), Math.min(n, last + WINDOW + 1)];
}

/** Tokens [start, end) as pieces, the mention's spans marked. */
export function pieces(
  tokens: readonly string[],
  spans: readonly Span[],
  start: number,
  end: number,
): Piece[] {
  const out: Piece[] = [];
  let text: string[] = [];
  let marked = false;
  const inMention = (t: number) => spans.some(([s, e]) => s <= t && t <= e);
  for (let t = start; t < end; t++) {
    const mark = inMention(t);
    if (mark !== marked && text.length > 0) {
      out.push({ text: text.join(" "), mark: marked });
      text = [];
    }
    marked = mark;
    text.push(tokens[t]!);
  }
  if (text.length > 0) out.push({ text: text.join(" "), mark: marked });
  return out;
}

/** A few words either side: a member's line beside the current mention. */
export function snippet(tokens: readonly string[], spans: readonly Span[], words = 10): Piece[] {
  const start = Math.max(0, spans[0]![0] - words);
  const end = Math.min(tokens.length, spans[spans.length - 1]![1] + words + 1);
  const out = pieces(tokens, spans, start, end);
  if (start > 0 && out[0]) out[0] = { ...out[0], text: "… " + out[0].text };
  const last = out[out.length - 1];
  if (end < tokens.length && last) out[out.length - 1] = { ...last, text: last.text + " …" };
  return out;
}

export function mentionText(tokens: readonly string[], spans: readonly Span[]): string {
  return spans.map(([s, e]) => tokens.slice(s, e + 1).join(" ")).join(" … ");
}
