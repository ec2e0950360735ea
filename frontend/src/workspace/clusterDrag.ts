// Dragging a cluster (from the bank or the tree) onto the hierarchy: one data type, written
// by every drag source and read by every drop target, so they cannot drift apart.

import type { Id } from "../api/types";

const CLUSTER_TYPE = "application/x-cluster";

export function startClusterDrag(event: DragEvent, cluster: Id, label: string): void {
  event.dataTransfer?.setData(CLUSTER_TYPE, String(cluster));
  event.dataTransfer?.setData("text/plain", label);
  if (event.dataTransfer) event.dataTransfer.effectAllowed = "linkMove";
}

/** Whether a drag carries a cluster (checked on dragover, when the data cannot be read yet). */
export function carriesCluster(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes(CLUSTER_TYPE) ?? false;
}

/** The dragged cluster on drop, or null when the drag carried none. */
export function droppedCluster(event: DragEvent): Id | null {
  const data = event.dataTransfer?.getData(CLUSTER_TYPE) ?? "";
  const cluster = Number(data);
  return data !== "" && Number.isFinite(cluster) ? cluster : null;
}
