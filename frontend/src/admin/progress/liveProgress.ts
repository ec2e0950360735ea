// A project's progress matrix that follows the annotators' work: loaded once, then each
// ws/projects/<id>/ message changes its cell at once (status, version) and asks for a
// refetch of the matrix, throttled to one per interval (counts and time come from there).

import { computed, onBeforeUnmount, ref, shallowRef, type Ref } from "vue";
import { adminApi, type AdminApi } from "../../api/admin";
import type { ProgressMessage, ProgressPayload } from "../../api/adminTypes";
import type { Id } from "../../api/types";
import { errorText } from "../format";
import { connectLive, wsUrl, type LiveSocket } from "../../api/liveSocket";
import { applyMessage, buildMatrix, type Person } from "./matrix";
import { throttle } from "./throttle";

export interface LiveProgressOptions {
  api?: AdminApi;
  intervalMs?: number;
  /** People to show as columns even without a topic (the assignment form's choice). */
  extra?: Ref<Person[]>;
  live?: boolean;
}

export function useLiveProgress(projectId: Id, options: LiveProgressOptions = {}) {
  const api = options.api ?? adminApi;
  const progress = ref<ProgressPayload | null>(null);
  const error = ref<string | null>(null);
  const connected = ref(false);
  const fetches = ref(0);
  const messages = ref(0);
  const updatedAt = shallowRef<Date | null>(null);
  /** Assignments changed by a message in the last moments (the page highlights them). */
  const recent = ref(new Set<Id>());
  const matrix = computed(() =>
    progress.value ? buildMatrix(progress.value, options.extra?.value ?? []) : null,
  );

  async function load(): Promise<void> {
    try {
      const next = await api.progress(projectId);
      progress.value = next;
      fetches.value += 1;
      updatedAt.value = new Date();
      error.value = null;
    } catch (e) {
      error.value = errorText(e);
    }
  }

  const refetch = throttle(load, options.intervalMs ?? 1000);

  function onMessage(message: ProgressMessage) {
    if (message.type !== "progress") return;
    messages.value += 1;
    const cell = matrix.value ? applyMessage(matrix.value, message) : null;
    if (cell) {
      recent.value.add(cell.assignment);
      setTimeout(() => recent.value.delete(cell.assignment), 2000);
    }
    refetch.request();
  }

  let socket: LiveSocket | null = null;
  if (options.live !== false) {
    socket = connectLive<ProgressMessage>(wsUrl(`/ws/projects/${projectId}/`), {
      message: onMessage,
      opened(reconnected) {
        connected.value = true;
        if (reconnected) refetch.request();
      },
      closed() {
        connected.value = false;
      },
    });
  }
  onBeforeUnmount(() => {
    socket?.close();
    refetch.cancel();
  });

  return {
    progress,
    matrix,
    error,
    connected,
    fetches,
    messages,
    updatedAt,
    recent,
    load,
    refetch,
  };
}

export type LiveProgress = ReturnType<typeof useLiveProgress>;
