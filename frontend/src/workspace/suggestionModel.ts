// The pure side of model suggestions in the workspace: which suggestions are still open against
// the local state, what accepting a membership applies now, counts for bulk acceptance, the
// order of runs, the words for a run's state, and the throttle for re-fetching.
//
// The server maps every suggestion onto my clusters (modelserve/selectors.py) when it is
// fetched. Between fetches the local state moves on; where the server's mapping is trivial to
// redo here it is redone (a membership: the cluster holding most of the other suggested
// members, ties to the lowest id, else a new cluster), elsewhere an item is only hidden once
// the state shows it done (an edge or link present, a decision made), until the next fetch.

import type {
  Decision,
  EdgeItem,
  Id,
  LinkItem,
  LinkType,
  MembershipItem,
  MentionSuggestionItem,
  Operation,
  RunPayload,
  SuggestionKind,
  SuggestionsPayload,
} from "../api/types";
import type { Mention } from "../domain/state";
import { proposalIsOpen } from "./mentionSuggestions";

/** What the local mapping reads; `clusterOf` includes assignments still being saved. */
export interface MappingSource {
  clusterOf(mention: Id): Id | undefined;
  mentionState(mention: Id): { rejected: boolean } | undefined;
  decision(suggestion: Id): Decision | undefined;
  hasCluster(cluster: Id): boolean;
  hasEdge(parent: Id, child: Id): boolean;
  hasLink(type: LinkType, anaphor: Id, antecedent: Id): boolean;
  /** The mentions of a document (for proposed mentions: is one at their spans already?). */
  mentionsOf(document: Id): readonly Mention[] | undefined;
}

/** The annotator's cluster holding most of `members` (not counting `exclude`); ties: lowest id. */
export function majorityCluster(
  members: readonly Id[],
  exclude: Id | null,
  clusterOf: (m: Id) => Id | undefined,
): Id | null {
  const counts = new Map<Id, number>();
  for (const m of members) {
    if (m === exclude) continue;
    const c = clusterOf(m);
    if (c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: Id | null = null;
  let bestCount = 0;
  for (const [c, n] of counts) {
    if (n > bestCount || (n === bestCount && best !== null && c < best)) {
      best = c;
      bestCount = n;
    }
  }
  return best;
}

export interface OpenMembership {
  item: MembershipItem;
  mention: Id;
  /** The cluster it would join now: an existing (or still saving, negative) one, or null for a new one. */
  target: Id | null;
  /** Where the mention is now. */
  current: Id | undefined;
  /** The other mentions of the suggested cluster. */
  fellows: Id[];
  decision: Decision | null;
}

/** A membership suggestion as it stands against the local state; null when the annotation
 * already agrees with it, it is accepted, or the mention is gone or rejected. */
export function openMembership(item: MembershipItem, source: MappingSource): OpenMembership | null {
  const decision = source.decision(item.suggestion) ?? null;
  if (decision === "accepted") return null;
  const mention = source.mentionState(item.mention);
  if (!mention || mention.rejected) return null;
  const target = majorityCluster(item.suggested_members, item.mention, (m) => source.clusterOf(m));
  const current = source.clusterOf(item.mention);
  if (current !== undefined && (current === target || target === null)) return null;
  return {
    item,
    mention: item.mention,
    target,
    current,
    fellows: item.suggested_members.filter((m) => m !== item.mention),
    decision,
  };
}

/** The assign operation that accepting an open membership applies (a negative target: a
 * cluster still being created, which the operation queue resolves before sending). */
export function membershipOperation(open: OpenMembership): Operation {
  return { op: "assign", mention: open.mention, cluster: open.target };
}

export interface EdgeEnds {
  parent: Id;
  child: Id;
}

export function edgeEnds(item: EdgeItem): EdgeEnds | null {
  const op = item.operation;
  if (op.op === "set_parent" && op.parent !== null) return { parent: op.parent, child: op.child };
  if (op.op === "add_edge") return { parent: op.parent, child: op.child };
  return null;
}

/** An edge suggestion still to decide: its clusters exist and the edge is not there yet. */
export function edgeIsOpen(item: EdgeItem, source: MappingSource): boolean {
  if (source.decision(item.suggestion) === "accepted") return false;
  const ends = edgeEnds(item);
  if (!ends || !source.hasCluster(ends.parent) || !source.hasCluster(ends.child)) return false;
  return !source.hasEdge(ends.parent, ends.child);
}

export interface LinkEnds {
  type: LinkType;
  anaphor: Id;
  antecedent: Id;
}

export function linkEnds(item: LinkItem): LinkEnds | null {
  const op = item.operation;
  return op.op === "add_link"
    ? { type: op.type, anaphor: op.anaphor, antecedent: op.antecedent }
    : null;
}

export function linkIsOpen(item: LinkItem, source: MappingSource): boolean {
  if (source.decision(item.suggestion) === "accepted") return false;
  const ends = linkEnds(item);
  return ends !== null && !source.hasLink(ends.type, ends.anaphor, ends.antecedent);
}

/** The fetched items, indexed for the screen. */
export interface SuggestionIndex {
  /** The best membership suggestion of each mention. */
  byMention: Map<Id, MembershipItem>;
  edges: EdgeItem[];
  links: LinkItem[];
  /** mention -> the link suggestions it is the anaphor or antecedent of */
  linksByMention: Map<Id, LinkItem[]>;
  byId: Map<Id, { kind: SuggestionKind; item: MembershipItem | EdgeItem | MentionSuggestionItem }>;
  /** Proposed new mentions, best score first. */
  mentions: MentionSuggestionItem[];
}

export function indexSuggestions(payload: SuggestionsPayload | null): SuggestionIndex {
  const index: SuggestionIndex = {
    byMention: new Map(),
    edges: [],
    links: [],
    linksByMention: new Map(),
    byId: new Map(),
    mentions: [],
  };
  if (!payload) return index;
  for (const item of payload.memberships) {
    const seen = index.byMention.get(item.mention);
    if (!seen || item.score > seen.score) index.byMention.set(item.mention, item);
    index.byId.set(item.suggestion, { kind: "membership", item });
  }
  for (const item of payload.edges) {
    if (!edgeEnds(item)) continue;
    index.edges.push(item);
    index.byId.set(item.suggestion, { kind: "edge", item });
  }
  for (const item of payload.links) {
    const ends = linkEnds(item);
    if (!ends) continue;
    index.links.push(item);
    index.byId.set(item.suggestion, { kind: "link", item });
    for (const m of new Set([ends.anaphor, ends.antecedent])) {
      const list = index.linksByMention.get(m);
      if (list) list.push(item);
      else index.linksByMention.set(m, [item]);
    }
  }
  for (const item of payload.mentions ?? []) {
    index.mentions.push(item);
    index.byId.set(item.suggestion, { kind: "mention", item });
  }
  return index;
}

/** A proposed mention still to decide on (not accepted, no mention at its spans yet). */
export function mentionIsOpen(item: MentionSuggestionItem, source: MappingSource): boolean {
  return proposalIsOpen(item, source.decision(item.suggestion), source.mentionsOf(item.document));
}

export interface BulkCount {
  membership: number;
  edge: number;
  link: number;
  mention: number;
  /** Of those, how many the rules refused when they were fetched (they will be skipped). */
  refused: number;
  total: number;
}

/** How many undecided open suggestions score at least `threshold`, per kind (what
 * accept-above would take, before the edges that new clusters make mappable). */
export function countAbove(
  index: SuggestionIndex,
  source: MappingSource,
  threshold: number,
  kinds: ReadonlySet<SuggestionKind>,
): BulkCount {
  const count: BulkCount = { membership: 0, edge: 0, link: 0, mention: 0, refused: 0, total: 0 };
  const take = (kind: SuggestionKind, valid: boolean) => {
    count[kind] += 1;
    count.total += 1;
    if (!valid) count.refused += 1;
  };
  const undecided = (id: Id) => source.decision(id) === undefined;
  if (kinds.has("membership")) {
    for (const item of index.byMention.values()) {
      if (item.score >= threshold && undecided(item.suggestion) && openMembership(item, source))
        take("membership", true);
    }
  }
  if (kinds.has("edge")) {
    for (const item of index.edges) {
      if (item.score >= threshold && undecided(item.suggestion) && edgeIsOpen(item, source))
        take("edge", item.valid);
    }
  }
  if (kinds.has("link")) {
    for (const item of index.links) {
      if (item.score >= threshold && undecided(item.suggestion) && linkIsOpen(item, source))
        take("link", item.valid);
    }
  }
  if (kinds.has("mention")) {
    for (const item of index.mentions) {
      if (item.score >= threshold && undecided(item.suggestion) && mentionIsOpen(item, source))
        take("mention", item.valid);
    }
  }
  return count;
}

export interface WalkEntry {
  suggestion: Id;
  kind: SuggestionKind;
  /** The mention it is shown at (a link: its anaphor). */
  mention: Id;
  /** Reading position of that mention. */
  position: number;
  /** Order within one mention. */
  rank: number;
}

export function sortWalk(entries: WalkEntry[]): WalkEntry[] {
  return entries.sort(
    (a, b) => a.position - b.position || a.rank - b.rank || a.suggestion - b.suggestion,
  );
}

/** The entry after the focused one (wrapping); without a focus, the first after `position`. */
export function nextEntry(
  entries: readonly WalkEntry[],
  position: number,
  focused: Id | null,
): WalkEntry | null {
  if (entries.length === 0) return null;
  const at = focused === null ? -1 : entries.findIndex((e) => e.suggestion === focused);
  if (at >= 0) return entries[(at + 1) % entries.length]!;
  return entries.find((e) => e.position > position) ?? entries[0]!;
}

const STATUS_RANK: Record<RunPayload["status"], number> = {
  queued: 0,
  running: 1,
  succeeded: 2,
  failed: 2,
};

/** Whether `next` is news about the runs compared with `known` (a newer run, or a later state
 * of the same run: messages and fetches may arrive out of order). */
export function isNewerRun(next: RunPayload, known: RunPayload | null): boolean {
  if (known === null || next.run > known.run) return true;
  if (next.run < known.run) return false;
  const a = STATUS_RANK[next.status];
  const b = STATUS_RANK[known.status];
  if (a !== b) return a > b;
  return (
    next.attempts > known.attempts ||
    (next.attempts === known.attempts && next.progress >= known.progress)
  );
}

export interface RunState {
  tone: "idle" | "busy" | "waiting" | "ok" | "error";
  text: string;
}

export function percent(fraction: number): number {
  return Math.round(Math.max(0, Math.min(1, fraction)) * 100);
}

/** The run's state in words. `workers`: live model workers (null: not asked). `canAsk`: the
 * screen offers Suggest (not a submitted topic, nor someone's annotation under review). */
export function runState(
  run: RunPayload | null,
  workers: readonly string[] | null,
  canAsk = true,
): RunState {
  if (run === null) {
    return {
      tone: "idle",
      text: canAsk
        ? "No suggestions yet: ask the model with Suggest."
        : "No suggestions were asked for on this topic.",
    };
  }
  switch (run.status) {
    case "queued":
      if (workers !== null && workers.length === 0) {
        return {
          tone: "waiting",
          text: "Queued: no model worker is running, so the run waits. It starts as soon as a worker does.",
        };
      }
      return { tone: "busy", text: "Queued: waiting for a model worker…" };
    case "running":
      return {
        tone: "busy",
        text: `Running on ${run.backend}: ${percent(run.progress)} %${run.message ? ` (${run.message})` : ""}`,
      };
    case "failed":
      return {
        tone: "error",
        text: `The suggestion run failed: ${run.error || run.message || "no reason given"}`,
      };
    case "succeeded":
      return {
        tone: "ok",
        text: `Suggestions from ${run.backend}${run.message ? ` (${run.message})` : ""}.`,
      };
  }
}

export function isActive(run: RunPayload | null): boolean {
  return run !== null && (run.status === "queued" || run.status === "running");
}

export function formatScore(score: number): string {
  return score.toFixed(2);
}

export interface ThrottleOptions {
  /** The least time between the starts of two runs. */
  gapMs: () => number;
  /** Whether to run now; if not, try again after the gap. */
  ready?: () => boolean;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
}

/** Runs `task` when asked, never two at once, at most once per gap, and always once more after
 * the last request (a trailing run): the cheap way to keep derived data in step with edits. */
export class Throttle {
  private pending = false;
  private running = false;
  private timer: unknown = null;
  private lastStart = -Infinity;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly options: ThrottleOptions,
  ) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.now = options.now ?? (() => Date.now());
  }

  /** Ask for a run; `immediate` skips the gap (not the one-at-a-time rule). */
  request(immediate = false): void {
    this.pending = true;
    if (immediate && this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    this.schedule(immediate);
  }

  cancel(): void {
    this.pending = false;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(immediate = false): void {
    if (!this.pending || this.running || this.timer !== null) return;
    const wait = immediate ? 0 : Math.max(0, this.lastStart + this.options.gapMs() - this.now());
    this.timer = this.setTimer(() => this.fire(), wait);
  }

  private fire(): void {
    this.timer = null;
    if (!this.pending || this.running) return;
    if (this.options.ready && !this.options.ready()) {
      this.lastStart = this.now(); // look again one gap later
      this.schedule();
      return;
    }
    this.pending = false;
    this.running = true;
    this.lastStart = this.now();
    void this.task()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
        this.schedule();
      });
  }
}
