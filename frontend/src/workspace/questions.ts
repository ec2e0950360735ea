// Question mode (Q): the open suggestions as questions, the model's most uncertain first
// (docs/questions.md). The server scores each suggestion's `uncertainty` with
// modelserve/questions.py; this orders them the same way (most uncertain, then kind, then the
// lower score, then the id) over what is still open against the local state, so an answer, an
// undo or a colleague's live change moves the list at once, without a fetch.

import type { EdgeItem, Id, LinkItem, LinkType } from "../api/types";
import { LINK_TYPES } from "../api/types";
import type { Focus } from "./suggestionFocus";
import { edgeEnds, edgeIsOpen, type LinkEnds, linkEnds, linkIsOpen, type MappingSource, type OpenMembership, openMembership, type SuggestionIndex } from "./suggestionModel";

export type Question =
  | { kind: "membership"; suggestion: Id; score: number; uncertainty: number; open: OpenMembership }
  | { kind: "edge"; suggestion: Id; score: number; uncertainty: number; item: EdgeItem; parent: Id; child: Id }
  | { kind: "link"; suggestion: Id; score: number; uncertainty: number; item: LinkItem; ends: LinkEnds };

/** What the order of the questions reads. */
export type Ranked = Pick<Question, "kind" | "suggestion" | "score" | "uncertainty">;

const KIND_ORDER: Record<Question["kind"], number> = { membership: 0, edge: 1, link: 2 };

/** Which parts of the annotation the project has (questions of the others are not asked). */
export interface QuestionScope {
  hierarchy: boolean;
  anaphora: boolean;
}

/** Every suggestion not decided yet (a rejected one was answered already) that would still
 * change the annotation and that the rules allow, most uncertain first. */
export function openQuestions(index: SuggestionIndex, source: MappingSource, scope: QuestionScope): Question[] {
  const out: Question[] = [];
  const undecided = (id: Id) => source.decision(id) === undefined;
  if (scope.hierarchy) {
    for (const item of index.byMention.values()) {
      if (!undecided(item.suggestion)) continue;
      const open = openMembership(item, source);
      if (open) out.push({ kind: "membership", suggestion: item.suggestion, score: item.score, uncertainty: item.uncertainty, open });
    }
    for (const item of index.edges) {
      if (!item.valid || !undecided(item.suggestion) || !edgeIsOpen(item, source)) continue;
      const ends = edgeEnds(item)!;
      out.push({ kind: "edge", suggestion: item.suggestion, score: item.score, uncertainty: item.uncertainty, item, ...ends });
    }
  }
  if (scope.anaphora) {
    for (const item of index.links) {
      if (!item.valid || !undecided(item.suggestion) || !linkIsOpen(item, source)) continue;
      out.push({ kind: "link", suggestion: item.suggestion, score: item.score, uncertainty: item.uncertainty, item, ends: linkEnds(item)! });
    }
  }
  return out.sort(compareQuestions);
}

/** The order of modelserve/questions.py's rank(): most uncertain first; ties by kind, then the
 * lower score, then the suggestion id. */
export function compareQuestions(a: Ranked, b: Ranked): number {
  return (
    b.uncertainty - a.uncertainty ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    a.score - b.score ||
    a.suggestion - b.suggestion
  );
}

/** The question as the suggestion the Y / X decisions act on. */
export function questionFocus(q: Question): Focus {
  if (q.kind === "membership") return { kind: "membership", open: q.open };
  return { kind: q.kind, item: q.item };
}

/** The link type a digit key chooses (1-5, in the keymap's order); null for another key. */
export function linkTypeOfDigit(digit: number): LinkType | null {
  return LINK_TYPES[digit - 1] ?? null;
}

/** The mention the question is about, to show in the text (an edge: none). */
export function questionMention(q: Question): Id | null {
  if (q.kind === "membership") return q.open.mention;
  if (q.kind === "link") return q.ends.anaphor;
  return null;
}
