// Opening an assignment, as onboarding needs it:
// - a locked assignment (its annotator has not qualified for the project yet) does not open:
//   the page says why instead (the server refuses its edits and its submission all the same);
// - a guided practice topic opened for the first time gets what CoRefi places itself (the
//   mention its file asks nothing about) before the workspace loads, so the annotator starts
//   at the first decision, with that mention's cluster selected.

import type { Id } from "../api/types";
import { loadWorkspace, type LoadedWorkspace } from "../workspace/workspace";
import { onboardingApi } from "./api";

export class AssignmentLocked extends Error {}

export async function loadUnlockedWorkspace(
  assignmentId: Id,
  load = loadWorkspace,
  start = onboardingApi.startGuided,
): Promise<LoadedWorkspace> {
  const loaded = await load(assignmentId);
  if (loaded.assignment?.locked) throw new AssignmentLocked(loaded.assignment.locked);
  if (loaded.assignment?.practice === "guided" && loaded.annotation.version === 0) {
    const { placed } = await start(assignmentId);
    if (placed > 0) return load(assignmentId);
  }
  return loaded;
}
