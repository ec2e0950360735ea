// Question mode's order (src/workspace/questions.ts): the open suggestions, most uncertain
// first, as the server ranks them (modelserve/questions.py), against the local state.
import { describe, expect, it } from "vitest";
import type {
  Decision,
  EdgeItem,
  Id,
  LinkItem,
  MembershipItem,
  SuggestionsPayload,
} from "../../src/api/types";
import {
  linkTypeOfDigit,
  openQuestions,
  questionFocus,
  questionMention,
} from "../../src/workspace/questions";
import { indexSuggestions, type MappingSource } from "../../src/workspace/suggestionModel";

function source(
  clusters: Record<Id, Id[]>,
  decisions: Record<Id, Decision> = {},
  links: string[] = [],
): MappingSource {
  const clusterOf = new Map<Id, Id>();
  for (const [c, members] of Object.entries(clusters))
    for (const m of members) clusterOf.set(m, Number(c));
  return {
    clusterOf: (m) => clusterOf.get(m),
    mentionState: (m) => (m >= 1 && m <= 12 ? { rejected: false } : undefined),
    decision: (s) => decisions[s],
    hasCluster: (c) => c in clusters,
    hasEdge: () => false,
    hasLink: (t, a, b) => links.includes(`${t}|${a}|${b}`),
    mentionsOf: () => undefined,
  };
}

const base = { decision: null, valid: true, reason: "" } as const;
const membership = (
  suggestion: Id,
  mention: Id,
  members: Id[],
  uncertainty: number,
): MembershipItem => ({
  ...base,
  suggestion,
  score: 0.5 + (1 - uncertainty) / 2,
  uncertainty,
  mention,
  suggested_members: members,
  operation: { op: "assign", mention, cluster: null },
});
const edge = (suggestion: Id, parent: Id, child: Id, uncertainty: number): EdgeItem => ({
  ...base,
  suggestion,
  score: 0.6,
  uncertainty,
  operation: { op: "set_parent", parent, child },
});
const link = (suggestion: Id, anaphor: Id, antecedent: Id, uncertainty: number): LinkItem => ({
  ...base,
  suggestion,
  score: 0.9,
  uncertainty,
  operation: { op: "add_link", type: "WORK_UP", anaphor, antecedent },
});

function payload(p: Partial<SuggestionsPayload>): SuggestionsPayload {
  return {
    run: null,
    memberships: [],
    edges: [],
    links: [],
    mentions: [],
    version: 0,
    newest_run: null,
    ...p,
  };
}

const scope = { hierarchy: true, anaphora: true };

describe("openQuestions", () => {
  it("asks the most uncertain first, across memberships, edges and links", () => {
    const index = indexSuggestions(
      payload({
        memberships: [membership(1, 1, [1, 2], 0.1), membership(2, 3, [3, 4], 0.8)],
        edges: [edge(3, 100, 101, 0.5)],
        links: [link(4, 6, 5, 0.9)],
      }),
    );
    const asked = openQuestions(index, source({ 100: [7], 101: [8] }), scope);
    expect(asked.map((q) => q.suggestion)).toEqual([4, 2, 3, 1]);
    expect(questionMention(asked[0]!)).toBe(6);
    expect(questionFocus(asked[1]!)).toMatchObject({ kind: "membership", open: { mention: 3 } });
  });

  it("leaves out what is decided (a rejection answered it), done already, or not in the project", () => {
    const index = indexSuggestions(
      payload({
        memberships: [
          membership(1, 1, [1, 2], 0.9),
          membership(2, 3, [3, 4], 0.8),
          membership(5, 9, [9, 10], 0.7),
        ],
        links: [link(4, 6, 5, 0.95)],
      }),
    );
    // 1 rejected; 9 already sits with 10 (nothing to change); the link is there already.
    const state = source({ 50: [9, 10] }, { 1: "rejected" }, ["WORK_UP|6|5"]);
    expect(openQuestions(index, state, scope).map((q) => q.suggestion)).toEqual([2]);
    expect(
      openQuestions(index, source({}), { hierarchy: false, anaphora: true }).map(
        (q) => q.suggestion,
      ),
    ).toEqual([4]);
  });

  it("maps the digits 1-5 onto the link types in the keymap's order", () => {
    expect(linkTypeOfDigit(1)).toBe("COREFERENCE");
    expect(linkTypeOfDigit(3)).toBe("REACTION_ASSOCIATED");
    expect(linkTypeOfDigit(5)).toBe("CONTAINED");
    expect(linkTypeOfDigit(6)).toBeNull();
  });
});
