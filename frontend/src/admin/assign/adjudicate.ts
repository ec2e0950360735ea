// The bulk action that assigns seeded adjudications (POST /api/adjudications/): the request
// the form builds, and the one call. The server checks everything again; this only keeps
// the button from sending what it would refuse.

import { answer, client } from "../../api/http";
import type { components } from "../../api/schema";
import type { Id } from "../../api/types";

export type AdjudicateRequest = components["schemas"]["AdjudicateRequestRequest"];
export type AdjudicationsCreated = components["schemas"]["AdjudicationsCreated"];

export interface AdjudicateForm {
  adjudicator: Id | null;
  /** "consensus", "empty", or an annotator's username */
  seed: string;
  threshold: number;
  submit: boolean;
  /** The topics selected in the table; none: every topic with two submitted annotations. */
  topics: readonly Id[];
}

export function adjudicateRequest(
  project: Id,
  form: AdjudicateForm,
): { request: AdjudicateRequest | null; errors: string[] } {
  const errors: string[] = [];
  if (form.adjudicator === null) errors.push("Choose the adjudicator.");
  if (!form.seed.trim()) errors.push("Choose what the adjudication starts from.");
  if (!(form.threshold >= 0 && form.threshold < 1))
    errors.push("The threshold is at least 0 and below 1.");
  if (errors.length || form.adjudicator === null) return { request: null, errors };
  return {
    request: {
      project,
      user: form.adjudicator,
      topics: [...form.topics],
      seed: form.seed.trim(),
      threshold: form.threshold,
      submit: form.submit,
    },
    errors,
  };
}

export function adjudicatedText(answer: AdjudicationsCreated): string {
  const parts = [
    `${answer.created.length} adjudication${answer.created.length === 1 ? "" : "s"} assigned to ${answer.user}`,
  ];
  if (answer.submitted) parts.push(`${answer.submitted} submitted as seeded`);
  if (answer.skipped.length)
    parts.push(`${answer.skipped.length} already adjudicated by ${answer.user}, skipped`);
  return `${parts.join("; ")}.`;
}

export const adjudicate = (body: AdjudicateRequest) =>
  answer(client.POST("/api/adjudications/", { body }));
