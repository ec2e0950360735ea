// When a suggestion was first shown: the start of its acceptance latency on the progress
// page (reporting/domain/time_spent.py; Potato's rubber-stamping check). The suggestion the
// keys act on (the focus) is the one in front of the annotator; the first time each one
// becomes the focus is recorded and sent in small batches. The browser sends how long ago
// (age_ms), not a time of its own clock, so the server places the display on its own clock,
// the one the acceptance is logged on.

import { NetworkError } from "../api/http";
import type { Id } from "../api/types";
import type { Focus } from "./suggestionFocus";

export interface ShownItem {
  suggestion: Id;
  age_ms: number;
}

/** The suggestion a focus shows. */
export function focusedSuggestion(focus: Focus | null): Id | null {
  if (!focus) return null;
  return focus.kind === "membership" ? focus.open.item.suggestion : focus.item.suggestion;
}

export function createShownRecorder(
  send: (shown: ShownItem[]) => Promise<unknown>,
  { now = () => performance.now(), delay = 250 }: { now?: () => number; delay?: number } = {},
) {
  const seen = new Set<Id>();
  let pending: { suggestion: Id; at: number }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    const t = now();
    const items = batch.map((p) => ({
      suggestion: p.suggestion,
      age_ms: Math.max(0, Math.round(t - p.at)),
    }));
    Promise.resolve()
      .then(() => send(items))
      .catch((error) => {
        // Offline: keep them for the next batch, with their first display time. Refused (a
        // submitted, read-only topic): nothing to time there, drop them.
        if (error instanceof NetworkError) pending = [...batch, ...pending];
      });
  }

  return {
    shown(suggestion: Id): void {
      if (seen.has(suggestion)) return;
      seen.add(suggestion);
      pending.push({ suggestion, at: now() });
      if (timer === null) timer = setTimeout(flush, delay);
    },
    flush,
    dispose(): void {
      flush();
    },
  };
}
