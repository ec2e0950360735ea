// Model suggestions in the workspace, put together from their parts: the runs and the fetched
// suggestions (suggestionRuns.ts), which are open against my clusters (openSuggestions.ts),
// which one the keys act on (suggestionFocus.ts) and deciding on them
// (suggestionDecisions.ts). The pure model is suggestionModel.ts.

import type { Api } from "../api/endpoints";
import type { Id } from "../api/types";
import type { Commands } from "./commands";
import type { Editing } from "./editing";
import type { Navigation } from "./navigation";
import type { Notices } from "./notices";
import { createOpenSuggestions } from "./openSuggestions";
import type { Store } from "./store";
import { createSuggestionDecisions } from "./suggestionDecisions";
import { createSuggestionFocus } from "./suggestionFocus";
import { createSuggestionRuns } from "./suggestionRuns";
import type { TopicModel } from "./topicModel";

export type { SuggestedEdge } from "./openSuggestions";
export type { Focus } from "./suggestionFocus";

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

export function createSuggestions(deps: SuggestionDeps) {
  const { api, annotationId, topic, store, nav, editing, notices, commands } = deps;
  const runs = createSuggestionRuns({ api, annotationId, topic, store, editing, notices });
  const open = createOpenSuggestions({ payload: runs.payload, topic, store, nav });
  const { noSuggestionsText, refresh } = runs;
  const focus = createSuggestionFocus({ open, topic, store, nav, notices, noSuggestionsText });
  const decisions = createSuggestionDecisions({
    topic,
    store,
    nav,
    editing,
    notices,
    commands,
    focus: focus.focus,
    chooseNextLink: focus.chooseNextLink,
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
    counts: open.counts,
    source: open.source,
    start: runs.start,
    refresh,
    requestRun: runs.requestRun,
    accept: decisions.accept,
    reject: decisions.reject,
    acceptFocused: decisions.acceptFocused,
    rejectFocused: decisions.rejectFocused,
    chooseLink: focus.chooseLink,
    next: focus.next,
    acceptAbove: decisions.acceptAbove,
    isPeer: focus.isPeer,
    dispose() {
      runs.dispose();
      open.dispose();
    },
  };
}

export type Suggestions = ReturnType<typeof createSuggestions>;
