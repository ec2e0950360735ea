// The text of a document cut into pieces: plain token runs and mention parts, nested when
// mentions nest. A part that crosses the end of an enclosing part is cut in two there, so
// the pieces always form a tree that HTML can render.

import type { Id, Span } from "../api/types";

export interface TextPiece {
  kind: "text";
  start: number;
  end: number; // inclusive
}

export interface MentionPiece {
  kind: "mention";
  mention: Id;
  /** Which of the mention's spans this piece shows (discontinuous mentions have several). */
  part: number;
  start: number;
  end: number; // inclusive
  children: Piece[];
}

export type Piece = TextPiece | MentionPiece;

interface Part {
  mention: Id;
  part: number;
  start: number;
  end: number;
}

function compare(a: Part, b: Part): number {
  return a.start - b.start || b.end - a.end || a.mention - b.mention || a.part - b.part;
}

function insertSorted(parts: Part[], from: number, part: Part): void {
  let lo = from;
  let hi = parts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(parts[mid]!, part) <= 0) lo = mid + 1;
    else hi = mid;
  }
  parts.splice(lo, 0, part);
}

interface Node {
  part: Part;
  children: Node[];
}

/** The pieces of tokens `lo`..`hi` (the whole text by default); a mention that crosses either
 * end is cut there, so a long document can be drawn block by block (./blocks.ts). */
export function buildPieces(
  tokenCount: number,
  mentions: readonly { id: Id; spans: readonly Span[] }[],
  lo = 0,
  hi = tokenCount - 1,
): Piece[] {
  const parts: Part[] = [];
  const first = Math.max(0, lo);
  const last = Math.min(tokenCount - 1, hi);
  for (const m of mentions) {
    m.spans.forEach(([start, end], part) => {
      const s = Math.max(first, start);
      const e = Math.min(last, end);
      if (s <= e) parts.push({ mention: m.id, part, start: s, end: e });
    });
  }
  parts.sort(compare);
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    while (stack.length && part.start > stack[stack.length - 1]!.part.end) stack.pop();
    const top = stack[stack.length - 1];
    if (top && part.end > top.part.end) {
      insertSorted(parts, i + 1, { ...part, start: top.part.end + 1 });
      part.end = top.part.end;
    }
    const node: Node = { part, children: [] };
    (top ? top.children : roots).push(node);
    stack.push(node);
  }
  return toPieces(roots, first, last);
}

function toPieces(nodes: Node[], lo: number, hi: number): Piece[] {
  const pieces: Piece[] = [];
  let cursor = lo;
  for (const { part, children } of nodes) {
    if (part.start > cursor) pieces.push({ kind: "text", start: cursor, end: part.start - 1 });
    pieces.push({
      kind: "mention",
      mention: part.mention,
      part: part.part,
      start: part.start,
      end: part.end,
      children: toPieces(children, part.start, part.end),
    });
    cursor = part.end + 1;
  }
  if (cursor <= hi) pieces.push({ kind: "text", start: cursor, end: hi });
  return pieces;
}
