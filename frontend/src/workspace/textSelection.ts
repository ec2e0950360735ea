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
export function moveCaret(selection: TokenSelection, delta: number, length: number): TokenSelection {
  const token = clamp(selection.focus + delta, length);
  return { document: selection.document, anchor: token, focus: token };
}

/** Arrow with Shift: the focus moves and the anchor stays, as in a text editor. */
export function extendSelection(selection: TokenSelection, delta: number, length: number): TokenSelection {
  return { ...selection, focus: clamp(selection.focus + delta, length) };
}
