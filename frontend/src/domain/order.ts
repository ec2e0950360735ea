// The order in which the annotator walks through mentions: reading order (document, then
// first token), which is also the order SciCo and ChEMU files list them in.

import type { Id } from "../api/types";
import type { Mention } from "./state";

export function readingOrder(
  mentions: Iterable<Mention>,
  documentPosition: ReadonlyMap<Id, number>,
): Id[] {
  return [...mentions]
    .sort(
      (a, b) =>
        (documentPosition.get(a.document) ?? 0) - (documentPosition.get(b.document) ?? 0) ||
        a.spans[0]![0] - b.spans[0]![0] ||
        a.spans[a.spans.length - 1]![1] - b.spans[b.spans.length - 1]![1] ||
        a.id - b.id,
    )
    .map((m) => m.id);
}

/** The next mention after `from` (wrapping) that passes `accept`, or null. */
export function nextWhere(
  order: readonly Id[],
  from: number,
  accept: (id: Id) => boolean,
  step = 1,
): Id | null {
  const n = order.length;
  for (let k = 1; k <= n; k++) {
    const id = order[(((from + step * k) % n) + n) % n]!;
    if (accept(id)) return id;
  }
  return null;
}
