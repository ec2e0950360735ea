// One chosen value (the current mention, the selected cluster) that components can ask about
// per key: `is(id)` tracks only that id, so moving the choice from A to B re-renders the
// two components showing A and B, not every mention on the screen.

import { reactive, shallowRef, type ShallowRef } from "vue";

export interface KeyedChoice<T> {
  /** The chosen value, read like a ref's: a render or computed that reads it follows it. */
  readonly value: T | null;
  set(next: T | null): void;
  is(candidate: T): boolean;
}

export function keyedChoice<T>(): KeyedChoice<T> {
  const chosenValue: ShallowRef<T | null> = shallowRef<T | null>(null);
  const chosen = reactive(new Set<T>()) as Set<T>;
  return {
    // A getter over the ref, so readers say `nav.current.value`, not `.value.value`.
    get value() {
      return chosenValue.value;
    },
    set(next) {
      const old = chosenValue.value;
      if (next === old) return;
      if (old !== null) chosen.delete(old);
      chosenValue.value = next;
      if (next !== null) chosen.add(next);
    },
    is: (candidate) => chosen.has(candidate),
  };
}
