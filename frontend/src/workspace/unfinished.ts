// What is still to do before submitting, for the submit dialog: mentions not in a cluster
// (hierarchy projects: the server refuses to submit those), open model suggestions, and
// mentions with no link (anaphora projects). Pure: the dialog passes in what it reads.

import type { Id } from "../api/types";
import type { AnnotationState } from "../domain/state";

export interface Unfinished {
  /** Mentions not rejected and in no cluster, in reading order (hierarchy projects). */
  unclustered: Id[];
  /** Mentions not rejected with no link, in reading order (anaphora projects). */
  unlinked: Id[];
  /** Open model suggestions. */
  openSuggestions: number;
}

export interface UnfinishedInput {
  state: Pick<AnnotationState, "mentions" | "mentionCluster" | "mentionLinks">;
  project: { hierarchy: boolean; anaphora: boolean };
  /** Mention ids in reading order. */
  order: readonly Id[];
  openSuggestions: number;
  /** Assignments sent but not yet confirmed count as done. */
  pendingAssign?: ReadonlyMap<Id, Id>;
}

export function unfinishedWork({
  state,
  project,
  order,
  openSuggestions,
  pendingAssign,
}: UnfinishedInput): Unfinished {
  const unclustered: Id[] = [];
  const unlinked: Id[] = [];
  for (const id of order) {
    const mention = state.mentions.get(id);
    if (!mention || mention.rejected) continue;
    if (project.hierarchy && !state.mentionCluster.has(id) && !pendingAssign?.has(id))
      unclustered.push(id);
    if (project.anaphora && (state.mentionLinks.get(id)?.size ?? 0) === 0) unlinked.push(id);
  }
  return { unclustered, unlinked, openSuggestions };
}

/** Nothing can be submitted while a mention is outside every cluster (the server refuses). */
export const blocksSubmit = (work: Unfinished): boolean => work.unclustered.length > 0;

/** Something is left that the annotator may leave, once they say so. */
export const needsConfirmation = (work: Unfinished): boolean =>
  work.unlinked.length > 0 || work.openSuggestions > 0;
