// The JSON of the admin endpoints (annotation/api/views/manage.py and files.py,
// annotation/selectors/progress.py and agreement.py, modelserve/api.py).

import type { Id, ProjectInfo } from "./types";

export interface ProjectRow extends ProjectInfo {
  topics: number;
  suggestion_backend: string;
  suggestion_params: Record<string, unknown>;
}

/** A project's suggestion settings (modelserve/api.py). */
export interface SuggestionSettings {
  project: Id;
  backend: string;
  params: Record<string, unknown>;
}

/** What the project form sends (POST creates, PATCH changes). */
export interface ProjectInput {
  name: string;
  hierarchy: boolean;
  anaphora: boolean;
  guidelines: string;
  allow_add_mentions: boolean;
  allow_fix_spans: boolean;
  allow_reject_mentions: boolean;
  single_parent: boolean;
  suggestion_backend: string;
  suggestion_params: Record<string, unknown>;
}

export interface SuggestionBackends {
  backends: string[];
  default: string;
}

export interface TopicRow {
  id: Id;
  external_id: string;
  source: string;
  position: number;
}

export interface UserRow {
  id: Id;
  username: string;
  is_admin: boolean;
  is_active: boolean;
  last_login: string | null;
}

export type AssignmentStatus = "assigned" | "in_progress" | "submitted" | "reopened";

export interface ProgressCell {
  assignment: Id;
  topic: Id;
  user: Id;
  status: AssignmentStatus | string;
  role: string;
  annotation: Id;
  version: number;
  mentions_done: number;
  mentions_total: number;
  links: number;
  seconds_spent: number;
}

export interface ProgressPayload {
  project: Id;
  topics: { id: Id; external_id: string }[];
  annotators: { id: Id; username: string }[];
  cells: ProgressCell[];
}

/** ws/projects/<id>/: after every committed operation or status change in the project. */
export interface ProgressMessage {
  type: "progress";
  assignment?: Id;
  annotation?: Id;
  version?: number;
  status?: string;
  operation?: string;
  /** Bulk actions: "deleted" | "reopened", with the assignments concerned. */
  action?: string;
  assignments?: Id[];
}

/** POST /api/assignments/ */
export interface AssignRequest {
  project: Id;
  topics: Id[];
  users: Id[];
  mode: "all" | "balanced";
  k?: number;
  overlap?: Id[];
  role?: "annotator" | "adjudicator";
}

export interface ImportResult {
  summary: string;
  topics: string[];
  mentions: number;
  gold: number;
  warnings: string[];
  skipped: string[];
}

export type Score = number | null;

export interface TopicMetricScores {
  avg: Score;
  max: Score;
  /** Pair key: the two usernames joined by "-" (names sorted as in `annotators`). */
  pairs: Record<string, Score>;
}

export interface OverallMetricScores {
  avg: Score;
  std: Score;
  max_micro: Score;
  max_macro: Score;
}

/** GET /api/projects/<id>/agreement/ */
export interface AgreementReport {
  project: string;
  scheme: string;
  annotators: string[];
  topics: Record<string, Record<string, TopicMetricScores>>;
  overall: Record<string, OverallMetricScores>;
  unscored_topics: string[];
}

export interface AcceptanceRow {
  backend: string;
  kind: string;
  accepted: number;
  rejected: number;
  acceptance_rate: number;
}

export interface ProjectRunsAnswer {
  runs: Id[];
  model_workers: string[];
}
