// A refusal in the server's words: a field refusal (400 with `fields`) says "Invalid input."
// as its message, the reason is in the fields' messages.

import { ApiError } from "../../api/http";
import { errorText } from "../format";

export function refusalText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = (error.body as { fields?: Record<string, unknown> }).fields;
    const reasons = fields ? Object.values(fields).flat().map(String).filter(Boolean) : [];
    if (reasons.length) return reasons.join(" ");
  }
  return errorText(error);
}
