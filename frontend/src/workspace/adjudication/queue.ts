// The disagreement queue: the items of the model (./model.ts) in order, which of them the
// adjudicator has settled, and N / Shift+N through those still open.
//
// An item is settled once the adjudicator decided it: adopted an annotator's decision with a
// digit (even one that was already so), or changed it by hand (its adjudicated value is no
// longer the one it had when the workspace opened). Unsettled items are the "remaining"
// disagreements; an item on which everyone agrees again leaves the queue by itself.

import type { Item } from "./model";

/** What the adjudicated annotation says for an item: a settled check compares it over time. */
export function itemValue(item: Item): string {
  if (item.kind === "mention") {
    const c = item.current;
    return c.kind === "cluster" ? `c${c.cluster}` : c.kind === "new" ? `n${c.cluster}` : c.kind;
  }
  return item.current ? "1" : "0";
}

export function remaining(items: readonly Item[], settled: ReadonlySet<string>): Item[] {
  return items.filter((item) => !settled.has(item.key));
}

/**
 * The next open item after `fromKey` in queue order (step 1) or before it (step -1), wrapping;
 * `fromKey` may be an item no longer in the queue (`fromIndex` then says where it was).
 */
export function stepItem(
  items: readonly Item[],
  settled: ReadonlySet<string>,
  fromKey: string | null,
  step: 1 | -1,
  fromIndex = -1,
): Item | null {
  const n = items.length;
  if (n === 0) return null;
  let at = fromKey === null ? -1 : items.findIndex((item) => item.key === fromKey);
  if (at < 0 && fromKey !== null && fromIndex >= 0)
    at = step === 1 ? Math.min(fromIndex, n) - 1 : Math.min(fromIndex, n);
  if (at < 0 && step === -1) at = n;
  for (let k = 1; k <= n; k++) {
    const item = items[(((at + step * k) % n) + n) % n]!;
    if (!settled.has(item.key)) return item;
  }
  return null;
}

/**
 * Settle the items whose adjudicated value moved away from the one first seen (the adjudicator
 * changed them by hand); returns the keys newly settled. `seen` keeps the first value of each.
 */
export function settleChanged(
  items: readonly Item[],
  seen: Map<string, string>,
  settled: ReadonlySet<string>,
): string[] {
  const changed: string[] = [];
  for (const item of items) {
    const value = itemValue(item);
    const first = seen.get(item.key);
    if (first === undefined) seen.set(item.key, value);
    else if (first !== value && !settled.has(item.key)) changed.push(item.key);
  }
  return changed;
}
