// Loading a workspace for a page whose route names it (an assignment to annotate, an
// annotation to review): the loaded workspace, or the error that stopped it.
import { ref, watch, type Ref } from "vue";
import { useRoute } from "vue-router";
import type { LoadedWorkspace } from "./workspace";

export function useLoadedWorkspace(
  param: string,
  load: (id: number) => Promise<LoadedWorkspace>,
): { loaded: Ref<LoadedWorkspace | null>; error: Ref<string | null> } {
  const route = useRoute();
  const loaded = ref<LoadedWorkspace | null>(null);
  const error = ref<string | null>(null);
  watch(
    () => Number(route.params[param]),
    async (id) => {
      loaded.value = null;
      error.value = null;
      try {
        loaded.value = await load(id);
      } catch (e) {
        error.value = e instanceof Error ? e.message : String(e);
      }
    },
    { immediate: true },
  );
  return { loaded, error };
}
