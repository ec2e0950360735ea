// The navigation store: where the annotator is. The current mention (one at a time, CoRefi
// style), the selected cluster, the hovered mention and the pending anaphor; the order they
// walk in; the progress figures; and the assignments sent but not yet confirmed, which count
// as done for the walk.

import { computed, type ComputedRef, reactive } from "vue";
import type { Id } from "../../api/types";
import { nextWhere, readingOrder } from "../../domain/order";
import type { Mention } from "../../domain/state";
import { type KeyedChoice, keyedChoice } from "../flags";
import type { TopicModel } from "../topicModel";
import type { AnnotationStore } from "./annotation";

export interface NavigationStore {
  /** Mention ids in reading order, and each one's place in it. */
  readonly order: ComputedRef<Id[]>;
  readonly position: ComputedRef<Map<Id, number>>;
  readonly mentionsByDocument: ComputedRef<Map<Id, Mention[]>>;
  /** Mentions not rejected, and those of them in a cluster (the header's progress). */
  readonly activeCount: ComputedRef<number>;
  readonly assignedCount: ComputedRef<number>;
  /** Cluster ids in bank order (←/→), and each one's place in it. */
  readonly clusterOrder: ComputedRef<Id[]>;
  readonly clusterPosition: ComputedRef<Map<Id, number>>;
  readonly current: KeyedChoice<Id>;
  readonly selected: KeyedChoice<Id>;
  readonly hovered: KeyedChoice<Id>;
  readonly anaphor: KeyedChoice<Id>;
  /** The current anaphora link (its linkKey): [ and ] move it through the current mention's
   * links, 1-5 retype it, Shift+Delete removes it, O goes to its other end. */
  readonly link: KeyedChoice<string>;
  /** Assignments sent but not yet confirmed: mention -> cluster (a negative id: a new one). */
  readonly pendingAssign: Map<Id, Id>;
  /** New clusters sent but not yet confirmed: negative local id -> label. */
  readonly pendingClusters: Map<Id, string>;
  /** A mention still to do: not in a cluster (hierarchy) or without any link (anaphora only). */
  isDone(id: Id): boolean;
  /** The saved cursor if it still exists, else the first mention still to do. */
  startMention(cursor: Id | null): Id | null;
  /** Move the current mention by `delta` in reading order (stopping at the ends). */
  step(delta: number): void;
  /** The next mention still to do after the current one (wrapping); false when none is left. */
  toNextUndone(): boolean;
  /** Select the cluster `delta` places away in bank order (wrapping). */
  selectRelative(delta: number): void;
}

export function createNavigationStore(store: AnnotationStore, topic: TopicModel): NavigationStore {
  const state = () => store.state.value;
  const pendingAssign = reactive(new Map<Id, Id>()) as Map<Id, Id>;
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
  const link = keyedChoice<string>();

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
    const at = current.value === null ? -1 : (position.value.get(current.value) ?? -1);
    const next = Math.min(ids.length - 1, Math.max(0, at + delta));
    current.set(ids[next]!);
  }

  function toNextUndone(): boolean {
    const at = current.value === null ? -1 : (position.value.get(current.value) ?? -1);
    const next = nextWhere(order.value, at, (id) => !isDone(id));
    if (next === null) return false;
    current.set(next);
    return true;
  }

  function selectRelative(delta: number): void {
    const ids = clusterOrder.value;
    if (ids.length === 0) return;
    const sel = selected.value;
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
    link,
    pendingAssign,
    pendingClusters,
    isDone,
    startMention,
    step,
    toNextUndone,
    selectRelative,
  };
}
