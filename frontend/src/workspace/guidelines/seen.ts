// Whether an annotator has seen a project's guidelines (or the workspace tour) already:
// remembered in the browser (localStorage, per user and project), so the panel or the tour
// opens by itself only the first time. A new browser shows them once more, which does no
// harm; nothing is sent to the server.

type Seen = "guidelines" | "tour";

const key = (what: Seen, user: number | string, project: number) =>
  `corefapp.${what}-seen.${user}.${project}`;

function seen(what: Seen, user: number | string, project: number, storage: Storage): boolean {
  try {
    return storage.getItem(key(what, user, project)) === "1";
  } catch {
    return true; // storage refused (private mode): never open by itself rather than every time
  }
}

function markSeen(what: Seen, user: number | string, project: number, storage: Storage): void {
  try {
    storage.setItem(key(what, user, project), "1");
  } catch {
    /* nothing to remember it in */
  }
}

export const guidelinesSeen = (
  user: number | string,
  project: number,
  storage: Storage = localStorage,
): boolean => seen("guidelines", user, project, storage);
export const markGuidelinesSeen = (
  user: number | string,
  project: number,
  storage: Storage = localStorage,
): void => markSeen("guidelines", user, project, storage);
export const tourSeen = (
  user: number | string,
  project: number,
  storage: Storage = localStorage,
): boolean => seen("tour", user, project, storage);
export const markTourSeen = (
  user: number | string,
  project: number,
  storage: Storage = localStorage,
): void => markSeen("tour", user, project, storage);
