// The project an admin page is about: loaded once by ProjectLayout, provided to its tabs.

import { inject, type InjectionKey, type Ref } from "vue";
import type { ProjectRow } from "../../api/adminTypes";

export interface ProjectContext {
  project: Ref<ProjectRow>;
  reload(): Promise<void>;
}

export const PROJECT_KEY: InjectionKey<ProjectContext> = Symbol("admin-project");

export function useProject(): ProjectContext {
  const context = inject(PROJECT_KEY);
  if (!context) throw new Error("useProject() outside a project page");
  return context;
}

export function schemeNames(project: Pick<ProjectRow, "hierarchy" | "anaphora">): string[] {
  return [project.hierarchy && "hierarchy", project.anaphora && "anaphora"].filter((s): s is string => Boolean(s));
}
