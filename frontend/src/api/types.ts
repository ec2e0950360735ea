// The JSON the backend sends and accepts (annotation/selectors/workspace.py,
// annotation/domain/effects.py, annotation/domain/operations/dispatch.py).

export type Id = number;
/** Inclusive token offsets within one document. */
export type Span = [number, number];

export const LINK_TYPES = ["COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export type Decision = "accepted" | "rejected";

export interface Me {
  id: Id;
  username: string;
  is_admin: boolean;
}

export interface ProjectInfo {
  id: Id;
  name: string;
  hierarchy: boolean;
  anaphora: boolean;
  single_parent: boolean;
  allow_add_mentions: boolean;
  allow_fix_spans: boolean;
  allow_reject_mentions: boolean;
  guidelines: string;
  suggestion_backend: string;
}

export interface DocumentPayload {
  id: Id;
  position: number;
  doc_id: string;
  tokens: string[];
  /** Half-open [start, end) token ranges. */
  sentences: [number, number][];
  metadata: Record<string, unknown>;
}

export interface TopicPayload {
  id: Id;
  external_id: string;
  source: string;
  metadata: Record<string, unknown>;
  project: ProjectInfo;
  documents: DocumentPayload[];
  mentions: { id: Id; document: Id; spans: Span[] }[];
}

export interface MentionPayload {
  id: Id;
  document: Id;
  spans: Span[];
  added: boolean;
  rejected: boolean;
}

export interface AnnotationPayload {
  id: Id;
  topic: Id;
  kind: string;
  version: number;
  assignment: Id | null;
  status: string;
  cursor: Id | null;
  clusters: { id: Id; label: string; note: string; members: Id[] }[];
  edges: [Id, Id][];
  links: [LinkType, Id, Id][];
  mentions: MentionPayload[];
  decisions: Record<string, Decision>;
  can_undo: boolean;
  can_redo: boolean;
}

export interface AssignmentRow {
  id: Id;
  role: string;
  status: "assigned" | "in_progress" | "submitted" | "reopened" | string;
  user: Id;
  topic: { id: Id; external_id: string };
  project: { id: Id; name: string; hierarchy: boolean; anaphora: boolean };
  annotation: Id;
  version: number;
  progress: { assigned: number; total: number };
  last_edited: string | null;
  submitted_at: string | null;
}

export type Effect =
  | { e: "cluster_created"; cluster: Id; label: string; note: string }
  | { e: "cluster_deleted"; cluster: Id; label: string; note: string }
  | { e: "member_set"; mention: Id; old: Id | null; new: Id | null }
  | { e: "edge_added"; parent: Id; child: Id }
  | { e: "edge_removed"; parent: Id; child: Id }
  | { e: "label_set"; cluster: Id; old: string; new: string }
  | { e: "note_set"; cluster: Id; old: string; new: string }
  | { e: "link_added"; type: LinkType; anaphor: Id; antecedent: Id }
  | { e: "link_removed"; type: LinkType; anaphor: Id; antecedent: Id }
  | { e: "mention_added"; mention: Id; document: Id; spans: Span[] }
  | { e: "mention_removed"; mention: Id; document: Id; spans: Span[] }
  | { e: "spans_set"; mention: Id; old: Span[]; new: Span[] }
  | { e: "rejected_set"; mention: Id; old: boolean; new: boolean }
  | { e: "suggestion_decided"; suggestion: Id; old: Decision | null; new: Decision | null };

export type EffectName = Effect["e"];

export type Operation =
  | { op: "assign"; mention: Id; cluster: Id | null }
  | { op: "merge"; source: Id; target: Id }
  | { op: "split"; mentions: Id[] }
  | { op: "rename"; cluster: Id; label: string }
  | { op: "set_note"; cluster: Id; note: string }
  | { op: "set_parent"; child: Id; parent: Id | null }
  | { op: "add_edge" | "remove_edge"; parent: Id; child: Id }
  | { op: "add_mention"; document: Id; spans: Span[] }
  | { op: "fix_span"; mention: Id; spans: Span[] }
  | { op: "reject_mention"; mention: Id }
  | { op: "add_link" | "remove_link"; type: LinkType; anaphor: Id; antecedent: Id }
  | { op: "accept_suggestion"; suggestion: Id; operation: Operation }
  | { op: "reject_suggestion"; suggestion: Id };

/** What the operations/undo/redo endpoints return and the websocket broadcasts. */
export interface Applied {
  operation_id: Id;
  version: number;
  name: string;
  kind: "do" | "undo" | "redo" | string;
  effects: Effect[];
  warnings: string[];
  created: Record<string, Id>;
  client_id: string;
}

/** A model suggestion run of a topic (modelserve/services/run_broadcast.py `run_payload`). */
export interface RunPayload {
  run: Id;
  topic: Id;
  backend: string;
  status: "queued" | "running" | "succeeded" | "failed";
  /** 0..1 */
  progress: number;
  message: string;
  /** The first paragraph of the error of a failed run ("" otherwise). */
  error: string;
  attempts: number;
  created_at: string | null;
  finished_at: string | null;
  timings?: Record<string, number>;
}

/** GET /api/topics/<id>/suggestion-runs/ */
export interface RunsAnswer {
  runs: RunPayload[];
  /** Live workers consuming the models queue; empty: a queued run waits. */
  model_workers: string[];
}

export type SuggestionKind = "membership" | "edge" | "link";

interface SuggestionItemBase {
  suggestion: Id;
  score: number;
  /** What accepting it applies now (mapped onto my clusters by the server). */
  operation: Operation;
  decision: Decision | null;
  /** false: the rules would refuse `operation` now (`reason` says why). */
  valid: boolean;
  reason: string;
}

export interface MembershipItem extends SuggestionItemBase {
  mention: Id;
  /** Every mention of the suggested cluster (this one included). */
  suggested_members: Id[];
}
export type EdgeItem = SuggestionItemBase;
export type LinkItem = SuggestionItemBase;

/** GET /api/annotations/<id>/suggestions/ (modelserve/selectors.py) */
export interface SuggestionsPayload {
  /** The finished run the items come from (null: none yet). */
  run: RunPayload | null;
  /** The topic's newest run in any state. */
  newest_run: RunPayload | null;
  /** The annotation version the items were mapped against. */
  version: number;
  memberships: MembershipItem[];
  edges: EdgeItem[];
  links: LinkItem[];
}

/** POST /api/annotations/<id>/suggestions/accept-above/: each acceptance its own change. */
export interface AppliedBatch {
  applied: Applied[];
  skipped: { suggestion: Id; reason: string }[];
  version: number;
}

export type SocketMessage =
  | ({ type: "applied" } & Applied)
  | { type: "status"; assignment: Id; status: string }
  | ({ type: "run" } & RunPayload);

/** Every refusal: `{"error": code, "message": text, ...details}`. */
export interface ErrorBody {
  error: string;
  message: string;
  current_version?: number;
  field?: string;
  [detail: string]: unknown;
}
