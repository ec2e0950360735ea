// Where the annotator is: the current mention (one at a time, CoRefi style), the selected
// cluster, the order they walk in, and the progress figures.

import { computed, reactive } from "vue";
import type { Id } from "../api/types";
import { nextWhere, readingOrder } from "../domain/order";
import type { Mention } from "../domain/state";
import { keyedChoice } from "./flags";
import type { Store } from "./store";
import type { TopicModel } from "./topicModel";

export function createNavigation(store: Store, topic: TopicModel) {
  const state = () => store.state.value;
  /** Assignments sent but not yet confirmed: mention -> cluster (a negative id: a new one). */
  const pendingAssign = reactive(new Map<Id, Id>()) as Map<Id, Id>;
  /** New clusters sent but not yet confirmed: negative local id -> label. */
  const pendingClusters = reactive(new Map<Id, string>()) as Map<Id, string>;

  const order = computed(() => readingOrder(state().mentions.values(), topic.documentIndex));
  const position = computed(() => new Map(order.value.map((id, i) => [id, i])));
  const mentionsByDocument = computed(() => {
    const byDoc = new Map<Id, Mention[]>();
    for (const m of state().mentions.values()) {
      const list = byDoc.get(m.document);
      if (list) list.push(m);
      else byDoc.set(m.document, [m]);
    }
    return byDoc;
  });
  const activeCount = computed(() => {
    let n = 0;
    for (const m of state().mentions.values()) if (!m.rejected) n++;
    return n;
  });
  const assignedCount = computed(() => state().mentionCluster.size);
  // Bank order: creation order. Clusters still being created come last, as they will once the
  // server gives them their (larger) ids, so ←/→ work the same before and after it answers.
  const clusterOrder = computed(() => [
    ...[...state().clusters.keys()].sort((a, b) => a - b),
    ...[...pendingClusters.keys()].sort((a, b) => b - a),
  ]);
  const clusterPosition = computed(() => new Map(clusterOrder.value.map((id, i) => [id, i])));

  const current = keyedChoice<Id>();
  const selected = keyedChoice<Id>();
  const hovered = keyedChoice<Id>();
  const anaphor = keyedChoice<Id>();

  /** A mention still to do: not in a cluster (hierarchy) or without any link (anaphora only). */
  function isDone(id: Id): boolean {
    const s = state();
    const mention = s.mentions.get(id);
    if (!mention || mention.rejected) return true;
    if (s.settings.hierarchy) return s.mentionCluster.has(id) || pendingAssign.has(id);
    return (s.mentionLinks.get(id)?.size ?? 0) > 0;
  }

  function startMention(cursor: Id | null): Id | null {
    if (cursor !== null && state().mentions.has(cursor)) return cursor;
    return order.value.find((id) => !isDone(id)) ?? order.value[0] ?? null;
  }

  function step(delta: number): void {
    const ids = order.value;
    if (ids.length === 0) return;
    const at = current.value.value === null ? -1 : (position.value.get(current.value.value) ?? -1);
    const next = Math.min(ids.length - 1, Math.max(0, at + delta));
    current.set(ids[next]!);
  }

  /** The next mention still to do after the current one (wrapping); false when none is left. */
  function toNextUndone(): boolean {
    const at = current.value.value === null ? -1 : (position.value.get(current.value.value) ?? -1);
    const next = nextWhere(order.value, at, (id) => !isDone(id));
    if (next === null) return false;
    current.set(next);
    return true;
  }

  function selectRelative(delta: number): void {
    const ids = clusterOrder.value;
    if (ids.length === 0) return;
    const sel = selected.value.value;
    const at = sel === null ? -1 : (clusterPosition.value.get(sel) ?? -1);
    const next = at < 0 ? (delta > 0 ? 0 : ids.length - 1) : (at + delta + ids.length) % ids.length;
    selected.set(ids[next]!);
  }

  return {
    order,
    position,
    mentionsByDocument,
    activeCount,
    assignedCount,
    clusterOrder,
    clusterPosition,
    current,
    selected,
    hovered,
    anaphor,
    pendingAssign,
    pendingClusters,
    isDone,
    startMention,
    step,
    toNextUndone,
    selectRelative,
  };
}

export type Navigation = ReturnType<typeof createNavigation>;
