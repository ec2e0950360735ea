// The annotation store: the clusters, hierarchy, links and decisions of the open workspace
// (one AnnotationState), its version and its undo/redo availability. Changes arrive only as
// the server's effects (apply) or as a whole new payload (replace).

import { computed, reactive, type Ref, ref, type ShallowRef, shallowRef } from "vue";
import type { AnnotationPayload, Applied, Id } from "../../api/types";
import { applyEffects } from "../../domain/effects";
import { AnnotationState, type Settings } from "../../domain/state";
import type { TopicModel } from "../topicModel";

export function projectSettings(project: TopicModel["project"]): Settings {
  return {
    single_parent: project.single_parent,
    allow_add_mentions: project.allow_add_mentions,
    allow_fix_spans: project.allow_fix_spans,
    allow_reject_mentions: project.allow_reject_mentions,
    hierarchy: project.hierarchy,
    anaphora: project.anaphora,
    refuse_duplicate_link_pairs: project.refuse_duplicate_link_pairs,
  };
}

const READ_ONLY_STATUSES = new Set(["submitted", "gold"]);

export interface AnnotationStore {
  readonly state: ShallowRef<AnnotationState>;
  readonly version: Ref<number>;
  readonly canUndo: Ref<boolean>;
  readonly canRedo: Ref<boolean>;
  /** Read-only: submitted (or gold) until an admin reopens it, or under review. */
  readonly locked: Readonly<Ref<boolean>>;
  /** Someone else's annotation, opened to review it: read-only whatever its status. */
  readonly reviewing: boolean;
  /** The status says submitted (true) or open again (false). */
  setSubmitted(submitted: boolean): void;
  /** Where the annotator left off when the workspace was loaded. */
  readonly initialCursor: Id | null;
  /** Apply a change whose version is exactly version + 1 (throws CorruptEffects if it does not fit). */
  apply(applied: Applied): void;
  replace(next: AnnotationPayload): void;
}

/** What components read of the annotation store: they change it only through commands. */
export interface AnnotationView {
  readonly state: Readonly<ShallowRef<AnnotationState>>;
  readonly version: Readonly<Ref<number>>;
  readonly canUndo: Readonly<Ref<boolean>>;
  readonly canRedo: Readonly<Ref<boolean>>;
  readonly locked: Readonly<Ref<boolean>>;
  readonly reviewing: boolean;
}

export function createAnnotationStore(
  topic: TopicModel,
  payload: AnnotationPayload,
  options: { reviewing?: boolean } = {},
): AnnotationStore {
  const reviewing = options.reviewing === true;
  const documents = topic.documents.map((d) => [d.id, d.tokens.length] as [number, number]);
  const settings = projectSettings(topic.project);
  const build = (p: AnnotationPayload) =>
    reactive(AnnotationState.fromPayload(p, documents, settings));

  const state = shallowRef(build(payload));
  const version = ref(payload.version);
  const canUndo = ref(payload.can_undo);
  const canRedo = ref(payload.can_redo);
  const submitted = ref(READ_ONLY_STATUSES.has(payload.status));
  const locked = computed(() => reviewing || submitted.value);
  const cursor = payload.cursor;

  return {
    state,
    version,
    canUndo,
    canRedo,
    locked,
    reviewing,
    setSubmitted(value: boolean): void {
      submitted.value = value;
    },
    initialCursor: cursor,
    apply(applied: Applied): void {
      applyEffects(state.value, applied.effects);
      version.value = applied.version;
      // A new edit clears the redo stack; undo makes redo possible. Whether more can be undone
      // after an undo (or redone after a redo) only the server knows: keep the button on until
      // it answers nothing_to_undo / nothing_to_redo.
      if (applied.kind === "do") {
        canUndo.value = true;
        canRedo.value = false;
      } else if (applied.kind === "undo") {
        canRedo.value = true;
      } else if (applied.kind === "redo") {
        canUndo.value = true;
      }
    },
    replace(next: AnnotationPayload): void {
      state.value = build(next);
      version.value = next.version;
      canUndo.value = next.can_undo;
      canRedo.value = next.can_redo;
      submitted.value = READ_ONLY_STATUSES.has(next.status);
    },
  };
}
