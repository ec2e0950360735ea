// The suggestions store: model suggestions in the workspace, put together from their parts:
// the runs and the fetched suggestions (../suggestionRuns.ts), which are open against my
// clusters (../openSuggestions.ts), which one the keys act on (../suggestionFocus.ts) and
// deciding on them (../suggestionDecisions.ts). The pure model is ../suggestionModel.ts.

import { type ComputedRef, type Ref, type ShallowRef, watch } from "vue";
import type { Api } from "../../api/endpoints";
import type {
  Decision,
  Id,
  LinkItem,
  LinkType,
  MentionSuggestionItem,
  RunPayload,
  SuggestionKind,
  SuggestionsPayload,
} from "../../api/types";
import type { Commands } from "../commands";
import type { Editing } from "../editing";
import { createOpenSuggestions, type SuggestedEdge } from "../openSuggestions";
import { createSuggestionDecisions } from "../suggestionDecisions";
import { createSuggestionFocus, type Focus } from "../suggestionFocus";
import type { BulkCount, MappingSource, OpenMembership, SuggestionIndex } from "../suggestionModel";
import type { SuggestionGroup } from "../suggestionGroups";
import { createSuggestionRuns } from "../suggestionRuns";
import { createShownRecorder, focusedSuggestion } from "../suggestionShown";
import type { TopicModel } from "../topicModel";
import type { AnnotationStore } from "./annotation";
import type { NavigationStore } from "./navigation";
import type { Notices } from "./notices";

export type { SuggestedEdge } from "../openSuggestions";
export type { Focus } from "../suggestionFocus";

export interface SuggestionDeps {
  api: Api;
  annotationId: Id;
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  editing: Editing;
  notices: Notices;
  commands: Commands;
}

export interface SuggestionsStore {
  /** The suggestions of the latest finished run, as fetched. */
  readonly payload: ShallowRef<SuggestionsPayload | null>;
  readonly index: ComputedRef<SuggestionIndex>;
  /** Maps a suggestion onto my clusters, mentions and decisions now. */
  readonly source: MappingSource;
  /** The topic's newest run, whatever its state (what the progress bar shows). */
  readonly run: ShallowRef<RunPayload | null>;
  /** Live model workers, when asked. */
  readonly workers: ShallowRef<string[] | null>;
  readonly requesting: Ref<boolean>;
  readonly loaded: Ref<boolean>;
  /** Mentions drawn as the focused suggestion's other side. */
  readonly peers: ReadonlySet<Id>;
  readonly currentMembership: ComputedRef<OpenMembership | null>;
  readonly currentLinks: ComputedRef<LinkItem[]>;
  /** The suggestion the keys (Y, X) act on. */
  readonly focus: ComputedRef<Focus | null>;
  /** Suggested edges to draw in the tree, by parent. */
  readonly treeEdges: ComputedRef<Map<Id, SuggestedEdge[]>>;
  /** Suggested links to draw as dashed arcs. */
  readonly openLinks: ComputedRef<LinkItem[]>;
  /** Proposed new mentions to draw dashed in the text. */
  readonly openMentions: ComputedRef<MentionSuggestionItem[]>;
  /** How many are open, by kind (recounted a moment after changes settle). */
  readonly counts: ShallowRef<BulkCount>;
  start(): Promise<void>;
  /** Fetch the suggestions again now. */
  refresh(): void;
  /** Ask the model for a run on this topic (Shift+S). */
  requestRun(): Promise<void>;
  accept(focus: Focus): void;
  /** Accept a link suggestion as the type chosen (question mode's 1-5). */
  acceptLinkAs(item: LinkItem, type: LinkType): void;
  reject(focus: Focus): void;
  acceptFocused(): void;
  rejectFocused(): void;
  chooseLink(item: LinkItem): void;
  /** Hand Y / X to a proposed mention (a click on it in the text). */
  chooseMention(item: MentionSuggestionItem): void;
  /** G: go to the next open suggestion. */
  next(): void;
  acceptAbove(threshold: number, kinds: SuggestionKind[]): void;
  /** Accept or reject every open suggestion of one type (Shift+X), as one step. */
  decideGroup(group: SuggestionGroup, decision: Decision): void;
  isPeer: (mention: Id) => boolean;
  dispose(): void;
}

export function createSuggestionsStore(deps: SuggestionDeps): SuggestionsStore {
  const { api, annotationId, topic, store, nav, editing, notices, commands } = deps;
  const runs = createSuggestionRuns({ api, annotationId, topic, store, editing, notices });
  const open = createOpenSuggestions({ payload: runs.payload, topic, store, nav });
  const { noSuggestionsText, refresh } = runs;
  const focus = createSuggestionFocus({ open, topic, store, nav, notices, noSuggestionsText });
  // The first display of each suggestion, for its acceptance latency (../suggestionShown.ts).
  const shown = createShownRecorder((items) => api.suggestionsShown(annotationId, items));
  const stopShown = watch(
    () => focusedSuggestion(focus.focus.value),
    (suggestion) => suggestion !== null && shown.shown(suggestion),
    { immediate: true },
  );
  const decisions = createSuggestionDecisions({
    topic,
    store,
    nav,
    editing,
    notices,
    commands,
    focus: focus.focus,
    chooseNextLink: focus.chooseNextLink,
    chooseNextMention: focus.chooseNextMention,
    counts: open.counts,
    noSuggestionsText,
    refresh,
  });

  return {
    payload: runs.payload,
    index: open.index,
    run: runs.run,
    workers: runs.workers,
    requesting: runs.requesting,
    loaded: runs.loaded,
    peers: focus.peers,
    currentMembership: open.currentMembership,
    currentLinks: open.currentLinks,
    focus: focus.focus,
    treeEdges: open.treeEdges,
    openLinks: open.openLinks,
    openMentions: open.openMentions,
    counts: open.counts,
    source: open.source,
    start: runs.start,
    refresh,
    requestRun: runs.requestRun,
    accept: decisions.accept,
    acceptLinkAs: decisions.acceptLinkAs,
    reject: decisions.reject,
    acceptFocused: decisions.acceptFocused,
    rejectFocused: decisions.rejectFocused,
    chooseLink: focus.chooseLink,
    chooseMention: focus.chooseMention,
    next: focus.next,
    acceptAbove: decisions.acceptAbove,
    decideGroup: decisions.decideGroup,
    isPeer: focus.isPeer,
    dispose() {
      stopShown();
      shown.dispose();
      runs.dispose();
      open.dispose();
    },
  };
}
