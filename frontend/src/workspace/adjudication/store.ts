// The adjudication store of a workspace whose annotation is an adjudication: the annotators'
// versions (read once), the model rebuilt after every change of the adjudicated annotation,
// the disagreement queue with its current item, and adopting annotator k's decision (one
// ordinary operation through the workspace's queue, so it is logged and undoable).

import { computed, inject, type InjectionKey, provide, reactive, ref, shallowRef, toRaw, watch } from "vue";
import { answer, client } from "../../api/http";
import { type Id, withLinkTriples } from "../../api/types";
import type { Commands } from "../commands";
import type { Editing } from "../editing";
import type { AnnotationStore } from "../stores/annotation";
import type { NavigationStore } from "../stores/navigation";
import type { Notices } from "../stores/notices";
import type { TopicModel } from "../topicModel";
import { adoption } from "./adopt";
import { type AnnotatorVersion, buildAdjudication, decisionCode, type Item } from "./model";
import { remaining, settleChanged, stepItem } from "./queue";

export interface AdjudicationDeps {
  annotationId: Id;
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  editing: Editing;
  notices: Notices;
  commands: Commands;
  fetchVersions?: (annotation: Id) => Promise<AnnotatorVersion[]>;
  /** The versions, already on their way (the loader asked for them with the annotation). */
  prefetched?: Promise<AnnotatorVersion[]>;
}

export const fetchVersions = async (annotation: Id): Promise<AnnotatorVersion[]> =>
  (await answer(client.GET("/api/annotations/{id}/versions/", { params: { path: { id: annotation } } }))).map(
    withLinkTriples,
  );

const storageKey = (annotation: Id) => `corefapp.adjudication.${annotation}.settled`;

export function createAdjudicationStore(deps: AdjudicationDeps) {
  const { annotationId, topic, store, nav, editing, notices, commands } = deps;
  const versions = shallowRef<AnnotatorVersion[] | null>(null);
  const loadError = ref<string | null>(null);
  const settled = reactive(new Set<string>(readSettled())) as Set<string>;
  const seen = new Map<string, string>();
  const currentKey = ref<string | null>(null);
  /** Where the current item stood in the queue, to go on from there once it leaves it. */
  let currentIndex = -1;

  function readSettled(): string[] {
    try {
      const saved = globalThis.localStorage?.getItem(storageKey(annotationId));
      return saved ? (JSON.parse(saved) as string[]) : [];
    } catch {
      return [];
    }
  }
  function saveSettled(): void {
    try {
      globalThis.localStorage?.setItem(storageKey(annotationId), JSON.stringify([...settled]));
    } catch {
      // a full or disabled storage only loses the settled marks on reload
    }
  }

  // Rebuilt when the annotation changes (its version, or a whole new state), read raw: the
  // build reads every mention and going through Vue's proxies would cost more than it.
  const model = computed(() => {
    const list = versions.value;
    void store.version.value; // a dependency: rebuild after every applied change
    const state = toRaw(store.state.value);
    return list ? buildAdjudication(state, list, topic.documentIndex) : null;
  });
  const items = computed(() => model.value?.items ?? []);
  const open = computed(() => remaining(items.value, settled));
  const remainingCount = computed(() => open.value.length);
  const currentItem = computed<Item | null>(() => items.value.find((item) => item.key === currentKey.value) ?? null);

  watch(items, (list) => {
    const changed = settleChanged(list, seen, settled);
    for (const key of changed) settled.add(key);
    if (changed.length) saveSettled();
    const at = list.findIndex((item) => item.key === currentKey.value);
    if (at >= 0) currentIndex = at;
  });

  function settle(key: string): void {
    settled.add(key);
    saveSettled();
  }

  /** Make `item` current and show it: its mention, and for an edge its child cluster (a
   * mention's own cluster is not selected, as J does not: the strip shows it already). */
  function show(item: Item): void {
    currentKey.value = item.key;
    currentIndex = items.value.indexOf(item);
    const state = store.state.value;
    if (item.anchor >= 0 && state.mentions.has(item.anchor)) nav.current.set(item.anchor);
    if (item.kind === "edge" && state.clusters.has(item.child)) nav.selected.set(item.child);
  }

  function step(direction: 1 | -1): void {
    if (!model.value) {
      notices.status(loadError.value ?? "The annotators' versions are still loading.");
      return;
    }
    const item = stepItem(items.value, settled, currentKey.value, direction, currentIndex);
    if (item === null) {
      notices.status(items.value.length ? "Every disagreement is settled." : "The annotators agree with this annotation everywhere.");
      return;
    }
    show(item);
  }

  // Going to a mention (J/K, a click) makes its disagreement the current item.
  watch(nav.current.value, (mention) => {
    if (mention === null || currentItem.value?.anchor === mention) return;
    const item = items.value.find((i) => i.kind === "mention" && i.mention === mention);
    if (item) {
      currentKey.value = item.key;
      currentIndex = items.value.indexOf(item);
    }
  });

  const names = {
    mention: (key: number) => {
      if (key >= 0) return commands.mentionLabel(key);
      const place = model.value?.places.get(key);
      return place ? `"${topic.text(place.document, place.spans)}"` : "a mention";
    },
    cluster: (id: Id) => commands.clusterLabel(id),
  };

  /** Whether annotator `index` now decides the item `key` as the adjudicated annotation does
   * (an item gone from the queue: everyone does). */
  function agreesNow(key: string, index: number): boolean {
    const item = items.value.find((i) => i.key === key);
    if (!item) return true;
    if (item.kind === "mention") return decisionCode(item.decisions[index]!) === decisionCode(item.current);
    return item.has[index] === item.current;
  }

  /** Keys 1-9: adopt annotator k's (1-based) decision for the current item. */
  function adopt(k: number): void {
    const m = model.value;
    if (!m) {
      notices.status(loadError.value ?? "The annotators' versions are still loading.");
      return;
    }
    const annotator = m.annotators[k - 1];
    if (!annotator) {
      notices.status(`There is no annotator ${k}: ${m.annotators.length === 1 ? "1 version" : `${m.annotators.length} versions`} to adopt from.`);
      return;
    }
    const item = currentItem.value;
    if (!item) {
      notices.status("Go to a disagreement first (N), then press 1-9 to adopt an annotator's decision.");
      return;
    }
    const result = adoption(item, annotator, toRaw(store.state.value), m.places, names);
    settle(item.key);
    if (result.kind === "nothing") {
      notices.status(result.why);
      return;
    }
    const key = item.key;
    editing.op(result.operation, result.what, {
      done(applied) {
        const created = applied.created["mention"];
        if (created !== undefined) {
          notices.status(`Adopted ${annotator.annotator}'s decision: ${result.what}. N: next disagreement.`);
          nav.current.set(created);
          currentKey.value = `m:${created}`;
          return;
        }
        // Say "as they have it" only when it is so now: the alignment is rebuilt after the
        // change, and an annotator's cluster may line up with another of ours.
        if (agreesNow(key, annotator.index)) {
          notices.status(`Adopted ${annotator.annotator}'s decision: ${result.what}. N: next disagreement.`);
        } else {
          notices.status(
            `Done: ${result.action}. ${annotator.annotator}'s clusters now line up with yours differently, so this still differs from ${annotator.annotator}: see the strip.`,
          );
        }
      },
      failed() {
        settled.delete(key);
        saveSettled();
      },
    });
  }

  let loading: Promise<void> | null = null;
  function load(): Promise<void> {
    loading ??= fetchOnce();
    return loading;
  }
  async function fetchOnce(): Promise<void> {
    try {
      versions.value = await (deps.prefetched ?? (deps.fetchVersions ?? fetchVersions)(annotationId));
    } catch (error) {
      loadError.value = `Could not load the annotators' versions: ${error instanceof Error ? error.message : String(error)}`;
      notices.alert(loadError.value);
    }
  }

  return {
    versions,
    loadError,
    model,
    items,
    remainingCount,
    currentItem,
    settled,
    load,
    step,
    adopt,
    names,
  };
}

export type AdjudicationStore = ReturnType<typeof createAdjudicationStore>;

const ADJUDICATION: InjectionKey<AdjudicationStore | null> = Symbol("adjudication");

export function provideAdjudication(store: AdjudicationStore | null): void {
  provide(ADJUDICATION, store);
}

/** The adjudication store, or null outside an adjudication workspace. */
export function useAdjudication(): AdjudicationStore | null {
  return inject(ADJUDICATION, null);
}
