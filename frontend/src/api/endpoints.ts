// One function per endpoint the annotator pages use (annotation/api/urls.py), each typed by
// its path in the generated schema (see http.ts).

import { answer, backendOf, client } from "./http";
import {
  type Decision,
  type Id,
  type Operation,
  type SuggestionKind,
  withLinkTriples,
} from "./types";

const id = (value: Id) => ({ params: { path: { id: value } } });

export const api = {
  csrf: () => answer(client.GET("/api/auth/csrf/")),
  me: () => answer(client.GET("/api/me/")),
  login: (username: string, password: string) =>
    answer(client.POST("/api/auth/login/", { body: { username, password } })),
  logout: () => answer(client.POST("/api/auth/logout/")),
  myAssignments: () => answer(client.GET("/api/assignments/mine/")),
  topic: (topic: Id) => answer(client.GET("/api/topics/{id}/", id(topic))),
  annotation: async (annotation: Id) =>
    withLinkTriples(await answer(client.GET("/api/annotations/{id}/", id(annotation)))),
  operation: (annotation: Id, expectedVersion: number, operation: Operation, clientId: string) =>
    answer(
      client.POST("/api/annotations/{id}/operations/", {
        ...id(annotation),
        body: { expected_version: expectedVersion, operation, client_id: clientId },
      }),
    ),
  undo: (annotation: Id, expectedVersion: number, clientId: string) =>
    answer(
      client.POST("/api/annotations/{id}/undo/", {
        ...id(annotation),
        body: { expected_version: expectedVersion, client_id: clientId },
      }),
    ),
  redo: (annotation: Id, expectedVersion: number, clientId: string) =>
    answer(
      client.POST("/api/annotations/{id}/redo/", {
        ...id(annotation),
        body: { expected_version: expectedVersion, client_id: clientId },
      }),
    ),
  cursor: (annotation: Id, mention: Id | null, keepalive = false) =>
    answer(
      client.PUT("/api/annotations/{id}/cursor/", {
        ...id(annotation),
        body: { mention },
        keepalive,
      }),
    ),
  suggestionRuns: (topic: Id) => answer(client.GET("/api/topics/{id}/suggestion-runs/", id(topic))),
  requestSuggestionRun: (topic: Id, backend?: string) =>
    answer(
      client.POST("/api/topics/{id}/suggestion-runs/", { ...id(topic), body: backendOf(backend) }),
    ),
  corpusQuery: (annotation: Id, query: { mention?: Id; text?: string }) =>
    answer(
      client.GET("/api/annotations/{id}/corpus-query/", {
        params: { path: { id: annotation }, query },
      }),
    ),
  suggestions: (annotation: Id) =>
    answer(client.GET("/api/annotations/{id}/suggestions/", id(annotation))),
  suggestionsShown: (annotation: Id, shown: { suggestion: Id; age_ms: number }[]) =>
    answer(
      client.POST("/api/annotations/{id}/suggestions-shown/", {
        ...id(annotation),
        body: { shown },
      }),
    ),
  acceptAbove: (
    annotation: Id,
    expectedVersion: number,
    threshold: number,
    kinds: SuggestionKind[],
    clientId: string,
  ) =>
    answer(
      client.POST("/api/annotations/{id}/suggestions/accept-above/", {
        ...id(annotation),
        body: { expected_version: expectedVersion, threshold, kinds, client_id: clientId },
      }),
    ),
  /** Accept or reject these suggestions as one change (one undo step). */
  decideSuggestions: (
    annotation: Id,
    expectedVersion: number,
    decision: Decision,
    suggestions: Id[],
    clientId: string,
  ) =>
    answer(
      client.POST("/api/annotations/{id}/suggestions/decide/", {
        ...id(annotation),
        // The schema asks for at least one; the caller sends nothing when there is none.
        body: {
          expected_version: expectedVersion,
          decision,
          suggestions: suggestions as [Id, ...Id[]],
          client_id: clientId,
        },
      }),
    ),
  submit: (assignment: Id) => answer(client.POST("/api/assignments/{id}/submit/", id(assignment))),
  /** Admins: open a submitted topic again for its annotator (the review view's Reopen). */
  reopen: (assignment: Id) => answer(client.POST("/api/assignments/{id}/reopen/", id(assignment))),
};

export type Api = typeof api;
