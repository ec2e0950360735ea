// Every key of the workspace, in one table. The help overlay is generated from it and the
// dispatcher (./dispatcher.ts) is its only reader, so a key cannot do something the help
// does not say.

/** Where a binding applies. Modal contexts (dialogs) hide everything below them. */
export type KeyContext = "workspace" | "tree" | "bank" | "search" | "picker" | "dialog" | "selection";

/** Which project scheme a binding belongs to ("any": always). */
export type Scheme = "any" | "hierarchy" | "anaphora" | "dag" | "mentions";

export type CommandId =
  | "assign"
  | "assignNew"
  | "prevCluster"
  | "nextCluster"
  | "nextMention"
  | "prevMention"
  | "nextUnassigned"
  | "searchClusters"
  | "merge"
  | "setParent"
  | "addParent"
  | "moveToRoot"
  | "editNote"
  | "rename"
  | "toggleCollapse"
  | "focusTree"
  | "focusBank"
  | "undo"
  | "redo"
  | "help"
  | "escape"
  | "markAnaphor"
  | "linkType1"
  | "linkType2"
  | "linkType3"
  | "linkType4"
  | "linkType5"
  | "rejectMention"
  | "toggleArcs"
  | "suggest"
  | "acceptSuggestion"
  | "rejectSuggestion"
  | "nextSuggestion"
  | "acceptAbove"
  | "treeAcceptSuggestion"
  | "treeRejectSuggestion"
  | "treeUp"
  | "treeDown"
  | "treeCollapse"
  | "treeExpand"
  | "treeSelect"
  | "treeDetach"
  | "treeFirst"
  | "treeLast"
  | "bankUp"
  | "bankDown"
  | "bankSelect"
  | "searchUp"
  | "searchDown"
  | "searchChoose"
  | "searchCancel"
  | "pickerUp"
  | "pickerDown"
  | "pickerChoose"
  | "pickerCancel"
  | "dialogSave"
  | "dialogCancel"
  | "selectionAdd"
  | "selectionFix"
  | "selectionAddPart"
  | "selectionCancel"
  | "selectText"
  | "selectionLeft"
  | "selectionRight"
  | "selectionExtendLeft"
  | "selectionExtendRight";

export interface KeyBinding {
  /** Normalised key strings, see `keyString`. */
  keys: readonly string[];
  command: CommandId;
  context: KeyContext;
  scheme: Scheme;
  description: string;
  /** Whether the binding also fires while the focus is in a text field. */
  inTextFields?: boolean;
}

const b = (
  context: KeyContext,
  scheme: Scheme,
  keys: string[],
  command: CommandId,
  description: string,
  inTextFields = false,
): KeyBinding => ({ context, scheme, keys, command, description, inTextFields });

export const KEYMAP: readonly KeyBinding[] = [
  // The workspace (CoRefi's keys first: annotators are trained on them).
  b("workspace", "hierarchy", ["Space"], "assign", "Assign the current mention to the selected cluster"),
  b("workspace", "hierarchy", ["Ctrl+Space", "Alt+Space"], "assignNew", "Assign the current mention to a new cluster"),
  b("workspace", "hierarchy", ["ArrowLeft"], "prevCluster", "Select the previous cluster"),
  b("workspace", "hierarchy", ["ArrowRight"], "nextCluster", "Select the next cluster"),
  b("workspace", "any", ["J"], "nextMention", "Next mention"),
  b("workspace", "any", ["K"], "prevMention", "Previous mention"),
  b("workspace", "any", ["U"], "nextUnassigned", "Next mention still to do"),
  b("workspace", "hierarchy", ["/"], "searchClusters", "Search clusters by label or member text"),
  b("workspace", "hierarchy", ["M"], "merge", "Merge the selected cluster into another (pick it, Enter)"),
  b("workspace", "hierarchy", ["P"], "setParent", "Set the parent of the selected cluster (pick it, Enter)"),
  b("workspace", "dag", ["Shift+P"], "addParent", "Add another parent to the selected cluster"),
  b("workspace", "hierarchy", ["R"], "moveToRoot", "Move the selected cluster to the top level"),
  b("workspace", "hierarchy", ["N"], "editNote", "Edit the note of the selected cluster"),
  b("workspace", "hierarchy", ["F2"], "rename", "Rename the selected cluster"),
  b("workspace", "hierarchy", ["C"], "toggleCollapse", "Collapse or expand the selected cluster in the hierarchy"),
  b("workspace", "hierarchy", ["T"], "focusTree", "Go to the hierarchy tree"),
  b("workspace", "hierarchy", ["B"], "focusBank", "Go to the cluster bank"),
  b("workspace", "anaphora", ["A"], "markAnaphor", "Take the current mention as the anaphor of a new link"),
  b("workspace", "anaphora", ["1"], "linkType1", "Link the anaphor to the current mention: COREFERENCE"),
  b("workspace", "anaphora", ["2"], "linkType2", "… TRANSFORMED"),
  b("workspace", "anaphora", ["3"], "linkType3", "… REACTION_ASSOCIATED"),
  b("workspace", "anaphora", ["4"], "linkType4", "… WORK_UP"),
  b("workspace", "anaphora", ["5"], "linkType5", "… CONTAINED"),
  b("workspace", "anaphora", ["L"], "toggleArcs", "Draw all links of the documents, or only those of the current mention"),
  b("workspace", "mentions", ["Delete"], "rejectMention", "Reject the current mention (not a real mention)"),
  b("workspace", "mentions", ["V"], "selectText", "Select text by keyboard, from the current mention's first word"),
  // Model suggestions (the Suggestions panel).
  b("workspace", "any", ["Shift+S"], "suggest", "Suggest: ask the model for suggestions on this topic"),
  b("workspace", "any", ["Y"], "acceptSuggestion", "Accept the suggestion shown for the current mention (its cluster, or the chosen link)"),
  b("workspace", "any", ["X"], "rejectSuggestion", "Reject the suggestion shown for the current mention"),
  b("workspace", "any", ["G"], "nextSuggestion", "Go to the next open suggestion"),
  b("workspace", "any", ["Shift+Y"], "acceptAbove", "Accept every suggestion above a score… (choose it, Enter)"),
  b("workspace", "any", ["Ctrl+Z", "Meta+Z"], "undo", "Undo"),
  b("workspace", "any", ["Ctrl+Shift+Z", "Meta+Shift+Z", "Ctrl+Y"], "redo", "Redo"),
  b("workspace", "any", ["?"], "help", "Show or hide this help"),
  b("workspace", "any", ["Escape"], "escape", "Cancel (the pending anaphor, a selection)"),
  // The hierarchy tree, when it has the focus.
  b("tree", "hierarchy", ["ArrowUp"], "treeUp", "Tree: previous node"),
  b("tree", "hierarchy", ["ArrowDown"], "treeDown", "Tree: next node"),
  b("tree", "hierarchy", ["ArrowLeft"], "treeCollapse", "Tree: collapse, or go to the parent"),
  b("tree", "hierarchy", ["ArrowRight"], "treeExpand", "Tree: expand, or go to the first child"),
  b("tree", "hierarchy", ["Home"], "treeFirst", "Tree: first node"),
  b("tree", "hierarchy", ["End"], "treeLast", "Tree: last node"),
  b("tree", "hierarchy", ["Enter"], "treeSelect", "Tree: select the node's cluster"),
  b("tree", "hierarchy", ["Delete"], "treeDetach", "Tree: detach the node from the parent it is shown under"),
  b("tree", "hierarchy", ["Y"], "treeAcceptSuggestion", "Tree: accept the suggested edge (a dashed node)"),
  b("tree", "hierarchy", ["X"], "treeRejectSuggestion", "Tree: reject the suggested edge (a dashed node)"),
  // The cluster bank, when it has the focus.
  b("bank", "hierarchy", ["ArrowUp"], "bankUp", "Bank: previous cluster"),
  b("bank", "hierarchy", ["ArrowDown"], "bankDown", "Bank: next cluster"),
  b("bank", "hierarchy", ["Enter"], "bankSelect", "Bank: select the cluster"),
  // The bank's search field (/).
  b("search", "hierarchy", ["ArrowUp"], "searchUp", "Search: previous match", true),
  b("search", "hierarchy", ["ArrowDown"], "searchDown", "Search: next match", true),
  b("search", "hierarchy", ["Enter"], "searchChoose", "Search: select the highlighted cluster", true),
  b("search", "hierarchy", ["Escape"], "searchCancel", "Search: clear and go back", true),
  // Pickers (merge target, parent).
  b("picker", "any", ["ArrowUp"], "pickerUp", "Picker: previous match", true),
  b("picker", "any", ["ArrowDown"], "pickerDown", "Picker: next match", true),
  b("picker", "any", ["Enter"], "pickerChoose", "Picker: choose", true),
  b("picker", "any", ["Escape"], "pickerCancel", "Picker: cancel", true),
  // Text dialogs (rename, note).
  b("dialog", "any", ["Ctrl+Enter", "Enter"], "dialogSave", "Dialog: save (Enter in a rename, Ctrl+Enter in a note)", true),
  b("dialog", "any", ["Escape"], "dialogCancel", "Dialog: cancel", true),
  b("dialog", "any", ["?"], "help", "Help: close"),
  // A text selection in a document (adding and fixing mentions).
  b("selection", "mentions", ["Enter"], "selectionAdd", "Selection: add it as a new mention"),
  b("selection", "mentions", ["F"], "selectionFix", "Selection: make it the span of the current mention"),
  b("selection", "mentions", ["+"], "selectionAddPart", "Selection: add it as another part of the current mention"),
  b("selection", "mentions", ["ArrowLeft"], "selectionLeft", "Selection: move one word left"),
  b("selection", "mentions", ["ArrowRight"], "selectionRight", "Selection: move one word right"),
  b("selection", "mentions", ["Shift+ArrowLeft"], "selectionExtendLeft", "Selection: move its end one word left"),
  b("selection", "mentions", ["Shift+ArrowRight"], "selectionExtendRight", "Selection: move its end one word right"),
  b("selection", "mentions", ["Escape"], "selectionCancel", "Selection: cancel"),
];

export const MODAL_CONTEXTS: ReadonlySet<KeyContext> = new Set(["picker", "dialog"]);

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  metaKey?: boolean;
}

const NAMED: Record<string, string> = { " ": "Space", Esc: "Escape", Del: "Delete" };

/**
 * A key press as the table writes it: modifiers in the order Ctrl, Alt, Meta, Shift, then the
 * key; letters upper-case. Shift is part of the string only for letters and named keys
 * ("Shift+P", "Ctrl+Shift+Z"); for symbols it is already in the character ("?", "+").
 * With Ctrl/Alt/Meta the physical key decides (Alt+letter types other characters on a Mac).
 */
export function keyString(event: KeyLike): string {
  let key = NAMED[event.key] ?? event.key;
  const code = event.code ?? "";
  const withModifier = event.ctrlKey || event.altKey || event.metaKey;
  if (withModifier && code.startsWith("Key")) key = code.slice(3);
  else if (withModifier && code.startsWith("Digit")) key = code.slice(5);
  else if (code === "Space") key = "Space";
  if (key.length === 1) key = key.toUpperCase();
  const letter = /^[A-Z]$/.test(key);
  const named = key.length > 1;
  const parts: string[] = [];
  if (event.ctrlKey) parts.push("Ctrl");
  if (event.altKey) parts.push("Alt");
  if (event.metaKey) parts.push("Meta");
  if (event.shiftKey && (letter || named)) parts.push("Shift");
  parts.push(key);
  return parts.join("+");
}

export function schemesOf(project: {
  hierarchy: boolean;
  anaphora: boolean;
  single_parent: boolean;
  allow_add_mentions: boolean;
  allow_fix_spans: boolean;
  allow_reject_mentions: boolean;
}): Set<Scheme> {
  const schemes = new Set<Scheme>(["any"]);
  if (project.hierarchy) schemes.add("hierarchy");
  if (project.hierarchy && !project.single_parent) schemes.add("dag");
  if (project.anaphora) schemes.add("anaphora");
  if (project.allow_add_mentions || project.allow_fix_spans || project.allow_reject_mentions) schemes.add("mentions");
  return schemes;
}

/** The binding for a key string in a context, among the project's schemes. */
export function lookup(
  keymap: readonly KeyBinding[],
  context: KeyContext,
  key: string,
  schemes: ReadonlySet<Scheme>,
): KeyBinding | undefined {
  return keymap.find((binding) => binding.context === context && schemes.has(binding.scheme) && binding.keys.includes(key));
}
