// A text selection inside one document, in tokens. The mouse makes one from the browser's
// selection; the keyboard makes one with V and changes it with the arrows, so adding and
// fixing mentions needs no mouse. Like an editor's selection it has an anchor (where it
// started) and a focus (the end that moves).

import type { Id, Span } from "../api/types";

export interface TokenSelection {
  readonly document: Id;
  readonly anchor: number;
  readonly focus: number;
}

/** The selected tokens as a span, first and last token inclusive. */
export function spanOf(selection: TokenSelection): Span {
  return [Math.min(selection.anchor, selection.focus), Math.max(selection.anchor, selection.focus)];
}

const clamp = (token: number, length: number) => Math.max(0, Math.min(length - 1, token));

/** Arrow without Shift: a one-token selection next to the focus (the caret moves). */
export function moveCaret(
  selection: TokenSelection,
  delta: number,
  length: number,
): TokenSelection {
  const token = clamp(selection.focus + delta, length);
  return { document: selection.document, anchor: token, focus: token };
}

/** Arrow with Shift: the focus moves and the anchor stays, as in a text editor. */
export function extendSelection(
  selection: TokenSelection,
  delta: number,
  length: number,
): TokenSelection {
  return { ...selection, focus: clamp(selection.focus + delta, length) };
}

/** The sentences of a document as half-open token ranges: its own (imported) boundaries, or,
 * for a raw snippet imported without them, the runs of tokens ended by ".", "!" or "?". */
export function sentencesOf(doc: {
  tokens: readonly string[];
  sentences?: readonly (readonly [number, number])[];
}): [number, number][] {
  if (doc.sentences?.length) return doc.sentences.map(([start, end]) => [start, end]);
  const out: [number, number][] = [];
  let start = 0;
  doc.tokens.forEach((token, i) => {
    if (/^[.!?]+$/.test(token)) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  });
  if (start < doc.tokens.length) out.push([start, doc.tokens.length]);
  return out;
}

function sentenceAt(sentences: readonly [number, number][], token: number): number {
  const index = sentences.findIndex(([start, end]) => start <= token && token < end);
  return index >= 0 ? index : Math.max(0, sentences.length - 1);
}

/** Alt+arrow: the caret goes to the first word of the next sentence, or back to the first word
 * of its own sentence (of the previous one when it is there already), as editors do. */
export function moveBySentence(
  selection: TokenSelection,
  direction: 1 | -1,
  sentences: readonly [number, number][],
): TokenSelection {
  if (!sentences.length) return selection;
  const here = sentenceAt(sentences, selection.focus);
  let token: number;
  if (direction > 0) token = sentences[Math.min(here + 1, sentences.length - 1)]![0];
  else
    token =
      selection.focus > sentences[here]![0]
        ? sentences[here]![0]
        : sentences[Math.max(0, here - 1)]![0];
  return { document: selection.document, anchor: token, focus: token };
}

/** Alt+Shift+arrow: the focus goes to the end of its sentence (of the next one when it is
 * there already) or to its start (of the previous one); the anchor stays. */
export function extendBySentence(
  selection: TokenSelection,
  direction: 1 | -1,
  sentences: readonly [number, number][],
): TokenSelection {
  if (!sentences.length) return selection;
  const here = sentenceAt(sentences, selection.focus);
  const [start, end] = sentences[here]!;
  let focus: number;
  if (direction > 0)
    focus =
      selection.focus < end - 1
        ? end - 1
        : sentences[Math.min(here + 1, sentences.length - 1)]![1] - 1;
  else focus = selection.focus > start ? start : sentences[Math.max(0, here - 1)]![0];
  return { ...selection, focus };
}

/** Where a token is drawn on the screen (its first box, in page pixels). */
export interface TokenBox {
  token: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Down or up: the token on the next (previous) drawn line nearest in x to `focus`, as a text
 * editor's caret moves; null on the first or last line. `boxes` are in token order. */
export function tokenOnNextLine(
  boxes: readonly TokenBox[],
  focus: number,
  direction: 1 | -1,
): number | null {
  const here = boxes.find((box) => box.token === focus);
  if (!here) return null;
  const middle = (here.top + here.bottom) / 2;
  const onLine = (box: TokenBox) => box.top < middle && middle < box.bottom;
  // The nearest line beyond this one: the first box after (or before) ours on another line.
  const order = direction > 0 ? boxes : [...boxes].reverse();
  const start = order.indexOf(here);
  const first = order
    .slice(start + 1)
    .find((box) => !onLine(box) && (direction > 0 ? box.top >= here.top : box.top <= here.top));
  if (!first) return null;
  const lineMiddle = (first.top + first.bottom) / 2;
  const line = boxes.filter((box) => box.top < lineMiddle && lineMiddle < box.bottom);
  const x = (here.left + here.right) / 2;
  const distance = (box: TokenBox) =>
    x < box.left ? box.left - x : x > box.right ? x - box.right : 0;
  return line.reduce((best, box) => (distance(box) < distance(best) ? box : best)).token;
}
