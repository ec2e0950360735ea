// The notices store, the workspace's status line: messages to the user, `status` (polite,
// e.g. "Saved") and `alert` (a refusal, a conflict, lost connection), rendered in
// role=status / role=alert regions.

import { reactive } from "vue";

export interface Notice {
  id: number;
  kind: "status" | "alert";
  text: string;
  details: string[];
}

export interface Notices {
  readonly items: Notice[];
  status(text: string, details?: string[]): void;
  alert(text: string, details?: string[]): void;
  dismiss(id: number): void;
}

export function createNotices(options: { statusMs?: number; maxAlerts?: number } = {}): Notices {
  const items = reactive<Notice[]>([]);
  let next = 1;
  const statusMs = options.statusMs ?? 5000;
  const maxAlerts = options.maxAlerts ?? 3;
  const dismiss = (id: number) => {
    const index = items.findIndex((n) => n.id === id);
    if (index >= 0) items.splice(index, 1);
  };
  return {
    items,
    status(text, details = []) {
      for (const old of items.filter((n) => n.kind === "status")) dismiss(old.id);
      const id = next++;
      items.push({ id, kind: "status", text, details });
      setTimeout(() => dismiss(id), statusMs);
    },
    alert(text, details = []) {
      const alerts = items.filter((n) => n.kind === "alert");
      for (const old of alerts.slice(0, Math.max(0, alerts.length - maxAlerts + 1))) dismiss(old.id);
      items.push({ id: next++, kind: "alert", text, details });
    },
    dismiss,
  };
}
