// One chosen value (the current mention, the selected cluster) that components can ask about
// per key: `is(id)` tracks only that id, so moving the choice from A to B re-renders the
// two components showing A and B, not every mention on the screen.

import { reactive, shallowRef, type ShallowRef } from "vue";

export interface KeyedChoice<T> {
  readonly value: Readonly<ShallowRef<T | null>>;
  set(next: T | null): void;
  is(candidate: T): boolean;
}

export function keyedChoice<T>(): KeyedChoice<T> {
  const value: ShallowRef<T | null> = shallowRef<T | null>(null);
  const chosen = reactive(new Set<T>()) as Set<T>;
  return {
    value,
    set(next) {
      const old = value.value;
      if (next === old) return;
      if (old !== null) chosen.delete(old);
      value.value = next;
      if (next !== null) chosen.add(next);
    },
    is: (candidate) => chosen.has(candidate),
  };
}
