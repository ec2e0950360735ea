// Numbers, durations and statuses as the admin pages write them.

const STATUS_LABELS: Record<string, string> = {
  assigned: "To do",
  in_progress: "In progress",
  submitted: "Submitted",
  reopened: "Reopened",
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** Seconds of work as "45 s", "12 min", "2 h 05 min". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export function dateTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** A fraction in [0, 1] as a percentage with one decimal ("81.2 %"). */
export function percentText(value: number | null, digits = 1): string {
  return value === null || Number.isNaN(value) ? "—" : `${(value * 100).toFixed(digits)} %`;
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? word : many}`;
}

/** The message of anything thrown, for an alert. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
