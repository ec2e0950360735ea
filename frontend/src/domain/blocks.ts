// A long document (over 2,000 tokens) is drawn in blocks of whole sentences, each an item of
// the document list, so that only the blocks on screen are in the page: a 100,000-token novel
// drawn whole put all its tokens and mentions in the page at once (seconds to open, every
// layout over all of them).
// Where the blocks end depends on the text only, never on the mentions: an edit does not move
// them, and a mention across a block's end is drawn in two pieces (buildPieces cuts it).

/** Tokens a block holds at least (but for the last), about 75 lines of the workspace. */
export const BLOCK_TOKENS = 1000;

export interface DocumentBlock<D> {
  document: D;
  /** The document's place in the topic. */
  index: number;
  /** The block's place in its document: 0 holds the document's header. */
  part: number;
  last: boolean;
  start: number;
  /** Inclusive. */
  end: number;
}

/** Where a document's blocks start and end (inclusive): a block ends with the first sentence
 * that takes it to `size` tokens; a run of `2 * size` tokens with no sentence end is cut; a
 * rest under half a block joins the last block. */
export function blockRanges(
  tokenCount: number,
  sentences: readonly (readonly [number, number])[],
  size = BLOCK_TOKENS,
): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (const [, end] of sentences) {
    while (end - start > 2 * size) {
      out.push([start, start + size - 1]);
      start += size;
    }
    if (end - start >= size) {
      out.push([start, end - 1]);
      start = end;
    }
  }
  const last = out[out.length - 1];
  // A short rest joins the block before it rather than standing alone.
  if (last && start < tokenCount && tokenCount - start < size / 2) last[1] = tokenCount - 1;
  else if (start < tokenCount || out.length === 0) out.push([start, tokenCount - 1]);
  return out;
}

/** Every document's blocks in topic order; `sentences` gives a document's sentences (end
 * exclusive). */
export function documentBlocks<D extends { tokens: readonly string[] }>(
  documents: readonly D[],
  sentences: (document: D) => readonly (readonly [number, number])[],
  size = BLOCK_TOKENS,
): DocumentBlock<D>[] {
  const out: DocumentBlock<D>[] = [];
  documents.forEach((document, index) => {
    const n = document.tokens.length;
    // Up to two blocks' worth a document stays whole: snippets and abstracts draw as before
    // (every arc of a dense snippet on the page), only long documents are cut.
    const ranges =
      n > 2 * size ? blockRanges(n, sentences(document), size) : [[0, n - 1] as [number, number]];
    ranges.forEach(([start, end], part) =>
      out.push({ document, index, part, last: part === ranges.length - 1, start, end }),
    );
  });
  return out;
}

/** The block holding `token` of the document whose first block is `first`. */
export function blockOf<D>(
  blocks: readonly DocumentBlock<D>[],
  first: number,
  token: number,
): number {
  let i = first;
  while (i + 1 < blocks.length && !blocks[i]!.last && blocks[i]!.end < token) i++;
  return i;
}
