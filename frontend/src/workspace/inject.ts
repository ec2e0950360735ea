// What a workspace gives its components: one injection per store or service, so a component
// takes what it uses and none gets the whole workspace. The workspace view provides them
// (provideWorkspace) for its own workspace; the composables below read them.

import { inject, type InjectionKey, provide } from "vue";
import type { Scheme } from "../keyboard/keymap";
import type { ClusterColors } from "./clusterColors";
import { provideKeyDispatcher } from "../keyboard/useKeyContext";
import type { Commands } from "./commands";
import type { Editing } from "./editing";
import { WORKSPACE_EVENTS } from "./events";
import type { AnnotationView } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import type { Notices } from "./stores/notices";
import type { SuggestionsStore } from "./stores/suggestions";
import type { UiStore } from "./stores/ui";

export { BANK_SHARE } from "./stores/ui";
import type { TopicModel } from "./topicModel";
import type { Workspace } from "./workspace";

/** Whether every edit is saved, and the live connection (the header's save state). */
export type SaveStatus = Pick<Editing, "status" | "socketState" | "retryNow">;

const TOPIC: InjectionKey<TopicModel> = Symbol("topic");
const SCHEMES: InjectionKey<ReadonlySet<Scheme>> = Symbol("schemes");
const ANNOTATION: InjectionKey<AnnotationView> = Symbol("annotation");
const NAVIGATION: InjectionKey<NavigationStore> = Symbol("navigation");
const SUGGESTIONS: InjectionKey<SuggestionsStore> = Symbol("suggestions");
const UI: InjectionKey<UiStore> = Symbol("ui");
const NOTICES: InjectionKey<Notices> = Symbol("notices");
const COMMANDS: InjectionKey<Commands> = Symbol("commands");
const SAVE_STATUS: InjectionKey<SaveStatus> = Symbol("save status");
const CLUSTER_COLORS: InjectionKey<ClusterColors> = Symbol("cluster colours");

/** Give the components below the caller the parts of this workspace (and its keys and events). */
export function provideWorkspace(ws: Workspace): void {
  provide(TOPIC, ws.topic);
  provide(SCHEMES, ws.schemes);
  provide(ANNOTATION, ws.store);
  provide(NAVIGATION, ws.nav);
  provide(SUGGESTIONS, ws.suggestions);
  provide(UI, ws.ui);
  provide(NOTICES, ws.notices);
  provide(COMMANDS, ws.commands);
  provide(SAVE_STATUS, ws.editing);
  provide(CLUSTER_COLORS, ws.clusterColors);
  provide(WORKSPACE_EVENTS, ws.events);
  provideKeyDispatcher(ws.keys);
}

function injected<T>(key: InjectionKey<T>): T {
  const value = inject(key);
  if (value === undefined)
    throw new Error(`No ${key.description} here: it is provided inside a workspace view only.`);
  return value;
}

/** The topic: its documents, their text and the project's settings (read-only). */
export const useTopic = (): TopicModel => injected(TOPIC);
/** The project's key schemes (which parts of the keymap apply). */
export const useSchemes = (): ReadonlySet<Scheme> => injected(SCHEMES);
/** The annotation state, its version and undo/redo availability, to read. */
export const useAnnotation = (): AnnotationView => injected(ANNOTATION);
export const useNavigation = (): NavigationStore => injected(NAVIGATION);
export const useSuggestions = (): SuggestionsStore => injected(SUGGESTIONS);
export const useUi = (): UiStore => injected(UI);
export const useNotices = (): Notices => injected(NOTICES);
/** What the annotator can do (every edit goes through these). */
export const useCommands = (): Commands => injected(COMMANDS);
export const useSaveStatus = (): SaveStatus => injected(SAVE_STATUS);
/** The colour (and, past the palette, the border pattern) of each cluster. */
export const useClusterColors = (): ClusterColors => injected(CLUSTER_COLORS);
