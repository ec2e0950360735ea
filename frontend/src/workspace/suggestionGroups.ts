// The groups "accept or reject every suggestion of one type" offers (Shift+X), and what each
// would send. A type is one anaphora link type (COREFERENCE, TRANSFORMED, ...) or, for the
// other kinds, the kind itself: proposed mentions, cluster memberships (SciCo), hierarchy
// edges (SciCo). Only open, undecided suggestions count, as in accept-above; those the rules
// refused when they were fetched are left out of an acceptance and listed with their reason
// (the server would refuse the whole step for them). The server decides them in one
// operation, so one undo reverts the lot.

import type { Id, LinkType, SuggestionKind } from "../api/types";
import { LINK_TYPES } from "../api/types";
import {
  edgeIsOpen,
  linkEnds,
  linkIsOpen,
  type MappingSource,
  mentionIsOpen,
  openMembership,
  type SuggestionIndex,
} from "./suggestionModel";

export interface SuggestionGroup {
  /** "link:COREFERENCE", "mention", "membership", "edge". */
  key: string;
  kind: SuggestionKind;
  type: LinkType | null;
  /** Open and undecided, valid when fetched: what accepting takes. */
  acceptable: Id[];
  /** Open and undecided: what rejecting takes (the refused ones too). */
  all: Id[];
  /** Why the rules refused the ones left out of an acceptance (the server's words). */
  refused: string[];
}

const KIND_LABELS: Record<SuggestionKind, string> = {
  link: "link",
  mention: "suggested mention",
  membership: "cluster membership",
  edge: "hierarchy edge",
};

/** "COREFERENCE links", "suggested mentions", ... (`count` picks the number). */
export function groupLabel(group: Pick<SuggestionGroup, "kind" | "type">, count = 2): string {
  const noun = count === 1 ? KIND_LABELS[group.kind] : `${KIND_LABELS[group.kind]}s`;
  return group.type ? `${group.type} ${noun}` : noun;
}

export function suggestionGroups(index: SuggestionIndex, source: MappingSource): SuggestionGroup[] {
  const groups = new Map<string, SuggestionGroup>();
  const undecided = (id: Id) => source.decision(id) === undefined;
  const take = (
    kind: SuggestionKind,
    type: LinkType | null,
    id: Id,
    valid: boolean,
    reason: string,
  ) => {
    const key = type ? `link:${type}` : kind;
    let group = groups.get(key);
    if (!group)
      groups.set(key, (group = { key, kind, type, acceptable: [], all: [], refused: [] }));
    group.all.push(id);
    if (valid) group.acceptable.push(id);
    else group.refused.push(reason);
  };
  for (const item of index.byMention.values()) {
    if (undecided(item.suggestion) && openMembership(item, source))
      take("membership", null, item.suggestion, true, "");
  }
  for (const item of index.edges) {
    if (undecided(item.suggestion) && edgeIsOpen(item, source))
      take("edge", null, item.suggestion, item.valid, item.reason);
  }
  for (const item of index.mentions) {
    if (undecided(item.suggestion) && mentionIsOpen(item, source))
      take("mention", null, item.suggestion, item.valid, item.reason);
  }
  for (const item of index.links) {
    const ends = linkEnds(item);
    if (ends && undecided(item.suggestion) && linkIsOpen(item, source))
      take("link", ends.type, item.suggestion, item.valid, item.reason);
  }
  // Link types in the scheme's order (the keys 1-5), then the other kinds.
  const order = [...LINK_TYPES.map((t) => `link:${t}`), "mention", "membership", "edge"];
  return [...groups.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}
