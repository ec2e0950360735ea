// What a project's retraining starts from (docs/learning.md): an encoder folder the server
// allows and the cross-encoder's training profile, as the learning panel offers and words them.

import type { LearnProfile, SuggestionSettings } from "../../api/adminTypes";
import { ApiError } from "../../api/http";

/** Every profile the schema knows, in an admin's words: a Record, so a profile added on the
 * server (and to the generated types) fails the build until it has a label here. */
export const PROFILE_LABELS: Record<LearnProfile, string> = {
  default: "default",
  "scico-b2": "SciCo B.2 recipe (batch 128, linear head, fp32)",
};

export const PROFILES = Object.keys(PROFILE_LABELS) as LearnProfile[];

/** The saved profile as the select's value (the settings send it as a plain string). */
export function profileOf(settings: Pick<SuggestionSettings, "learn_profile">): LearnProfile {
  const found = PROFILES.find((p) => p === settings.learn_profile);
  return found ?? "default";
}

/** The server's reason for refusing the encoder folder (a folder outside the allowed ones), to
 * show beside the field; null for any other failure, which the panel's line reports. The
 * server's message starts with the parameter's name, which the field beside it already says. */
export function encoderRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { parameter?: unknown; fields?: Record<string, unknown> };
  if (body.parameter === "learn_encoder") return error.message.replace(/^learn_encoder:\s*/, "");
  const reasons = body.fields?.learn_encoder;
  return reasons === undefined ? null : [reasons].flat().map(String).join(" ");
}

/** What the panel says once the settings are saved (the folder as the server resolved it). */
export function learnFromSaved(
  settings: Pick<SuggestionSettings, "learn_encoder" | "learn_profile">,
): string {
  const encoder = settings.learn_encoder || "the packaged MiniLM";
  return `Retraining starts from ${encoder}, with the ${PROFILE_LABELS[profileOf(settings)]} training profile.`;
}
