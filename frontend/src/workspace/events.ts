// Things that happen in a workspace, for whoever listens: "the tree takes the focus" (T) is a
// moment, not a value, so it is an event, not a counter that panels watch. State stays in
// the stores (./stores/).

import { inject, type InjectionKey, onScopeDispose } from "vue";

/** Every workspace event and its payload (void: none). */
export interface WorkspaceEventMap {
  /** T: the hierarchy tree takes the focus. */
  "focus-tree": void;
  /** B: the cluster bank takes the focus. */
  "focus-bank": void;
}

export type EventHandler<P> = (payload: P) => void;
/** The arguments after the event name: nothing for a void payload. */
export type EventArgs<P> = [P] extends [void] ? [] : [payload: P];

export interface Emitter<M> {
  /** Call `handler` on every `name` event until the returned function is called. */
  on<K extends keyof M>(name: K, handler: EventHandler<M[K]>): () => void;
  emit<K extends keyof M>(name: K, ...args: EventArgs<M[K]>): void;
}

export function createEmitter<M>(): Emitter<M> {
  const handlers = new Map<keyof M, EventHandler<unknown>[]>();
  return {
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      const entry = handler as EventHandler<unknown>;
      list.push(entry);
      handlers.set(name, list);
      return () => {
        const index = list.indexOf(entry);
        if (index >= 0) list.splice(index, 1);
      };
    },
    emit(name, ...args) {
      // A copy: a handler may unsubscribe (its panel unmounts) while the event is delivered.
      for (const handler of [...(handlers.get(name) ?? [])]) handler(args[0]);
    },
  };
}

export type WorkspaceEvents = Emitter<WorkspaceEventMap>;

export const createWorkspaceEvents = (): WorkspaceEvents => createEmitter<WorkspaceEventMap>();

export const WORKSPACE_EVENTS: InjectionKey<WorkspaceEvents> = Symbol("workspace events");

/** The workspace's events, for a component that emits them. */
export function useWorkspaceEvents(): WorkspaceEvents {
  const events = inject(WORKSPACE_EVENTS);
  if (!events) throw new Error("useWorkspaceEvents() outside a workspace");
  return events;
}

/** Handle a workspace event while the calling component is mounted. */
export function onWorkspaceEvent<K extends keyof WorkspaceEventMap>(
  name: K,
  handler: EventHandler<WorkspaceEventMap[K]>,
): void {
  onScopeDispose(useWorkspaceEvents().on(name, handler));
}
