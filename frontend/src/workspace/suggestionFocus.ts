// Which suggestion the keys (Y, X) act on: the current mention's membership or a chosen link,
// or a chosen proposed mention (dashed in the text: clicked, or reached with G), the other side
// of it drawn in the text, and G's walk to the next open suggestion.

import { computed, reactive, shallowRef, watch } from "vue";
import type { EdgeItem, Id, LinkItem, MentionSuggestionItem } from "../api/types";
import { anchorMention, type ReadingKeys, walkPosition } from "./mentionSuggestions";
import type { OpenSuggestions } from "./openSuggestions";
import type { AnnotationStore } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import type { Notices } from "./stores/notices";
import {
  linkEnds,
  mentionIsOpen,
  nextEntry,
  type OpenMembership,
  openMembership,
  sortWalk,
  type WalkEntry,
} from "./suggestionModel";
import type { TopicModel } from "./topicModel";

/** A suggestion the keys act on. */
export type Focus =
  | { kind: "membership"; open: OpenMembership }
  | { kind: "link"; item: LinkItem }
  | { kind: "edge"; item: EdgeItem }
  | { kind: "mention"; item: MentionSuggestionItem };

export interface SuggestionFocusDeps {
  open: OpenSuggestions;
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  notices: Notices;
  /** What to say when G finds nothing left. */
  noSuggestionsText: () => string;
}

const EMPTY: readonly Id[] = Object.freeze([]);

export function createSuggestionFocus({
  open,
  topic,
  store,
  nav,
  notices,
  noSuggestionsText,
}: SuggestionFocusDeps) {
  const project = topic.project;
  const state = () => store.state.value;
  const { index, source, currentMembership, currentLinks, openLinks, openMentions } = open;

  /** The link suggestion chosen with G or a click (else the current mention's first). */
  const chosen = shallowRef<{ suggestion: Id; mention: Id } | null>(null);
  /** Mentions drawn as the focused suggestion's other side (fellow members, the antecedent). */
  const peers = reactive(new Set<Id>()) as Set<Id>;
  /** The proposed mention chosen with a click or G, while the current mention stays `at`. */
  const chosenMention = shallowRef<{ suggestion: Id; at: Id | null } | null>(null);

  function chosenProposal(): MentionSuggestionItem | null {
    const c = chosenMention.value;
    if (c === null || c.at !== nav.current.value) return null;
    const entry = index.value.byId.get(c.suggestion);
    if (entry?.kind !== "mention") return null;
    const item = entry.item as MentionSuggestionItem;
    return mentionIsOpen(item, source) ? item : null;
  }

  const focus = computed<Focus | null>(() => {
    const proposal = chosenProposal();
    if (proposal) return { kind: "mention", item: proposal };
    const c = chosen.value;
    if (c !== null && c.mention === nav.current.value) {
      const item = currentLinks.value.find((l) => l.suggestion === c.suggestion);
      if (item) return { kind: "link", item };
    }
    const membership = currentMembership.value;
    if (membership) return { kind: "membership", open: membership };
    const first =
      currentLinks.value.find((l) => state().decisions.get(l.suggestion) !== "rejected") ??
      currentLinks.value[0];
    return first ? { kind: "link", item: first } : null;
  });

  // The other side of the focused suggestion, drawn in the text.
  const peerIds = computed<readonly Id[]>(() => {
    const f = focus.value;
    if (!f) return EMPTY;
    if (f.kind === "membership") return f.open.fellows;
    if (f.kind === "link") {
      const ends = linkEnds(f.item)!;
      return [ends.anaphor === nav.current.value ? ends.antecedent : ends.anaphor];
    }
    return EMPTY;
  });
  watch(peerIds, (next) => {
    const keep = new Set(next);
    for (const id of [...peers]) if (!keep.has(id)) peers.delete(id);
    for (const id of next) peers.add(id);
  });

  /** After deciding on a link, the next suggested link of the same mention gets the keys. */
  function chooseNextLink(decided: Id): void {
    const mention = nav.current.value;
    const next = currentLinks.value.find(
      (l) => l.suggestion !== decided && !state().decisions.has(l.suggestion),
    );
    chosen.value = next && mention !== null ? { suggestion: next.suggestion, mention } : null;
  }

  /** Hand the keys to a proposed mention (a click on it, G, or the next after a decision). */
  function chooseMention(item: MentionSuggestionItem): void {
    chosenMention.value = { suggestion: item.suggestion, at: nav.current.value };
  }

  function readingKeys(): ReadingKeys {
    const keys: [number, number][] = [];
    for (const [id, p] of nav.position.value) {
      const m = state().mentions.get(id);
      if (m) keys[p] = [topic.documentIndex.get(m.document) ?? 0, m.spans[0]![0]];
    }
    return keys;
  }

  /** After deciding on a proposed mention, the next open one in reading order gets the keys. */
  function chooseNextMention(decided: Id): void {
    const list = openMentions.value.filter((item) => item.suggestion !== decided);
    const at = index.value.byId.get(decided)?.item as MentionSuggestionItem | undefined;
    if (!at || list.length === 0) {
      chosenMention.value = null;
      return;
    }
    const key = (item: MentionSuggestionItem) =>
      [topic.documentIndex.get(item.document) ?? 0, item.spans[0]![0]] as const;
    const [d0, s0] = key(at);
    const after = list
      .map((item) => ({ item, k: key(item) }))
      .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1])
      .find(({ k }) => k[0] > d0 || (k[0] === d0 && k[1] > s0));
    if (after) chosenMention.value = { suggestion: after.item.suggestion, at: nav.current.value };
    else chosenMention.value = null;
  }

  function chooseLink(item: LinkItem): void {
    const ends = linkEnds(item)!;
    const mention = nav.current.value;
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
        if (p !== undefined)
          entries.push({
            suggestion: item.suggestion,
            kind: "membership",
            mention: item.mention,
            position: p,
            rank: 0,
          });
      }
    }
    for (const item of openLinks.value) {
      const ends = linkEnds(item)!;
      const p = position.get(ends.anaphor);
      if (p !== undefined)
        entries.push({
          suggestion: item.suggestion,
          kind: "link",
          mention: ends.anaphor,
          position: p,
          rank: 1 + (position.get(ends.antecedent) ?? 0) / 1e6,
        });
    }
    const keys = openMentions.value.length ? readingKeys() : [];
    for (const item of openMentions.value) {
      const p = walkPosition(topic.documentIndex.get(item.document) ?? 0, item.spans[0]![0], keys);
      entries.push({
        suggestion: item.suggestion,
        kind: "mention",
        mention: -1,
        position: p,
        rank: 0,
      });
    }
    sortWalk(entries);
    const cur = nav.current.value;
    const f = focus.value;
    const focused =
      f === null ? null : f.kind === "membership" ? f.open.item.suggestion : f.item.suggestion;
    const onCurrent =
      f !== null &&
      entries.some((e) => e.suggestion === focused && (e.mention === cur || e.kind === "mention"));
    const entry = nextEntry(
      entries,
      cur === null ? -1 : (position.get(cur) ?? -1),
      onCurrent ? focused : null,
    );
    if (!entry) {
      notices.status(noSuggestionsText());
      return;
    }
    if (entry.kind === "mention") {
      const item = index.value.byId.get(entry.suggestion)!.item as MentionSuggestionItem;
      const anchor = anchorMention(item, nav.mentionsByDocument.value.get(item.document));
      if (anchor !== null) nav.current.set(anchor);
      chosen.value = null;
      chooseMention(item);
      return;
    }
    nav.current.set(entry.mention);
    chosen.value =
      entry.kind === "link" ? { suggestion: entry.suggestion, mention: entry.mention } : null;
    chosenMention.value = null;
  }

  // Choosing a link belongs to the mention it was chosen at.
  watch(
    () => nav.current.value,
    (mention) => {
      if (chosen.value !== null && chosen.value.mention !== mention) chosen.value = null;
      if (chosenMention.value !== null && chosenMention.value.at !== mention)
        chosenMention.value = null;
    },
  );

  return {
    focus,
    peers,
    chooseLink,
    chooseNextLink,
    chooseMention,
    chooseNextMention,
    next,
    isPeer: (mention: Id) => peers.has(mention),
  };
}

export type SuggestionFocus = ReturnType<typeof createSuggestionFocus>;
