// One function per endpoint the annotator pages use (annotation/api/urls.py).

import { request } from "./http";
import type { components } from "./schema";
import type {
  AnnotationPayload,
  Applied,
  AppliedBatch,
  AssignmentRow,
  AssignmentSubmitted,
  Id,
  Me,
  Operation,
  RunRequested,
  RunsAnswer,
  SuggestionKind,
  SuggestionsPayload,
  TopicPayload,
} from "./types";

export const api = {
  csrf: () => request<components["schemas"]["Csrf"]>("/api/auth/csrf/"),
  me: () => request<Me>("/api/me/"),
  login: (username: string, password: string) =>
    request<Me>("/api/auth/login/", { method: "POST", body: { username, password } }),
  logout: () => request<void>("/api/auth/logout/", { method: "POST" }),
  myAssignments: () => request<AssignmentRow[]>("/api/assignments/mine/"),
  topic: (id: Id) => request<TopicPayload>(`/api/topics/${id}/`),
  annotation: (id: Id) => request<AnnotationPayload>(`/api/annotations/${id}/`),
  operation: (annotation: Id, expectedVersion: number, operation: Operation, clientId: string) =>
    request<Applied>(`/api/annotations/${annotation}/operations/`, {
      method: "POST",
      body: { expected_version: expectedVersion, operation, client_id: clientId },
    }),
  undo: (annotation: Id, expectedVersion: number, clientId: string) =>
    request<Applied>(`/api/annotations/${annotation}/undo/`, {
      method: "POST",
      body: { expected_version: expectedVersion, client_id: clientId },
    }),
  redo: (annotation: Id, expectedVersion: number, clientId: string) =>
    request<Applied>(`/api/annotations/${annotation}/redo/`, {
      method: "POST",
      body: { expected_version: expectedVersion, client_id: clientId },
    }),
  cursor: (annotation: Id, mention: Id | null, keepalive = false) =>
    request<void>(`/api/annotations/${annotation}/cursor/`, { method: "PUT", body: { mention }, keepalive }),
  suggestionRuns: (topic: Id) => request<RunsAnswer>(`/api/topics/${topic}/suggestion-runs/`),
  requestSuggestionRun: (topic: Id, backend?: string) =>
    request<RunRequested>(`/api/topics/${topic}/suggestion-runs/`, {
      method: "POST",
      body: backend ? { backend } : {},
    }),
  suggestions: (annotation: Id) => request<SuggestionsPayload>(`/api/annotations/${annotation}/suggestions/`),
  acceptAbove: (annotation: Id, expectedVersion: number, threshold: number, kinds: SuggestionKind[], clientId: string) =>
    request<AppliedBatch>(`/api/annotations/${annotation}/suggestions/accept-above/`, {
      method: "POST",
      body: { expected_version: expectedVersion, threshold, kinds, client_id: clientId },
    }),
  submit: (assignment: Id) =>
    request<AssignmentSubmitted>(`/api/assignments/${assignment}/submit/`, {
      method: "POST",
    }),
};

export type Api = typeof api;
