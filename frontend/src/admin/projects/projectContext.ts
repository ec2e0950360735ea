// The project an admin page is about: loaded once by ProjectLayout, provided to its tabs.

import { inject, type InjectionKey, type Ref } from "vue";
import type { ProjectRow } from "../../api/adminTypes";

export interface ProjectContext {
  project: Ref<ProjectRow>;
  reload: () => Promise<void>;
}

export const PROJECT_KEY: InjectionKey<ProjectContext> = Symbol("admin-project");

export function useProject(): ProjectContext {
  const context = inject(PROJECT_KEY);
  if (!context) throw new Error("useProject() outside a project page");
  return context;
}

/** The badges of a project's schemes (validation is a scheme of its own: WEC's mode). */
export function schemeNames(
  project: Pick<ProjectRow, "hierarchy" | "anaphora"> & { validation?: boolean },
): string[] {
  return [
    project.hierarchy && "hierarchy",
    project.anaphora && "anaphora",
    project.validation && "validation",
  ].filter((s): s is string => Boolean(s));
}
