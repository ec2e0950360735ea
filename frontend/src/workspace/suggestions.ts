// Model suggestions in the workspace: asking for a run, its progress (the websocket's "run"
// messages), the suggestions of the latest finished run mapped onto my clusters, and deciding
// on them. Every decision is an ordinary operation through the queue (accept_suggestion /
// reject_suggestion, or one accept-above batch), so undo, versions and the log work as for
// any edit.
//
// Fetching: on start, after a run of the topic succeeds, after the live connection comes back,
// and after applied changes (mine or another tab's), throttled: never two at once, at most one
// per gap (longer when fetches are slow), always one after the last change, and only while the
// queue is idle. Between fetches memberships are re-mapped locally (suggestionModel.ts).

import { computed, reactive, ref, shallowRef, watch } from "vue";
import type { Api } from "../api/endpoints";
import { ApiError } from "../api/http";
import type {
  EdgeItem,
  Id,
  LinkItem,
  Operation,
  RunPayload,
  SocketMessage,
  SuggestionKind,
  SuggestionsPayload,
} from "../api/types";
import { edgeKey, linkKey } from "../domain/state";
import type { Commands } from "./commands";
import type { Editing } from "./editing";
import type { Navigation } from "./navigation";
import type { Notices } from "./notices";
import type { Store } from "./store";
import {
  type BulkCount,
  countAbove,
  edgeEnds,
  edgeIsOpen,
  formatScore,
  indexSuggestions,
  isActive,
  isNewerRun,
  linkEnds,
  linkIsOpen,
  type MappingSource,
  membershipOperation,
  nextEntry,
  type OpenMembership,
  openMembership,
  runState,
  sortWalk,
  Throttle,
  type WalkEntry,
} from "./suggestionModel";
import type { TopicModel } from "./topicModel";

export interface SuggestionDeps {
  api: Api;
  annotationId: Id;
  topic: TopicModel;
  store: Store;
  nav: Navigation;
  editing: Editing;
  notices: Notices;
  commands: Commands;
}

/** A suggestion the keys act on. */
export type Focus =
  | { kind: "membership"; open: OpenMembership }
  | { kind: "link"; item: LinkItem }
  | { kind: "edge"; item: EdgeItem };

export interface SuggestedEdge {
  item: EdgeItem;
  parent: Id;
  child: Id;
}

const EMPTY: readonly Id[] = Object.freeze([]);
const ALL_KINDS: ReadonlySet<SuggestionKind> = new Set(["membership", "edge", "link"]);
const MIN_GAP_MS = 1500;

export function createSuggestions(deps: SuggestionDeps) {
  const { api, annotationId, topic, store, nav, editing, notices, commands } = deps;
  const project = topic.project;
  const state = () => store.state.value;

  const payload = shallowRef<SuggestionsPayload | null>(null);
  const index = computed(() => indexSuggestions(payload.value));
  /** The topic's newest run, whatever its state (what the progress bar shows). */
  const run = shallowRef<RunPayload | null>(null);
  /** Live model workers, when asked (after a request, or a queued run found on load). */
  const workers = shallowRef<string[] | null>(null);
  const requesting = ref(false);
  const loaded = ref(false);
  /** The link suggestion chosen with G or a click (else the current mention's first). */
  const chosen = shallowRef<{ suggestion: Id; mention: Id } | null>(null);
  /** Mentions drawn as the focused suggestion's other side (fellow members, the antecedent). */
  const peers = reactive(new Set<Id>()) as Set<Id>;

  const source: MappingSource = {
    clusterOf: (m) => nav.pendingAssign.get(m) ?? state().mentionCluster.get(m),
    mentionState: (m) => state().mentions.get(m),
    decision: (s) => state().decisions.get(s),
    hasCluster: (c) => state().clusters.has(c),
    hasEdge: (p, c) => state().edges.has(edgeKey(p, c)),
    hasLink: (type, anaphor, antecedent) => state().links.has(linkKey({ type, anaphor, antecedent })),
  };

  // ---- what is open now ----------------------------------------------------------------
  const currentMembership = computed<OpenMembership | null>(() => {
    const mention = nav.current.value.value;
    if (mention === null || !project.hierarchy) return null;
    const item = index.value.byMention.get(mention);
    return item ? openMembership(item, source) : null;
  });

  /** Undecided or rejected link suggestions of the current mention, as anaphor first. */
  const currentLinks = computed<LinkItem[]>(() => {
    const mention = nav.current.value.value;
    if (mention === null || !project.anaphora) return [];
    const list = (index.value.linksByMention.get(mention) ?? []).filter((item) => linkIsOpen(item, source));
    const asAnaphor = (item: LinkItem) => (linkEnds(item)!.anaphor === mention ? 0 : 1);
    return list.sort((a, b) => asAnaphor(a) - asAnaphor(b) || b.score - a.score);
  });

  const focus = computed<Focus | null>(() => {
    const c = chosen.value;
    if (c !== null && c.mention === nav.current.value.value) {
      const item = currentLinks.value.find((l) => l.suggestion === c.suggestion);
      if (item) return { kind: "link", item };
    }
    const membership = currentMembership.value;
    if (membership) return { kind: "membership", open: membership };
    const first = currentLinks.value.find((l) => state().decisions.get(l.suggestion) !== "rejected") ?? currentLinks.value[0];
    return first ? { kind: "link", item: first } : null;
  });

  /** Edge suggestions to draw in the tree: undecided, allowed now, between existing clusters. */
  const treeEdges = computed(() => {
    const byParent = new Map<Id, SuggestedEdge[]>();
    for (const item of index.value.edges) {
      if (!item.valid || state().decisions.has(item.suggestion) || !edgeIsOpen(item, source)) continue;
      const ends = edgeEnds(item)!;
      const list = byParent.get(ends.parent) ?? [];
      list.push({ item, ...ends });
      byParent.set(ends.parent, list);
    }
    for (const list of byParent.values()) list.sort((a, b) => b.item.score - a.item.score);
    return byParent;
  });

  /** Link suggestions to draw as dashed arcs: undecided, allowed now. */
  const openLinks = computed(() =>
    index.value.links.filter((item) => item.valid && !state().decisions.has(item.suggestion) && linkIsOpen(item, source)),
  );

  // How many are open, for the panel: counted a moment after changes settle rather than in a
  // computed, which would re-map every membership on each key press (SPACE, Y) of a big topic.
  const counts = shallowRef<BulkCount>(countAbove(index.value, source, 0, ALL_KINDS));
  let countTimer: ReturnType<typeof setTimeout> | null = null;
  const recount = () => {
    countTimer = null;
    counts.value = countAbove(index.value, source, 0, ALL_KINDS);
  };
  watch([payload, store.state, store.version], () => {
    if (countTimer === null) countTimer = setTimeout(recount, 150);
  });

  // The other side of the focused suggestion, drawn in the text.
  const peerIds = computed<readonly Id[]>(() => {
    const f = focus.value;
    if (!f) return EMPTY;
    if (f.kind === "membership") return f.open.fellows;
    if (f.kind === "link") {
      const ends = linkEnds(f.item)!;
      return [ends.anaphor === nav.current.value.value ? ends.antecedent : ends.anaphor];
    }
    return EMPTY;
  });
  watch(peerIds, (next) => {
    const keep = new Set(next);
    for (const id of [...peers]) if (!keep.has(id)) peers.delete(id);
    for (const id of next) peers.add(id);
  });

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
    const changed = before === null || before.run !== message.run || before.status !== message.status;
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
      notices.alert("Could not ask for suggestions.", [error instanceof ApiError || error instanceof Error ? error.message : String(error)]);
    } finally {
      requesting.value = false;
    }
  }

  // ---- deciding ------------------------------------------------------------------------
  function describe(focus: Focus): string {
    if (focus.kind === "membership") {
      const o = focus.open;
      const where = o.target === null ? "a new cluster" : commands.clusterLabel(o.target);
      return `the suggestion to put ${commands.mentionLabel(o.mention)} in ${where}`;
    }
    if (focus.kind === "link") {
      const e = linkEnds(focus.item)!;
      return `the suggested ${e.type} link ${commands.mentionLabel(e.anaphor)} → ${commands.mentionLabel(e.antecedent)}`;
    }
    const e = edgeEnds(focus.item)!;
    return `the suggestion to put ${commands.clusterLabel(e.child)} under ${commands.clusterLabel(e.parent)}`;
  }

  function acceptMembership(open: OpenMembership): void {
    const mention = open.mention;
    const previousSelection = nav.selected.value.value;
    let target = open.target;
    let creates: { local: Id; kind: "cluster" } | undefined;
    if (target === null) {
      target = editing.queue.newLocalId();
      creates = { local: target, kind: "cluster" };
      const m = state().mentions.get(mention)!;
      nav.pendingClusters.set(target, topic.text(m.document, m.spans));
    }
    const local = target;
    nav.pendingAssign.set(mention, local);
    nav.selected.set(local);
    const operation: Operation = { op: "accept_suggestion", suggestion: open.item.suggestion, operation: membershipOperation(open) };
    let advancedTo: Id | null = mention;
    editing.op(operation, `accept ${describe({ kind: "membership", open })}`, {
      creates,
      done(applied) {
        if (nav.pendingAssign.get(mention) === local) nav.pendingAssign.delete(mention);
        if (creates) nav.pendingClusters.delete(local);
        const created = applied.created["cluster"];
        if (creates && created !== undefined && nav.selected.value.value === local) nav.selected.set(created);
      },
      failed() {
        if (nav.pendingAssign.get(mention) === local) nav.pendingAssign.delete(mention);
        if (creates) nav.pendingClusters.delete(local);
        if (nav.selected.value.value === local) nav.selected.set(previousSelection);
        if (nav.current.value.value === advancedTo) nav.current.set(mention);
      },
    });
    if (store.locked.value) return;
    if (!nav.toNextUndone()) nav.step(1);
    advancedTo = nav.current.value.value;
  }

  function accept(f: Focus): void {
    if (f.kind === "membership") return acceptMembership(f.open);
    const item = f.item;
    if (!item.valid) {
      notices.status(`Not accepted: ${item.reason}`);
      return;
    }
    editing.op({ op: "accept_suggestion", suggestion: item.suggestion, operation: item.operation }, `accept ${describe(f)}`);
    if (f.kind === "link") chooseNextLink(item.suggestion);
  }

  function reject(f: Focus): void {
    const id = f.kind === "membership" ? f.open.item.suggestion : f.item.suggestion;
    if (state().decisions.get(id) === "rejected") {
      notices.status("Already rejected (Y accepts it after all).");
      return;
    }
    editing.op({ op: "reject_suggestion", suggestion: id }, `reject ${describe(f)}`);
    if (f.kind === "link") chooseNextLink(id);
  }

  /** After deciding on a link, the next suggested link of the same mention gets the keys. */
  function chooseNextLink(decided: Id): void {
    const mention = nav.current.value.value;
    const next = currentLinks.value.find((l) => l.suggestion !== decided && !state().decisions.has(l.suggestion));
    chosen.value = next && mention !== null ? { suggestion: next.suggestion, mention } : null;
  }

  function nothingHere(): void {
    const open = counts.value.total;
    notices.status(open ? "No suggestion for this mention: G goes to the next one." : noSuggestionsText());
  }

  function noSuggestionsText(): string {
    if (isActive(run.value)) return runState(run.value, workers.value).text;
    return payload.value?.run ? "Every suggestion is decided." : "No suggestions yet: press Shift+S to ask the model.";
  }

  function acceptFocused(): void {
    const f = focus.value;
    if (f) accept(f);
    else nothingHere();
  }

  function rejectFocused(): void {
    const f = focus.value;
    if (f) reject(f);
    else nothingHere();
  }

  function chooseLink(item: LinkItem): void {
    const ends = linkEnds(item)!;
    const mention = nav.current.value.value;
    const at = mention === ends.antecedent ? ends.antecedent : ends.anaphor;
    if (mention !== at) nav.current.set(at);
    chosen.value = { suggestion: item.suggestion, mention: at };
  }

  /** G: the next open suggestion in reading order (memberships, then links at their anaphor). */
  function next(): void {
    const position = nav.position.value;
    const entries: WalkEntry[] = [];
    if (project.hierarchy) {
      for (const item of index.value.byMention.values()) {
        if (state().decisions.has(item.suggestion) || !openMembership(item, source)) continue;
        const p = position.get(item.mention);
        if (p !== undefined) entries.push({ suggestion: item.suggestion, kind: "membership", mention: item.mention, position: p, rank: 0 });
      }
    }
    for (const item of openLinks.value) {
      const ends = linkEnds(item)!;
      const p = position.get(ends.anaphor);
      if (p !== undefined) entries.push({ suggestion: item.suggestion, kind: "link", mention: ends.anaphor, position: p, rank: 1 + (position.get(ends.antecedent) ?? 0) / 1e6 });
    }
    sortWalk(entries);
    const cur = nav.current.value.value;
    const f = focus.value;
    const focused = f === null ? null : f.kind === "membership" ? f.open.item.suggestion : f.item.suggestion;
    const onCurrent = f !== null && entries.some((e) => e.suggestion === focused && e.mention === cur);
    const entry = nextEntry(entries, cur === null ? -1 : (position.get(cur) ?? -1), onCurrent ? focused : null);
    if (!entry) {
      notices.status(noSuggestionsText());
      return;
    }
    nav.current.set(entry.mention);
    chosen.value = entry.kind === "link" ? { suggestion: entry.suggestion, mention: entry.mention } : null;
  }

  function acceptAbove(threshold: number, kinds: SuggestionKind[]): void {
    const what = `accept the suggestions scoring ${formatScore(threshold)} or more`;
    editing.acceptAbove(threshold, kinds, what, {
      batchDone(batch) {
        const skipped = batch.skipped.map((s) => `#${s.suggestion}: ${s.reason}`);
        const done = batch.applied.length;
        const text = done
          ? `Accepted ${done} suggestion${done === 1 ? "" : "s"} (each one undo step).`
          : "No suggestion at or above that score was left to accept.";
        if (skipped.length) notices.alert(`${text} ${skipped.length} could not be applied:`, skipped.slice(0, 8));
        else notices.status(text);
        refetch.request(true);
      },
    });
  }

  // Choosing a link belongs to the mention it was chosen at.
  watch(nav.current.value, (mention) => {
    if (chosen.value !== null && chosen.value.mention !== mention) chosen.value = null;
  });

  return {
    payload,
    index,
    run,
    workers,
    requesting,
    loaded,
    peers,
    currentMembership,
    currentLinks,
    focus,
    treeEdges,
    openLinks,
    counts,
    source,
    start,
    refresh: () => refetch.request(true),
    requestRun,
    accept,
    reject,
    acceptFocused,
    rejectFocused,
    chooseLink,
    next,
    acceptAbove,
    isPeer: (mention: Id) => peers.has(mention),
    dispose() {
      disposed = true;
      refetch.cancel();
      if (countTimer !== null) clearTimeout(countTimer);
    },
  };
}

export type Suggestions = ReturnType<typeof createSuggestions>;
