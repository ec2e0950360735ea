// The notices store, the workspace's status line: messages to the user, `status` (polite,
// e.g. "Saved") and `alert` (a refusal, a conflict, lost connection), rendered in
// role=status / role=alert regions.
//
// Notices must not bury the text: a status goes after a few seconds, an alert
// after a little longer unless it is sticky (a conflict, a locked topic: the user must read
// it), the same alert again is counted rather than stacked, at most `maxAlerts` show, Escape
// clears them all (clear), and a refusal goes once a later edit is applied (clearTag).

import { reactive } from "vue";

export interface Notice {
  id: number;
  kind: "status" | "alert";
  text: string;
  details: string[];
  /** How many times this same alert came (shown as ×N). */
  count: number;
  tag?: string;
}

export interface AlertOptions {
  /** Stays until dismissed (Escape, ✕). */
  sticky?: boolean;
  /** A group that clearTag removes at once (e.g. "refused"). */
  tag?: string;
}

export interface Notices {
  readonly items: Notice[];
  status(text: string, details?: string[]): void;
  alert(text: string, details?: string[], options?: AlertOptions): void;
  dismiss(id: number): void;
  /** Dismiss every notice (Escape). */
  clear(): void;
  clearTag(tag: string): void;
  /** What a screen reader says after a key that shows nothing in words (an edit saved, a
   * cluster selected): read from an off-screen polite region, never shown. */
  readonly spoken: { text: string };
  announce(text: string): void;
}

export function createNotices(options: { statusMs?: number; alertMs?: number; maxAlerts?: number } = {}): Notices {
  const items = reactive<Notice[]>([]);
  const spoken = reactive({ text: "" });
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  const statusMs = options.statusMs ?? 5000;
  const alertMs = options.alertMs ?? 12000;
  const maxAlerts = options.maxAlerts ?? 2;
  const dismiss = (id: number) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    const index = items.findIndex((n) => n.id === id);
    if (index >= 0) items.splice(index, 1);
  };
  const expire = (id: number, ms: number) => {
    clearTimeout(timers.get(id));
    timers.set(
      id,
      setTimeout(() => dismiss(id), ms),
    );
  };
  return {
    items,
    spoken,
    // The same words twice must still be spoken: a region reads only what changed.
    announce(text) {
      spoken.text = spoken.text === text ? `${text}\u00a0` : text;
    },
    status(text, details = []) {
      for (const old of items.filter((n) => n.kind === "status")) dismiss(old.id);
      const id = next++;
      items.push({ id, kind: "status", text, details, count: 1 });
      expire(id, statusMs);
    },
    alert(text, details = [], { sticky = false, tag }: AlertOptions = {}) {
      const same = items.find((n) => n.kind === "alert" && n.text === text && n.details.join("\n") === details.join("\n"));
      if (same) {
        same.count += 1;
        if (!sticky) expire(same.id, alertMs);
        return;
      }
      const alerts = items.filter((n) => n.kind === "alert");
      for (const old of alerts.slice(0, Math.max(0, alerts.length - maxAlerts + 1))) dismiss(old.id);
      const id = next++;
      items.push({ id, kind: "alert", text, details, count: 1, tag });
      if (!sticky) expire(id, alertMs);
    },
    dismiss,
    clear() {
      for (const n of [...items]) dismiss(n.id);
    },
    clearTag(tag) {
      for (const n of items.filter((n) => n.tag === tag)) dismiss(n.id);
    },
  };
}
