// The workspace of one assignment: loads the topic and the annotation, and is the one place
// that creates its stores (./stores/: annotation, navigation, suggestions, notices, UI) and
// wires them to editing and commands.
//
// Features plug in the same way: model suggestions (./stores/suggestions.ts) are a store over
// the same pieces, with their keys in the one keymap and their panel in the page.

import { computed, ref, watch } from "vue";
import { api as defaultApi, type Api } from "../api/endpoints";
import { ApiError } from "../api/http";
import type { AnnotationPayload, AssignmentRow, Id, TopicPayload } from "../api/types";
import { KeyDispatcher } from "../keyboard/dispatcher";
import { KEYMAP, schemesOf } from "../keyboard/keymap";
import type { AnnotatorVersion } from "./adjudication/model";
import { createAdjudicationStore, fetchVersions } from "./adjudication/store";
import { createClusterColors } from "./clusterColors";
import { createCommands } from "./commands";
import { createEditing, readOnlyText } from "./editing";
import { createWorkspaceEvents } from "./events";
import { createAnnotationStore } from "./stores/annotation";
import { createNavigationStore } from "./stores/navigation";
import { createNotices } from "./stores/notices";
import { createSuggestionsStore } from "./stores/suggestions";
import { createUiStore } from "./stores/ui";
import { createTopicModel } from "./topicModel";
import { countOf } from "./plural";

export interface LoadedWorkspace {
  /** My assignment; null when reviewing someone else's annotation. */
  assignment: AssignmentRow | null;
  topic: TopicPayload;
  annotation: AnnotationPayload;
  /** Set when the annotation is opened to review it (an admin, an adjudicator): read-only. */
  review?: { annotator: string | null };
  /** An adjudicator's assignment: the annotators' versions, fetched alongside the rest. */
  versions?: Promise<AnnotatorVersion[]>;
}

export class WorkspaceNotFound extends Error {}

/** Someone's annotation, to review it read-only (the server says who may see it). */
export async function loadReview(
  annotationId: Id,
  api: Api = defaultApi,
): Promise<LoadedWorkspace> {
  let annotation: AnnotationPayload;
  try {
    annotation = await api.annotation(annotationId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new WorkspaceNotFound(`There is no annotation #${annotationId} that you may review.`);
    }
    throw error;
  }
  const topic = await api.topic(annotation.topic);
  return { assignment: null, topic, annotation, review: { annotator: annotation.annotator } };
}

/** After submitting here: the next topic to do, once known (null: none is left). */
export interface AfterSubmit {
  next: AssignmentRow | null | undefined;
}

/** The first of my topics still to do other than this one, in the order the server sends them
 * (practice first, guided then scored), this topic's project before any other: after the
 * tutorial comes the project's test, after qualifying the project's real topics. */
export function nextTopicToDo(
  rows: readonly AssignmentRow[],
  current: Id | null,
): AssignmentRow | null {
  const open = rows.filter(
    (row) => row.id !== current && row.status !== "submitted" && !row.locked,
  );
  const project = rows.find((row) => row.id === current)?.project.id;
  return open.find((row) => row.project.id === project) ?? open[0] ?? null;
}

export async function loadWorkspace(
  assignmentId: Id,
  api: Api = defaultApi,
): Promise<LoadedWorkspace> {
  const rows = await api.myAssignments();
  const assignment = rows.find((row) => row.id === assignmentId);
  if (!assignment) throw new WorkspaceNotFound(`You have no assignment #${assignmentId}.`);
  const versions =
    assignment.role === "adjudicator" ? fetchVersions(assignment.annotation) : undefined;
  versions?.catch(() => undefined); // the adjudication store reports a failure once it awaits
  const [topic, annotation] = await Promise.all([
    api.topic(assignment.topic.id),
    api.annotation(assignment.annotation),
  ]);
  return { assignment, topic, annotation, versions };
}

function newClientId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function createWorkspace(
  loaded: LoadedWorkspace,
  options: { api?: Api; live?: boolean } = {},
) {
  const api = options.api ?? defaultApi;
  const topic = createTopicModel(loaded.topic);
  const reviewing = loaded.review !== undefined || loaded.assignment === null;
  const store = createAnnotationStore(topic, loaded.annotation, { reviewing });
  const nav = createNavigationStore(store, topic);
  const notices = createNotices();
  const clientId = newClientId();
  const annotationId = loaded.annotation.id;
  const ui = createUiStore();
  const events = createWorkspaceEvents();

  let reloading: Promise<void> | null = null;
  async function reload(reason: string): Promise<void> {
    if (reloading) return reloading;
    reloading = (async () => {
      try {
        const payload = await api.annotation(annotationId);
        editing.sync.reset();
        nav.pendingAssign.clear();
        nav.pendingClusters.clear();
        store.replace(payload);
        const s = store.state.value;
        if (nav.current.value === null || !s.mentions.has(nav.current.value)) {
          nav.current.set(nav.startMention(payload.cursor));
        }
        const sel = nav.selected.value;
        if (sel !== null && !s.clusters.has(sel)) nav.selected.set(null);
        const anaphor = nav.anaphor.value;
        if (anaphor !== null && !s.mentions.has(anaphor)) nav.anaphor.set(null);
        suggestions.refresh(); // mapped against the state that was replaced
        if (reason !== "conflict") notices.status(`Reloaded the annotation: ${reason}.`);
      } catch (error) {
        notices.alert("Could not reload the annotation.", [
          error instanceof Error ? error.message : String(error),
        ]);
      } finally {
        reloading = null;
      }
    })();
    return reloading;
  }

  const editing = createEditing({
    annotationId,
    clientId,
    api,
    store,
    notices,
    reload,
    live: options.live,
  });
  const commands = createCommands({ topic, store, nav, editing, notices });
  const suggestions = createSuggestionsStore({
    api,
    annotationId,
    topic,
    store,
    nav,
    editing,
    notices,
    commands,
  });
  const schemes = schemesOf(topic.project);
  // An adjudication: the annotators' versions beside it, and the keys to adopt their decisions.
  const adjudication =
    loaded.annotation.kind === "adjudication"
      ? createAdjudicationStore({
          annotationId,
          topic,
          store,
          nav,
          editing,
          notices,
          commands,
          prefetched: loaded.versions,
        })
      : null;
  if (adjudication) schemes.add("adjudication");
  // Flags for the adjudicator: in an annotator's own work (not a review, an adjudication or gold).
  if (loaded.annotation.kind === "annotator" && !reviewing) schemes.add("flags");
  const keys = new KeyDispatcher(KEYMAP, () => schemes, {
    readOnly: () => store.locked.value,
    refuse: (binding) =>
      notices.status(readOnlyText(store), [
        `${binding.description.replace(/^\w+: /, "")}: not available.`,
      ]),
  });
  const clusterColors = createClusterColors(() => store.state.value);
  /** Signed out (the session expired): the queue keeps every edit until signing in again. */
  const signedOut = computed(() => editing.status.paused !== null);
  const afterSubmit = ref<AfterSubmit | null>(null);

  // Start where the annotator left off, else at the first mention still to do.
  nav.current.set(nav.startMention(store.initialCursor));
  const startCluster =
    nav.current.value === null
      ? undefined
      : store.state.value.mentionCluster.get(nav.current.value);
  nav.selected.set(startCluster ?? nav.clusterOrder.value[0] ?? null);

  // Clusters that disappear (merged, emptied, undone) cannot stay selected.
  editing.onApplied(() => {
    const s = store.state.value;
    const sel = nav.selected.value;
    if (sel !== null && sel >= 0 && !s.clusters.has(sel)) nav.selected.set(null);
    const cur = nav.current.value;
    if (cur !== null && !s.mentions.has(cur)) nav.step(0);
  });

  // Remember the current mention on the server (resume after reload), a moment after it settles.
  let cursorTimer: ReturnType<typeof setTimeout> | null = null;
  let savedCursor: Id | null = store.initialCursor;
  const saveCursor = (keepalive = false) => {
    const mention = nav.current.value;
    if (mention === savedCursor || store.locked.value || reviewing) return;
    savedCursor = mention;
    api.cursor(annotationId, mention, keepalive).catch(() => {
      savedCursor = null; // try again on the next move
    });
  };
  const stopCursorWatch = watch(
    () => nav.current.value,
    () => {
      if (cursorTimer !== null) clearTimeout(cursorTimer);
      cursorTimer = setTimeout(() => saveCursor(), 400);
    },
  );

  async function submit(): Promise<void> {
    const assignment = loaded.assignment;
    if (assignment === null || store.locked.value) return;
    if (editing.status.queued > 0 || editing.status.inFlight) {
      notices.alert(
        `Wait until ${countOf(editing.status.queued, "unsaved edit")} ${editing.status.queued === 1 ? "is" : "are"} saved, then submit.`,
      );
      return;
    }
    try {
      await api.submit(assignment.id);
    } catch (error) {
      notices.alert("Not submitted.", [
        error instanceof ApiError || error instanceof Error ? error.message : String(error),
      ]);
      return;
    }
    store.setSubmitted(true);
    afterSubmit.value = { next: undefined };
    notices.status("Submitted. The topic is now read-only.");
    try {
      afterSubmit.value = { next: nextTopicToDo(await api.myAssignments(), assignment.id) };
    } catch {
      afterSubmit.value = { next: null };
    }
  }

  return {
    assignment: loaded.assignment,
    annotationId,
    clientId,
    topic,
    store,
    nav,
    notices,
    editing,
    commands,
    suggestions,
    adjudication,
    keys,
    schemes,
    ui,
    events,
    clusterColors,
    reviewing,
    /** Whose annotation is under review (null: gold or unknown). */
    annotator: loaded.review?.annotator ?? loaded.annotation.annotator,
    signedOut,
    afterSubmit,
    reload,
    submit,
    /** Save the cursor now (the page is being hidden). */
    flushCursor: () => saveCursor(true),
    dispose() {
      stopCursorWatch();
      if (cursorTimer !== null) clearTimeout(cursorTimer);
      suggestions.dispose();
      editing.dispose();
    },
  };
}

export type Workspace = ReturnType<typeof createWorkspace>;
