// Which annotation each annotator of a topic made, so a row of the agreement report can open
// it read-only in the workspace (/review/annotations/<id>). The report names topics by
// external id and annotators by username; the progress matrix knows the annotation ids.

import type { ProgressPayload } from "../../api/adminTypes";
import type { Id } from "../../api/types";

export type ReviewLinks = ReadonlyMap<string, Id>;

const key = (topic: string, annotator: string) => `${topic}\u0000${annotator}`;

/** (topic external id, username) -> annotation id, for the annotators' own assignments. */
export function reviewLinks(progress: ProgressPayload): ReviewLinks {
  const topics = new Map(progress.topics.map((t) => [t.id, t.external_id]));
  const people = new Map(progress.annotators.map((a) => [a.id, a.username]));
  const links = new Map<string, Id>();
  for (const cell of progress.cells) {
    const topic = topics.get(cell.topic);
    const user = people.get(cell.user);
    if (topic === undefined || user === undefined || cell.role !== "annotator") continue;
    links.set(key(topic, user), cell.annotation);
  }
  return links;
}

/** The annotation of `annotator` on `topic`, if the progress matrix knows it. */
export function reviewLink(links: ReviewLinks, topic: string, annotator: string): Id | undefined {
  return links.get(key(topic, annotator));
}
