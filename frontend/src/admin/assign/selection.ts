// Selecting many rows quickly: click toggles one, Shift+click sets the whole range from the
// last clicked row to this one (in the order shown), "all shown" adds the filtered rows.

import type { Id } from "../../api/types";

export function toggleOne(selected: ReadonlySet<Id>, id: Id): Set<Id> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Sets every row between `anchor` and `target` (inclusive, in `ordered`) to `on`. Without
 * an anchor shown in `ordered`, only the target changes. */
export function setRange(
  selected: ReadonlySet<Id>,
  ordered: readonly Id[],
  anchor: Id | null,
  target: Id,
  on: boolean,
): Set<Id> {
  const next = new Set(selected);
  const to = ordered.indexOf(target);
  const from = anchor === null ? -1 : ordered.indexOf(anchor);
  const [lo, hi] = from < 0 ? [to, to] : [Math.min(from, to), Math.max(from, to)];
  for (let i = lo; i <= hi; i++) {
    const id = ordered[i];
    if (id === undefined) continue;
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

export function addAll(selected: ReadonlySet<Id>, ids: readonly Id[]): Set<Id> {
  return new Set([...selected, ...ids]);
}

export function removeAll(selected: ReadonlySet<Id>, ids: readonly Id[]): Set<Id> {
  const drop = new Set(ids);
  return new Set([...selected].filter((id) => !drop.has(id)));
}

/** The selected ids in the order of `ordered` (the request keeps the list's order). */
export function inOrder(selected: ReadonlySet<Id>, ordered: readonly Id[]): Id[] {
  return ordered.filter((id) => selected.has(id));
}
