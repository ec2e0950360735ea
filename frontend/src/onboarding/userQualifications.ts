// Every user's qualification rows, fetched once for all the cells of the users page that ask
// within the same moment (one request, not one per row), and changed by hand from there.

import { ref } from "vue";
import { onboardingApi, type UserQualification } from "./api";

const rows = ref<UserQualification[]>([]);
const error = ref<string | null>(null);
let pending: Promise<void> | null = null;

async function reload(): Promise<void> {
  try {
    rows.value = await onboardingApi.users();
    error.value = null;
  } catch (e) {
    error.value = e instanceof Error ? e.message : String(e);
  }
}

export function useUserQualifications() {
  if (!pending) pending = reload().finally(() => setTimeout(() => (pending = null), 0));
  async function set(row: UserQualification, qualified: boolean): Promise<void> {
    const note = window.prompt(
      `${qualified ? "Qualify" : "Unqualify"} in ${row.project_name}: why? (kept in the log)`,
      "",
    );
    if (note === null) return;
    try {
      await onboardingApi.qualify(row.project, row.user, qualified, note);
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
    await reload();
  }
  return { rows, error, set };
}
