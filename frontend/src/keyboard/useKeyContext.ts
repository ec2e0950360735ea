// How a component takes part in the keyboard: it registers the handlers of its commands with
// the workspace's one dispatcher (./dispatcher.ts) while it is mounted, and enters its context
// (a dialog, a picker, a text selection) while it is mounted, or only while `active` says so.

import {
  inject,
  type InjectionKey,
  onBeforeUnmount,
  onMounted,
  provide,
  watch,
  type WatchSource,
} from "vue";
import type { KeyDispatcher, KeyHandler } from "./dispatcher";
import type { CommandId, KeyContext } from "./keymap";

export type KeyHandlers = Partial<Record<CommandId, KeyHandler>>;

export const KEY_DISPATCHER: InjectionKey<KeyDispatcher> = Symbol("key dispatcher");

/** Make `keys` the dispatcher of the components below the caller. */
export function provideKeyDispatcher(keys: KeyDispatcher): void {
  provide(KEY_DISPATCHER, keys);
}

export interface KeyContextOptions {
  /** The context to enter; without one the handlers answer in the contexts they already have. */
  context?: KeyContext;
  /** Enter the context only while this is true (by default: while mounted). */
  active?: WatchSource<boolean>;
  /** The dispatcher, for the component that provides it (the others get it injected). */
  keys?: KeyDispatcher;
}

export function useKeyContext(handlers: KeyHandlers, options: KeyContextOptions = {}): void {
  const keys = options.keys ?? inject(KEY_DISPATCHER);
  if (!keys) throw new Error("useKeyContext() outside a workspace (no key dispatcher)");
  const { context, active } = options;
  let mounted = false;
  let unregister: (() => void) | null = null;
  let leave: (() => void) | null = null;

  const enter = (on: boolean) => {
    if (context === undefined) return;
    if (on && mounted && !leave) leave = keys.pushContext(context);
    if (!on && leave) {
      leave();
      leave = null;
    }
  };

  onMounted(() => {
    mounted = true;
    unregister = keys.register(handlers);
    enter(active === undefined || (typeof active === "function" ? active() : active.value));
  });
  if (active !== undefined) watch(active, enter);
  onBeforeUnmount(() => {
    mounted = false;
    unregister?.();
    unregister = null;
    enter(false);
  });
}
