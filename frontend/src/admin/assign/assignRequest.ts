// The assignment form -> the POST /api/assignments/ body, with the form's own checks.
// "by hand": every selected topic to every selected annotator (mode "all");
// "balanced": each overlap topic to k annotators (for agreement), every other topic to one,
// loads kept even by the server (annotation/services/assignments.py balanced_plan).

import type { AssignRequest } from "../../api/adminTypes";
import type { Id } from "../../api/types";
import { plural } from "../format";

/** Which of the chosen topics are annotated k times: all of them, none, or `count` of them
 * spread evenly over the list (every (n/count)-th) or the first `count`. */
export type OverlapChoice =
  { kind: "all" } | { kind: "none" } | { kind: "count"; count: number; pick: "spread" | "first" };

export interface AssignForm {
  mode: "all" | "balanced";
  /** In the order of the topic list. */
  topics: Id[];
  users: Id[];
  k: number;
  overlap: OverlapChoice;
  /** By hand only: assign as annotators (the default) or as adjudicators. */
  role?: "annotator" | "adjudicator";
}

export function overlapTopics(topics: readonly Id[], overlap: OverlapChoice): Id[] {
  if (overlap.kind === "all") return [...topics];
  if (overlap.kind === "none") return [];
  const n = Math.max(0, Math.min(topics.length, Math.floor(overlap.count)));
  if (overlap.pick === "first") return topics.slice(0, n);
  return Array.from({ length: n }, (_, i) => topics[Math.floor((i * topics.length) / n)]!);
}

export interface AssignPlan {
  request: AssignRequest | null;
  errors: string[];
  /** At most this many assignments are created (fewer where some exist already). */
  upTo: number;
}

export function assignRequest(project: Id, form: AssignForm): AssignPlan {
  const errors: string[] = [];
  const topics = [...new Set(form.topics)];
  const users = [...new Set(form.users)];
  if (topics.length === 0) errors.push("Choose at least one topic.");
  if (users.length === 0) errors.push("Choose at least one annotator.");
  if (form.mode === "all") {
    return {
      request: errors.length
        ? null
        : {
            project,
            topics,
            users,
            mode: "all",
            ...(form.role === "adjudicator" ? { role: "adjudicator" } : {}),
          },
      errors,
      upTo: topics.length * users.length,
    };
  }
  const k = Math.floor(form.k);
  if (users.length && (!(k >= 1) || k > users.length)) {
    errors.push(
      `Each topic needs between 1 and ${plural(users.length, "annotator")} (the number chosen).`,
    );
  }
  if (
    form.overlap.kind === "count" &&
    topics.length &&
    !(form.overlap.count >= 1 && form.overlap.count <= topics.length)
  ) {
    errors.push(`The overlap set needs between 1 and ${plural(topics.length, "topic")}.`);
  }
  const overlap = overlapTopics(topics, form.overlap);
  const upTo = overlap.length * Math.max(1, k || 1) + (topics.length - overlap.length);
  if (errors.length) return { request: null, errors, upTo };
  return { request: { project, topics, users, mode: "balanced", k, overlap }, errors, upTo };
}
