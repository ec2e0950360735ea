// Whether an annotator has seen a project's guidelines already: remembered in the browser
// (localStorage, per user and project), so the panel opens by itself only the first time.
// A new browser shows them once more, which does no harm; nothing is sent to the server.

const key = (user: number | string, project: number) => `corefapp.guidelines-seen.${user}.${project}`;

export function guidelinesSeen(user: number | string, project: number, storage: Storage = localStorage): boolean {
  try {
    return storage.getItem(key(user, project)) === "1";
  } catch {
    return true; // storage refused (private mode): never open by itself rather than every time
  }
}

export function markGuidelinesSeen(user: number | string, project: number, storage: Storage = localStorage): void {
  try {
    storage.setItem(key(user, project), "1");
  } catch {
    /* nothing to remember it in */
  }
}
