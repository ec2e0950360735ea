// The candidate review's endpoints (corpus/api/urls.py): a run's candidates, the edits that
// answer with the whole review again, and the topics made from them.

import type { components } from "../../api/schema";
import { answer, client } from "../../api/http";
import type { Id } from "../../api/types";

type Schemas = components["schemas"];
export type CandidateReview = Schemas["CandidateReviewPayload"];
export type Candidate = Schemas["CandidatePayload"];
export type CandidateMember = Schemas["CandidateMemberPayload"];

const at = (id: Id) => ({ params: { path: { id } } });
/** A list the server refuses empty, typed so: the buttons are disabled until one is checked. */
export type NonEmpty<T> = [T, ...T[]];
export const nonEmpty = <T,>(items: T[]): items is NonEmpty<T> => items.length > 0;

export const candidatesApi = {
  review: (run: Id) => answer(client.GET("/api/candidate-runs/{id}/", at(run))),
  update: (candidate: Id, change: { name?: string; rejected?: boolean }) =>
    answer(client.PATCH("/api/candidates/{id}/", { ...at(candidate), body: change })),
  drop: (candidate: Id, mentions: NonEmpty<number>) =>
    answer(client.POST("/api/candidates/{id}/drop/", { ...at(candidate), body: { mentions } })),
  merge: (candidate: Id, other: number) =>
    answer(client.POST("/api/candidates/{id}/merge/", { ...at(candidate), body: { other } })),
  split: (candidate: Id, concepts: NonEmpty<string>) =>
    answer(client.POST("/api/candidates/{id}/split/", { ...at(candidate), body: { concepts } })),
  createTopics: (run: Id, project: number, candidates: NonEmpty<number>) =>
    answer(client.POST("/api/candidate-runs/{id}/topics/", { ...at(run), body: { project, candidates } })),
};
