// What the workspace's save indicator says (SyncStatus.vue): saved, saving, queued, offline
// and retrying, restoring a backup, signed out.

import type { QueueStatus } from "./operationQueue";
import { countOf } from "./plural";

export function syncText(status: QueueStatus, now: number): string {
  if (status.paused)
    return `Signed out: ${countOf(status.queued, "edit")} kept until you sign in again`;
  if (status.offline) {
    const wait =
      status.retryAt === null ? 0 : Math.max(0, Math.ceil((status.retryAt - now) / 1000));
    const retrying = `retrying${wait ? ` in ${wait} s` : "…"}`;
    // The server answers but refuses writes while a backup is restored: nothing is lost.
    if (status.restoring)
      return `Restoring a backup: ${countOf(status.queued, "edit")} queued, ${retrying}`;
    return `Server unreachable: ${countOf(status.queued, "edit")} queued, ${retrying}`;
  }
  if (status.queued > 0) return status.queued > 1 ? `Saving… (${status.queued} queued)` : "Saving…";
  return "All changes saved";
}
