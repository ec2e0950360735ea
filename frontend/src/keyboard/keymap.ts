// Every key of the workspace, in one table. The help overlay is generated from it and the
// dispatcher (./dispatcher.ts) is its only reader, so a key cannot do something the help
// does not say.

/** Where a binding applies. Modal contexts (dialogs) hide everything below them. */
export type KeyContext =
  | "workspace"
  | "tree"
  | "bank"
  | "search"
  | "picker"
  | "dialog"
  | "selection"
  | "validation"
  | "question"
  | "find";

/**
 * Which project setting a binding belongs to ("any": always). "mentions": the project lets
 * annotators change mentions at all; "spans": add or fix them (a text selection);
 * "addMentions", "fixSpans", "rejectMentions": that one setting.
 */
export type Scheme =
  | "any"
  | "hierarchy"
  | "anaphora"
  | "dag"
  | "mentions"
  | "spans"
  | "addMentions"
  | "fixSpans"
  | "rejectMentions"
  | "adjudication"
  | "flags"
  | "validation";

export type CommandId =
  | "flagMention"
  | "nextDisagreement"
  | "prevDisagreement"
  | "adopt"
  | "assign"
  | "assignNew"
  | "prevCluster"
  | "nextCluster"
  | "nextMention"
  | "prevMention"
  | "nextUnassigned"
  | "searchClusters"
  | "merge"
  | "split"
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
  | "guidelines"
  | "nextDifference"
  | "escape"
  | "nextTopic"
  | "markAnaphor"
  | "linkType1"
  | "linkType2"
  | "linkType3"
  | "linkType4"
  | "linkType5"
  | "rejectMention"
  | "toggleArcs"
  | "linkNote"
  | "cycleAttribute"
  | "linkAlso"
  | "nextLink"
  | "prevLink"
  | "followLink"
  | "removeLink"
  | "suggest"
  | "acceptSuggestion"
  | "rejectSuggestion"
  | "nextSuggestion"
  | "acceptAbove"
  | "decideType"
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
  | "selectionEvery"
  | "selectionCancel"
  | "selectText"
  | "selectionLeft"
  | "selectionRight"
  | "selectionExtendLeft"
  | "selectionExtendRight"
  | "selectionSentenceLeft"
  | "selectionSentenceRight"
  | "selectionExtendSentenceLeft"
  | "selectionExtendSentenceRight"
  | "selectionLineUp"
  | "selectionLineDown"
  | "selectionExtendLineUp"
  | "selectionExtendLineDown"
  | "validateAccept"
  | "validateReject"
  | "validateReason1"
  | "validateReason2"
  | "validateReason3"
  | "validateNote"
  | "validateNext"
  | "validatePrev"
  | "validateNextUndecided"
  | "validateOrder"
  | "validateDiffering"
  | "validateCancel"
  | "validateSubmit"
  | "validateNextTopic"
  | "findText"
  | "similarMentions"
  | "findNext"
  | "findPrev"
  | "findClose"
  | "findSelect"
  | "submit"
  | "questions"
  | "questionYes"
  | "questionNo"
  | "questionLink1"
  | "questionLink2"
  | "questionLink3"
  | "questionLink4"
  | "questionLink5"
  | "questionLeave";

export interface KeyBinding {
  /** Normalised key strings, see `keyString`. */
  keys: readonly string[];
  command: CommandId;
  context: KeyContext;
  scheme: Scheme;
  description: string;
  /** Whether the binding also fires while the focus is in a text field. */
  inTextFields?: boolean;
  /** It changes the annotation: a read-only workspace refuses it at once and its help omits it. */
  edits?: boolean;
}

const b = (
  context: KeyContext,
  scheme: Scheme,
  keys: string[],
  command: CommandId,
  description: string,
  inTextFields = false,
): KeyBinding => ({ context, scheme, keys, command, description, inTextFields });

/** A binding that changes the annotation. */
const e = (context: KeyContext, scheme: Scheme, keys: string[], command: CommandId, description: string): KeyBinding => ({
  ...b(context, scheme, keys, command, description),
  edits: true,
});

export const KEYMAP: readonly KeyBinding[] = [
  // Adjudicating (src/workspace/adjudication/): first, so that N and the digits mean this here;
  // the note moves to Alt+N, and after A the digits still choose the link type.
  b("workspace", "adjudication", ["N"], "nextDisagreement", "Next disagreement among the annotators"),
  b("workspace", "adjudication", ["Shift+N"], "prevDisagreement", "Previous disagreement"),
  e(
    "workspace",
    "adjudication",
    ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
    "adopt",
    "Adopt annotator k's decision for the current disagreement (with an anaphor marked by A, 1-5 still link)",
  ),
  e("workspace", "adjudication", ["Alt+N"], "editNote", "Edit the note of the selected cluster"),
  // An annotator's own annotation: a flag for the adjudicator (components/workspace/flags/).
  e("workspace", "flags", ["F"], "flagMention", "Flag the current mention for the adjudicator, with a comment"),
  // The workspace (CoRefi's keys first: annotators are trained on them).
  e("workspace", "hierarchy", ["Space"], "assign", "Assign the current mention to the selected cluster"),
  e("workspace", "hierarchy", ["Ctrl+Space", "Alt+Space"], "assignNew", "Assign the current mention to a new cluster"),
  b("workspace", "hierarchy", ["ArrowLeft"], "prevCluster", "Select the previous cluster"),
  b("workspace", "hierarchy", ["ArrowRight"], "nextCluster", "Select the next cluster"),
  b("workspace", "any", ["J"], "nextMention", "Next mention"),
  b("workspace", "any", ["K"], "prevMention", "Previous mention"),
  b("workspace", "any", ["U"], "nextUnassigned", "Next mention still to do"),
  b("workspace", "hierarchy", ["/"], "searchClusters", "Search clusters by label or member text"),
  e("workspace", "hierarchy", ["M"], "merge", "Merge the selected cluster into another (pick it, Enter)"),
  e(
    "workspace",
    "hierarchy",
    ["S"],
    "split",
    "Split the members ticked in the selected cluster into a new cluster (none ticked: the current mention)",
  ),
  e("workspace", "hierarchy", ["P"], "setParent", "Set the parent of the selected cluster (pick it, Enter)"),
  e("workspace", "dag", ["Shift+P"], "addParent", "Add another parent to the selected cluster"),
  e("workspace", "hierarchy", ["R"], "moveToRoot", "Move the selected cluster to the top level"),
  e("workspace", "hierarchy", ["N"], "editNote", "Edit the note of the selected cluster"),
  e("workspace", "hierarchy", ["F2"], "rename", "Rename the selected cluster"),
  b("workspace", "hierarchy", ["C"], "toggleCollapse", "Collapse or expand the selected cluster in the hierarchy"),
  b("workspace", "hierarchy", ["T"], "focusTree", "Go to the hierarchy tree"),
  b("workspace", "hierarchy", ["B"], "focusBank", "Go to the cluster bank"),
  e("workspace", "anaphora", ["A"], "markAnaphor", "Take the current mention as the anaphor of a new link"),
  e(
    "workspace",
    "anaphora",
    ["1"],
    "linkType1",
    "Link the anaphor to the current mention (a pair linked already changes type); with no anaphor, change the current link, or the links ticked in the list, to: COREFERENCE",
  ),
  e("workspace", "anaphora", ["2"], "linkType2", "… TRANSFORMED"),
  e("workspace", "anaphora", ["3"], "linkType3", "… REACTION_ASSOCIATED"),
  e("workspace", "anaphora", ["4"], "linkType4", "… WORK_UP"),
  e("workspace", "anaphora", ["5"], "linkType5", "… CONTAINED"),
  e("workspace", "anaphora", ["Shift+N"], "linkNote", "Write a note on the current mention's link (Ctrl+Enter saves)"),
  e(
    "workspace",
    "any",
    ["Ctrl+Alt+1", "Ctrl+Alt+2", "Ctrl+Alt+3", "Ctrl+Alt+4", "Ctrl+Alt+5", "Ctrl+Alt+6", "Ctrl+Alt+7", "Ctrl+Alt+8", "Ctrl+Alt+9"],
    "cycleAttribute",
    "Set the project's attribute k of the current mention's link (no link: of the selected cluster) to its next value; after the last, none",
  ),
  e("workspace", "anaphora", ["Alt+1", "Alt+2", "Alt+3", "Alt+4", "Alt+5"], "linkAlso", "Link the anaphor to the current mention with a second type, keeping the pair's link"),
  b("workspace", "anaphora", ["]"], "nextLink", "Next link of the current mention: it becomes the current link (bold, and marked in the list)"),
  b("workspace", "anaphora", ["["], "prevLink", "Previous link of the current mention"),
  b("workspace", "anaphora", ["O"], "followLink", "Go to the other end of the current link, scrolled into view however far (O again: back)"),
  e("workspace", "anaphora", ["Shift+Delete"], "removeLink", "Remove the current link (Delete alone rejects the mention)"),
  b("workspace", "anaphora", ["L"], "toggleArcs", "Draw all links of the documents, or only those of the current mention"),
  e("workspace", "rejectMentions", ["Delete"], "rejectMention", "Reject the current mention (not a real mention)"),
  e("workspace", "spans", ["V"], "selectText", "Select text by keyboard, from the current mention's first word"),
  // Model suggestions (the Suggestions panel).
  e("workspace", "any", ["Shift+S"], "suggest", "Suggest: ask the model for suggestions on this topic"),
  e("workspace", "any", ["Y"], "acceptSuggestion", "Accept the suggestion shown: the current mention's cluster, the chosen link, or a chosen suggested mention (dashed in the text)"),
  e("workspace", "any", ["X"], "rejectSuggestion", "Reject the suggestion shown (a suggested mention: dashed in the text)"),
  b("workspace", "any", ["G"], "nextSuggestion", "Go to the next open suggestion (suggested mentions included)"),
  e("workspace", "any", ["Q"], "questions", "Questions: the model asks its most uncertain decisions one at a time (Q or Escape: leave)"),
  e("workspace", "any", ["Shift+Y"], "acceptAbove", "Accept every suggestion above a score… (choose it, Enter)"),
  e("workspace", "any", ["Shift+X"], "decideType", "Accept or reject every suggestion of one type… (a link type, suggested mentions, …; one undo step)"),
  e("workspace", "any", ["Ctrl+Z", "Meta+Z"], "undo", "Undo"),
  e("workspace", "any", ["Ctrl+Shift+Z", "Meta+Shift+Z", "Ctrl+Y"], "redo", "Redo"),
  b("workspace", "any", ["?"], "help", "Show or hide this help"),
  b("workspace", "any", ["I"], "guidelines", "Show or hide the project's guidelines"),
  b("workspace", "any", ["D"], "nextDifference", "Practice results: go to the next difference from gold"),
  b(
    "workspace",
    "any",
    ["W"],
    "similarMentions",
    "What else the corpus means by it: the mentions most like the current one across the project's corpus, in their sentences, with how gold and your topics clustered them; or look up any text (Escape: close). Needs a corpus encoded for the project: an admin imports and encodes one on the Corpora page",
  ),
  b("workspace", "any", ["Ctrl+F", "Meta+F"], "findText", "Find in the documents' text (every document, not only those on screen)", true),
  b("workspace", "any", ["Escape"], "escape", "Cancel the pending anaphor (and close the messages); else close the messages, or leave a field"),
  // Ctrl+Enter, not a letter: it cannot be hit while typing or by a slip, and it only asks.
  e("workspace", "any", ["Ctrl+Enter", "Meta+Enter"], "submit", "Submit the topic (asks first; Ctrl+Enter or Enter confirms)"),
  b("workspace", "any", ["Enter"], "nextTopic", "After submitting: open the next topic to do"),
  // The hierarchy tree, when it has the focus.
  b("tree", "hierarchy", ["ArrowUp"], "treeUp", "Tree: previous node"),
  b("tree", "hierarchy", ["ArrowDown"], "treeDown", "Tree: next node"),
  b("tree", "hierarchy", ["ArrowLeft"], "treeCollapse", "Tree: collapse, or go to the parent"),
  b("tree", "hierarchy", ["ArrowRight"], "treeExpand", "Tree: expand, or go to the first child"),
  b("tree", "hierarchy", ["Home"], "treeFirst", "Tree: first node"),
  b("tree", "hierarchy", ["End"], "treeLast", "Tree: last node"),
  b("tree", "hierarchy", ["Enter"], "treeSelect", "Tree: select the node's cluster"),
  e("tree", "hierarchy", ["Delete"], "treeDetach", "Tree: detach the node from the parent it is shown under"),
  e("tree", "hierarchy", ["Y"], "treeAcceptSuggestion", "Tree: accept the suggested edge (a dashed node)"),
  e("tree", "hierarchy", ["X"], "treeRejectSuggestion", "Tree: reject the suggested edge (a dashed node)"),
  // The cluster bank, when it has the focus.
  b("bank", "hierarchy", ["ArrowUp"], "bankUp", "Bank: previous cluster"),
  b("bank", "hierarchy", ["ArrowDown"], "bankDown", "Bank: next cluster"),
  b("bank", "hierarchy", ["Enter"], "bankSelect", "Bank: select the cluster"),
  // The bank's search field (/).
  b("search", "hierarchy", ["ArrowUp"], "searchUp", "Search: previous match", true),
  b("search", "hierarchy", ["ArrowDown"], "searchDown", "Search: next match", true),
  b("search", "hierarchy", ["Enter"], "searchChoose", "Search: select the highlighted cluster", true),
  b("search", "hierarchy", ["Escape"], "searchCancel", "Search: clear and go back", true),
  // Find in text (Ctrl+F), while its field is open.
  b("find", "any", ["Enter"], "findNext", "Find: next match", true),
  b("find", "any", ["Shift+Enter"], "findPrev", "Find: previous match", true),
  b("find", "any", ["Escape"], "findClose", "Find: close", true),
  b("find", "spans", ["Alt+Enter"], "findSelect", "Find: select the match shown as text (then the selection's keys move it)", true),
  // Pickers (merge target, parent): hierarchy projects only.
  b("picker", "hierarchy", ["ArrowUp"], "pickerUp", "Picker: previous match", true),
  b("picker", "hierarchy", ["ArrowDown"], "pickerDown", "Picker: next match", true),
  b("picker", "hierarchy", ["Enter"], "pickerChoose", "Picker: choose", true),
  b("picker", "hierarchy", ["Escape"], "pickerCancel", "Picker: cancel", true),
  // Dialogs (rename, note, submit, accept above a score, sign in).
  b("dialog", "any", ["Ctrl+Enter", "Enter"], "dialogSave", "Dialog: save or confirm (Enter; Ctrl+Enter in a note)", true),
  b("dialog", "any", ["Escape"], "dialogCancel", "Dialog: cancel", true),
  b("dialog", "any", ["?"], "help", "Help: close"),
  // A text selection in a document (adding and fixing mentions).
  e("selection", "addMentions", ["Enter"], "selectionAdd", "Selection: add it as a new mention"),
  e("selection", "fixSpans", ["F"], "selectionFix", "Selection: make it the span of the current mention"),
  e("selection", "fixSpans", ["+"], "selectionAddPart", "Selection: add it as another part of the current mention"),
  e(
    "selection",
    "mentions",
    ["E"],
    "selectionEvery",
    "Selection: add a mention at every occurrence of its words in the topic, or reject every mention of them… (counts first; one undo step)",
  ),
  b("selection", "spans", ["ArrowLeft", "Ctrl+ArrowLeft"], "selectionLeft", "Selection: move one word left"),
  b("selection", "spans", ["ArrowRight", "Ctrl+ArrowRight"], "selectionRight", "Selection: move one word right"),
  b("selection", "spans", ["Shift+ArrowLeft", "Ctrl+Shift+ArrowLeft"], "selectionExtendLeft", "Selection: move its end one word left"),
  b("selection", "spans", ["Shift+ArrowRight", "Ctrl+Shift+ArrowRight"], "selectionExtendRight", "Selection: move its end one word right"),
  b("selection", "spans", ["Alt+ArrowLeft"], "selectionSentenceLeft", "Selection: to the start of the sentence (again: the previous one)"),
  b("selection", "spans", ["Alt+ArrowRight"], "selectionSentenceRight", "Selection: to the first word of the next sentence"),
  b("selection", "spans", ["Alt+Shift+ArrowLeft"], "selectionExtendSentenceLeft", "Selection: move its end to the sentence's start"),
  b("selection", "spans", ["Alt+Shift+ArrowRight"], "selectionExtendSentenceRight", "Selection: move its end to the sentence's end"),
  b("selection", "spans", ["ArrowUp"], "selectionLineUp", "Selection: to the word on the line above"),
  b("selection", "spans", ["ArrowDown"], "selectionLineDown", "Selection: to the word on the line below"),
  b("selection", "spans", ["Shift+ArrowUp"], "selectionExtendLineUp", "Selection: move its end one line up"),
  b("selection", "spans", ["Shift+ArrowDown"], "selectionExtendLineDown", "Selection: move its end one line down"),
  b("selection", "spans", ["Escape"], "selectionCancel", "Selection: cancel"),
  // Question mode (Q): one question at a time, answered with one key (docs/questions.md).
  e("question", "any", ["Y"], "questionYes", "Question: yes (a link: of the type the model suggests)"),
  e("question", "any", ["N", "X"], "questionNo", "Question: no (the suggestion is rejected, as X does in the panel)"),
  e("question", "anaphora", ["1"], "questionLink1", "Link question: yes, as COREFERENCE"),
  e("question", "anaphora", ["2"], "questionLink2", "… TRANSFORMED"),
  e("question", "anaphora", ["3"], "questionLink3", "… REACTION_ASSOCIATED"),
  e("question", "anaphora", ["4"], "questionLink4", "… WORK_UP"),
  e("question", "anaphora", ["5"], "questionLink5", "… CONTAINED"),
  b("question", "any", ["Escape"], "questionLeave", "Leave the question mode (Ctrl+Z still undoes the last answer)"),
  // The validation workspace (src/validation/): one mention at a time, accept or reject.
  e("validation", "validation", ["Y"], "validateAccept", "Accept the mention: it belongs to the cluster"),
  e("validation", "validation", ["X"], "validateReject", "Reject the mention, then give the reason (1-3)"),
  e("validation", "validation", ["1"], "validateReason1", "After X: reject for the first reason"),
  e("validation", "validation", ["2"], "validateReason2", "After X: … the second reason"),
  e("validation", "validation", ["3"], "validateReason3", "After X: … the third reason"),
  b("validation", "validation", ["N"], "validateNote", "Write a note for the decision (Enter: back to the keys)"),
  b("validation", "validation", ["J", "ArrowDown"], "validateNext", "Next mention"),
  b("validation", "validation", ["K", "ArrowUp"], "validatePrev", "Previous mention"),
  b("validation", "validation", ["U"], "validateNextUndecided", "Next mention still to decide"),
  b("validation", "validation", ["O"], "validateOrder", "Order: least confident first, document order, cluster by cluster"),
  b("validation", "validation", ["D"], "validateDiffering", "Adjudicating: only the mentions the validators decided differently"),
  b("validation", "validation", ["Escape"], "validateCancel", "Cancel the rejection"),
  e("validation", "validation", ["Ctrl+Enter", "Meta+Enter"], "validateSubmit", "Submit the topic (asks first; Enter confirms)"),
  b("validation", "validation", ["Enter"], "validateNextTopic", "After submitting: open the next topic to do"),
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
  if (project.allow_add_mentions || project.allow_fix_spans) schemes.add("spans");
  if (project.allow_add_mentions) schemes.add("addMentions");
  if (project.allow_fix_spans) schemes.add("fixSpans");
  if (project.allow_reject_mentions) schemes.add("rejectMentions");
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
