// A locked assignment (its annotator has not qualified for the project yet) does not open:
// the page says why instead. The server refuses its edits and its submission all the same.

import type { Id } from "../api/types";
import { loadWorkspace, type LoadedWorkspace } from "../workspace/workspace";

export class AssignmentLocked extends Error {}

export async function loadUnlockedWorkspace(assignmentId: Id, load = loadWorkspace): Promise<LoadedWorkspace> {
  const loaded = await load(assignmentId);
  if (loaded.assignment?.locked) throw new AssignmentLocked(loaded.assignment.locked);
  return loaded;
}
