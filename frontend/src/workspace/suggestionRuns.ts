// The topic's suggestion runs and the fetched suggestions: asking for a run, its progress (the
// websocket's "run" messages) and the throttled fetch of the latest finished run's suggestions.
//
// Fetching: on start, after a run of the topic succeeds, after the live connection comes back,
// and after applied changes (mine or another tab's), throttled: never two at once, at most one
// per gap (longer when fetches are slow), always one after the last change, and only while the
// queue is idle. Between fetches memberships are re-mapped locally (suggestionModel.ts).

import { ref, shallowRef } from "vue";
import type { Api } from "../api/endpoints";
import { ApiError } from "../api/http";
import type { Id, RunPayload, SocketMessage, SuggestionsPayload } from "../api/types";
import type { Editing } from "./editing";
import type { AnnotationStore } from "./stores/annotation";
import type { Notices } from "./stores/notices";
import { isActive, isNewerRun, runState, Throttle } from "./suggestionModel";
import type { TopicModel } from "./topicModel";

export interface SuggestionRunDeps {
  api: Api;
  annotationId: Id;
  topic: TopicModel;
  store: AnnotationStore;
  editing: Editing;
  notices: Notices;
}

const MIN_GAP_MS = 1500;

export function createSuggestionRuns({
  api,
  annotationId,
  topic,
  store,
  editing,
  notices,
}: SuggestionRunDeps) {
  const payload = shallowRef<SuggestionsPayload | null>(null);
  /** The topic's newest run, whatever its state (what the progress bar shows). */
  const run = shallowRef<RunPayload | null>(null);
  /** Live model workers, when asked (after a request, or a queued run found on load). */
  const workers = shallowRef<string[] | null>(null);
  const requesting = ref(false);
  const loaded = ref(false);

  // ---- fetching ------------------------------------------------------------------------
  let lastFetchMs = 0;
  let disposed = false;
  async function fetchNow(): Promise<void> {
    const started = performance.now();
    try {
      const next = await api.suggestions(annotationId);
      if (disposed) return;
      payload.value = next;
      loaded.value = true;
      if (next.newest_run && isNewerRun(next.newest_run, run.value)) run.value = next.newest_run;
      // Mapped against an older version than ours: edges may be stale, look again.
      if (next.version < store.version.value) refetch.request();
    } catch {
      // Unreachable or refused: the suggestions shown stay; the next change tries again.
    } finally {
      lastFetchMs = performance.now() - started;
    }
  }
  const refetch = new Throttle(fetchNow, {
    gapMs: () => Math.max(MIN_GAP_MS, 5 * lastFetchMs),
    ready: () => editing.status.queued === 0 && !editing.status.inFlight,
  });

  async function fetchWorkers(): Promise<void> {
    try {
      const answer = await api.suggestionRuns(topic.topic.id);
      workers.value = answer.model_workers;
      const newest = answer.runs[0];
      if (newest && isNewerRun(newest, run.value)) run.value = newest;
    } catch {
      // Not known: the run's state is shown without it.
    }
  }

  function onRunMessage(message: RunPayload) {
    if (message.topic !== topic.topic.id || !isNewerRun(message, run.value)) return;
    const before = run.value;
    run.value = message;
    if (message.status !== "queued") workers.value = null;
    const changed =
      before === null || before.run !== message.run || before.status !== message.status;
    if (message.status === "succeeded" && changed) refetch.request(true);
  }

  editing.onMessage((message: SocketMessage) => {
    if (message.type === "run") onRunMessage(message);
  });
  editing.onReconnected(() => {
    refetch.request(true);
  });
  editing.onApplied(() => {
    if (payload.value?.run) refetch.request();
  });

  async function start(): Promise<void> {
    await fetchNow();
    if (run.value?.status === "queued") await fetchWorkers();
  }

  // ---- asking for a run ----------------------------------------------------------------
  async function requestRun(): Promise<void> {
    if (store.locked.value) {
      notices.status("This topic is submitted: no suggestions needed.");
      return;
    }
    if (topic.topic.suggestions_off) {
      notices.status(topic.topic.suggestions_off);
      return;
    }
    if (isActive(run.value)) {
      notices.status(runState(run.value, workers.value).text);
      return;
    }
    if (requesting.value) return;
    requesting.value = true;
    try {
      const answer = await api.requestSuggestionRun(topic.topic.id);
      const { model_workers, ...created } = answer;
      workers.value = model_workers;
      if (isNewerRun(created, run.value)) run.value = created;
    } catch (error) {
      notices.alert("Could not ask for suggestions.", [
        error instanceof ApiError || error instanceof Error ? error.message : String(error),
      ]);
    } finally {
      requesting.value = false;
    }
  }

  /** What to say when no suggestion is left to act on. */
  function noSuggestionsText(): string {
    if (isActive(run.value)) return runState(run.value, workers.value).text;
    return payload.value?.run
      ? "Every suggestion is decided."
      : "No suggestions yet: press Shift+S to ask the model.";
  }

  return {
    payload,
    run,
    workers,
    requesting,
    loaded,
    start,
    refresh: () => refetch.request(true),
    requestRun,
    noSuggestionsText,
    dispose() {
      disposed = true;
      refetch.cancel();
    },
  };
}

export type SuggestionRuns = ReturnType<typeof createSuggestionRuns>;
