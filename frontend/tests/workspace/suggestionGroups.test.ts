// "Every suggestion of one type" (Shift+X): one group per link type and per other kind, only
// open undecided suggestions, the refused ones left out of an acceptance with their reason.
import { describe, expect, it } from "vitest";
import type { Decision, Id, LinkItem, LinkType, SuggestionsPayload } from "../../src/api/types";
import { groupLabel, suggestionGroups } from "../../src/workspace/suggestionGroups";
import { indexSuggestions, type MappingSource } from "../../src/workspace/suggestionModel";

const link = (
  suggestion: Id,
  anaphor: Id,
  antecedent: Id,
  type: LinkType,
  reason = "",
): LinkItem => ({
  suggestion,
  score: 0.9,
  uncertainty: 0.2,
  operation: { op: "add_link", type, anaphor, antecedent },
  decision: null,
  valid: reason === "",
  reason,
});

function source(decisions: Record<Id, Decision> = {}, links: string[] = []): MappingSource {
  return {
    clusterOf: () => undefined,
    mentionState: () => ({ rejected: false }),
    decision: (s) => decisions[s],
    hasCluster: () => true,
    hasEdge: () => false,
    hasLink: (t, a, b) => links.includes(`${t}|${a}|${b}`),
    mentionsOf: () => undefined,
  };
}

const payload: SuggestionsPayload = {
  run: null,
  newest_run: null,
  version: 0,
  memberships: [],
  edges: [],
  mentions: [],
  links: [
    link(1, 5, 4, "TRANSFORMED"),
    link(2, 3, 2, "COREFERENCE"),
    link(3, 9, 8, "COREFERENCE", '"it" (document 1, word 9) is rejected'),
    link(4, 7, 6, "COREFERENCE"),
    link(5, 7, 1, "COREFERENCE"),
  ],
};

describe("suggestion groups", () => {
  it("groups open undecided suggestions by link type, in the keys' order", () => {
    // 4 is decided already, 5 is in the annotation already: neither is open.
    const groups = suggestionGroups(
      indexSuggestions(payload),
      source({ 4: "rejected" }, ["COREFERENCE|7|1"]),
    );

    expect(groups.map((g) => g.key)).toEqual(["link:COREFERENCE", "link:TRANSFORMED"]);
    const [coreference] = groups;
    expect(coreference!.all).toEqual([2, 3]);
    expect(coreference!.acceptable).toEqual([2]);
    expect(coreference!.refused).toEqual(['"it" (document 1, word 9) is rejected']);
    expect(groupLabel(coreference!)).toBe("COREFERENCE links");
    expect(groupLabel(coreference!, 1)).toBe("COREFERENCE link");
  });

  it("offers nothing when every suggestion is decided", () => {
    const all: Record<Id, Decision> = {
      1: "accepted",
      2: "rejected",
      3: "rejected",
      4: "rejected",
      5: "accepted",
    };
    expect(suggestionGroups(indexSuggestions(payload), source(all))).toEqual([]);
  });
});
