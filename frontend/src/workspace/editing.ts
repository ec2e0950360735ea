// Sending edits and receiving changes: the operation queue, version ordering and the live
// socket, wired to the store and to the user's notices.

import { reactive } from "vue";
import type { ApiError } from "../api/http";
import type { Api } from "../api/endpoints";
import type {
  Applied,
  AppliedBatch,
  Decision,
  Id,
  Operation,
  SocketMessage,
  SuggestionKind,
} from "../api/types";
import type { Notices } from "./stores/notices";
import { type Edit, type EditRequest, OperationQueue, type QueueStatus } from "./operationQueue";
import { connectLive, type LiveSocket, wsUrl } from "../api/liveSocket";
import type { AnnotationStore } from "./stores/annotation";
import { VersionSync } from "./versionSync";

export interface EditCallbacks {
  /** The server applied the edit (its effects are already in the state). */
  done?: (applied: Applied) => void;
  /** A batch edit was answered (every change of it is already in the state). */
  batchDone?: (batch: AppliedBatch) => void;
  /** The edit will not be applied (refused, or discarded by a conflict or a lock). */
  failed?: () => void;
}

export interface EditingDeps {
  annotationId: Id;
  clientId: string;
  api: Api;
  store: AnnotationStore;
  notices: Notices;
  reload: (reason: string) => Promise<void>;
  live?: boolean;
}

const QUIET_REFUSALS = new Set(["nothing_to_undo", "nothing_to_redo"]);

/** Why nothing can be changed here. */
export function readOnlyText(store: Pick<AnnotationStore, "reviewing">): string {
  return store.reviewing
    ? "You are reviewing this annotation: it is read-only."
    : "This topic is submitted and read-only.";
}

export function createEditing(deps: EditingDeps) {
  const { api, store, notices, annotationId, clientId } = deps;
  const status = reactive<QueueStatus>({
    queued: 0,
    inFlight: false,
    offline: false,
    paused: null,
    retryAt: null,
    restoring: false,
  });
  const socketState = reactive({ connected: false, everConnected: false });
  const callbacks = new Map<number, EditCallbacks>();
  const appliedListeners: ((applied: Applied, own: boolean) => void)[] = [];
  const messageListeners: ((message: SocketMessage) => void)[] = [];
  const reconnectListeners: (() => void)[] = [];

  const sync = new VersionSync({
    version: () => store.version.value,
    apply: (applied) => {
      store.apply(applied);
      const own = applied.client_id === clientId;
      for (const listener of appliedListeners) listener(applied, own);
    },
    reload: (reason) => deps.reload(reason),
    busy: () => status.inFlight || status.queued > 0,
  });

  const failAll = (edits: Edit[]) => {
    for (const edit of edits) {
      callbacks.get(edit.id)?.failed?.();
      callbacks.delete(edit.id);
    }
  };

  const queue = new OperationQueue(
    {
      send(request: EditRequest, expected: number) {
        if (request.kind === "undo") return api.undo(annotationId, expected, clientId);
        if (request.kind === "redo") return api.redo(annotationId, expected, clientId);
        if (request.kind === "decide") {
          return api.decideSuggestions(
            annotationId,
            expected,
            request.decision,
            request.suggestions,
            clientId,
          );
        }
        if (request.kind === "acceptAbove") {
          return api.acceptAbove(
            annotationId,
            expected,
            request.threshold,
            request.kinds,
            clientId,
          );
        }
        return api.operation(annotationId, expected, request.operation, clientId);
      },
    },
    {
      version: () => store.version.value,
      applied(applied, edit) {
        sync.receive(applied);
        // An edit went through: earlier refusals are answered (guided practice: the right
        // decision after a wrong one), so their "Not done" notices go.
        notices.clearTag("refused");
        if (applied.warnings.length) notices.status(`${edit.description}:`, applied.warnings);
        else notices.announce(`Done: ${edit.description}.`);
        if (edit.request.kind === "acceptAbove") return; // batchDone follows
        callbacks.get(edit.id)?.done?.(applied);
        callbacks.delete(edit.id);
      },
      batchDone(edit, batch) {
        callbacks.get(edit.id)?.batchDone?.(batch);
        callbacks.delete(edit.id);
      },
      refused(edit, error: ApiError) {
        if (error.code === "nothing_to_undo") store.canUndo.value = false;
        if (error.code === "nothing_to_redo") store.canRedo.value = false;
        if (QUIET_REFUSALS.has(error.code)) notices.status(error.message);
        else notices.alert(`Not done: ${edit.description}.`, [error.message], { tag: "refused" });
        failAll([edit]);
      },
      async conflict(_error, discarded) {
        failAll(discarded);
        await deps.reload("conflict");
        const lost = discarded.map((e) => `Not saved: ${e.description}`);
        notices.alert(
          "This annotation was changed elsewhere (another tab or window), so the current state was loaded.",
          lost.length ? lost : ["None of your edits was lost."],
          { sticky: true },
        );
      },
      locked(error, discarded) {
        failAll(discarded);
        store.setSubmitted(true);
        notices.alert(
          error.message,
          discarded.map((e) => `Not saved: ${e.description}`),
          { sticky: true },
        );
      },
    },
    { status },
  );

  function send(
    request: EditRequest,
    description: string,
    options: EditCallbacks & { creates?: Edit["creates"] } = {},
  ) {
    if (store.locked.value) {
      notices.alert(readOnlyText(store), [`Not done: ${description}.`]);
      options.failed?.();
      return null;
    }
    const edit = queue.enqueue(request, description, options.creates);
    if (options.done || options.failed || options.batchDone) {
      callbacks.set(edit.id, {
        done: options.done,
        failed: options.failed,
        batchDone: options.batchDone,
      });
    }
    return edit;
  }

  let socket: LiveSocket | null = null;
  function onSocketMessage(message: SocketMessage) {
    if (message.type === "applied") {
      if (message.client_id === clientId) return; // our own edit: its HTTP answer carries it
      sync.receive(message);
    } else if (message.type === "status") {
      const wasLocked = store.locked.value;
      store.setSubmitted(message.status === "submitted");
      if (!store.reviewing && store.locked.value && !wasLocked)
        notices.alert("This topic was submitted and is now read-only.");
      if (!store.reviewing && !store.locked.value && wasLocked)
        notices.status("This topic was reopened: you can edit it again.");
    }
    for (const listener of messageListeners) listener(message);
  }
  async function checkMissed(why: string) {
    try {
      const rows = await api.myAssignments();
      const row = rows.find((r) => r.annotation === annotationId);
      if (row && row.version > store.version.value && !status.inFlight && status.queued === 0) {
        await deps.reload(why);
      }
    } catch {
      // Still unreachable: the queue reports that on its own.
    }
  }
  if (deps.live !== false && typeof WebSocket !== "undefined") {
    socket = connectLive<SocketMessage>(wsUrl(`/ws/annotations/${annotationId}/`), {
      message: onSocketMessage,
      opened(reconnected) {
        socketState.connected = true;
        socketState.everConnected = true;
        if (reconnected) {
          void checkMissed("changes were made while the live connection was down");
          for (const listener of reconnectListeners) listener();
        } else {
          // A change committed between loading the annotation and joining its live group
          // reached nobody: compare versions once the socket is open.
          void checkMissed("the annotation changed while the page was loading");
        }
      },
      closed() {
        socketState.connected = false;
      },
    });
  }

  const onOnline = () => queue.retryNow();
  if (typeof window !== "undefined") window.addEventListener("online", onOnline);

  return {
    status,
    socketState,
    queue,
    sync,
    send,
    op(
      operation: Operation,
      description: string,
      options?: EditCallbacks & { creates?: Edit["creates"] },
    ) {
      return send({ kind: "op", operation }, description, options);
    },
    onApplied(listener: (applied: Applied, own: boolean) => void) {
      appliedListeners.push(listener);
    },
    /** Every websocket message (suggestion runs arrive as {type: "run"}). */
    onMessage(listener: (message: SocketMessage) => void) {
      messageListeners.push(listener);
    },
    /** The live connection came back (messages may have been missed). */
    onReconnected(listener: () => void) {
      reconnectListeners.push(listener);
    },
    /** Accept every open suggestion scoring at least `threshold`: one request, each acceptance its own change. */
    acceptAbove(
      threshold: number,
      kinds: SuggestionKind[],
      description: string,
      options?: EditCallbacks,
    ) {
      return send({ kind: "acceptAbove", threshold, kinds }, description, options);
    },
    /** Accept or reject these suggestions: one request, one change, one undo step. */
    decide(decision: Decision, suggestions: Id[], description: string, options?: EditCallbacks) {
      return send({ kind: "decide", decision, suggestions }, description, options);
    },
    retryNow: () => queue.retryNow(),
    dispose() {
      socket?.close();
      if (typeof window !== "undefined") window.removeEventListener("online", onOnline);
    },
  };
}

export type Editing = ReturnType<typeof createEditing>;
