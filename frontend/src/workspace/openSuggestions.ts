// The fetched suggestions mapped onto my clusters: which are open now for the current mention,
// in the hierarchy tree and among the links, and how many are open in all.

import { computed, type ShallowRef, shallowRef, watch } from "vue";
import type { EdgeItem, Id, LinkItem, SuggestionKind, SuggestionsPayload } from "../api/types";
import { edgeKey, linkKey } from "../domain/state";
import type { AnnotationStore } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import {
  type BulkCount,
  countAbove,
  edgeEnds,
  edgeIsOpen,
  indexSuggestions,
  linkEnds,
  linkIsOpen,
  type MappingSource,
  mentionIsOpen,
  type OpenMembership,
  openMembership,
} from "./suggestionModel";
import type { TopicModel } from "./topicModel";

export interface OpenSuggestionDeps {
  payload: ShallowRef<SuggestionsPayload | null>;
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
}

export interface SuggestedEdge {
  item: EdgeItem;
  parent: Id;
  child: Id;
}

const ALL_KINDS: ReadonlySet<SuggestionKind> = new Set(["membership", "edge", "link", "mention"]);

export function createOpenSuggestions({ payload, topic, store, nav }: OpenSuggestionDeps) {
  const project = topic.project;
  const state = () => store.state.value;
  const index = computed(() => indexSuggestions(payload.value));

  const source: MappingSource = {
    clusterOf: (m) => nav.pendingAssign.get(m) ?? state().mentionCluster.get(m),
    mentionState: (m) => state().mentions.get(m),
    decision: (s) => state().decisions.get(s),
    hasCluster: (c) => state().clusters.has(c),
    hasEdge: (p, c) => state().edges.has(edgeKey(p, c)),
    hasLink: (type, anaphor, antecedent) =>
      state().links.has(linkKey({ type, anaphor, antecedent })),
    mentionsOf: (document) => nav.mentionsByDocument.value.get(document),
  };

  const currentMembership = computed<OpenMembership | null>(() => {
    const mention = nav.current.value;
    if (mention === null || !project.hierarchy) return null;
    const item = index.value.byMention.get(mention);
    return item ? openMembership(item, source) : null;
  });

  /** Undecided or rejected link suggestions of the current mention, as anaphor first. */
  const currentLinks = computed<LinkItem[]>(() => {
    const mention = nav.current.value;
    if (mention === null || !project.anaphora) return [];
    const list = (index.value.linksByMention.get(mention) ?? []).filter((item) =>
      linkIsOpen(item, source),
    );
    const asAnaphor = (item: LinkItem) => (linkEnds(item)!.anaphor === mention ? 0 : 1);
    return list.sort((a, b) => asAnaphor(a) - asAnaphor(b) || b.score - a.score);
  });

  /** Edge suggestions to draw in the tree: undecided, allowed now, between existing clusters. */
  const treeEdges = computed(() => {
    const byParent = new Map<Id, SuggestedEdge[]>();
    for (const item of index.value.edges) {
      if (!item.valid || state().decisions.has(item.suggestion) || !edgeIsOpen(item, source))
        continue;
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
    index.value.links.filter(
      (item) => item.valid && !state().decisions.has(item.suggestion) && linkIsOpen(item, source),
    ),
  );

  /** Proposed mentions to draw dashed in the text: undecided, allowed now, not there yet. */
  const openMentions = computed(() =>
    index.value.mentions.filter(
      (item) =>
        item.valid && !state().decisions.has(item.suggestion) && mentionIsOpen(item, source),
    ),
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

  return {
    index,
    source,
    currentMembership,
    currentLinks,
    treeEdges,
    openLinks,
    openMentions,
    counts,
    dispose() {
      if (countTimer !== null) clearTimeout(countTimer);
    },
  };
}

export type OpenSuggestions = ReturnType<typeof createOpenSuggestions>;
