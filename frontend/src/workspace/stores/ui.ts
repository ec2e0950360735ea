// The UI store: which overlay is open and how the panels show things. Nothing in it is saved;
// the annotation does not depend on it.

import { reactive } from "vue";
import type { Id, Span } from "../../api/types";
import type { Link } from "../../domain/state";

/** What a cluster picker chooses: a merge target (M), the parent (P) or another parent (Shift+P). */
export type PickerMode = "merge" | "parent" | "addParent";
/** What a text dialog edits: the label (F2) or the note (N) of a cluster. */
export type DialogKind = "rename" | "note";

export interface UiStore {
  // Overlays (modal while open).
  picker: { mode: PickerMode; cluster: Id } | null;
  dialog: { kind: DialogKind; cluster: Id } | null;
  /** The note dialog of a link (Shift+N, or the link list's ✎). */
  linkNote: Link | null;
  help: boolean;
  confirmSubmit: boolean;
  /** The bulk-accept dialog (Shift+Y). */
  bulkAccept: boolean;
  /** Accept or reject every suggestion of one kind (Shift+X). */
  decideAll: boolean;
  /** Add or remove a mention at every occurrence of the selected words (E on a selection). */
  everyOccurrence: { document: Id; spans: Span[] } | null;
  /** Question mode (Q): the model's most uncertain suggestions asked one at a time. */
  questions: boolean;
  /** Query by example (W): the mention whose corpus neighbours are shown (null: a free text). */
  similar: { mention: Id | null } | null;
  /** The last threshold chosen in it. */
  bulkThreshold: number;

  // Panels.
  /** Draw every anaphora link, not only those of the mentions in focus. */
  allArcs: boolean;
  /** Clusters collapsed in the hierarchy tree. */
  collapsed: Set<Id>;
  /** Members of the selected cluster ticked to be split off (S, or the Split button). */
  ticked: Set<Id>;
  /** Anaphora links ticked in the link list (or Shift-clicked on their arcs): 1-5 retypes them all. */
  chosenLinks: Set<string>;
  /** The sign-in dialog is open (the session expired). */
  signIn: boolean;
  /** Draw suggested hierarchy edges in the tree. */
  suggestedEdges: boolean;
  /** The cluster bank's share of the height it splits with the hierarchy (the splitter). */
  bankShare: number;
}

/** The splitter's range, its default and where the browser keeps the chosen share. */
export const BANK_SHARE = {
  min: 0.2,
  max: 0.85,
  initial: 0.58,
  storageKey: "corefapp.bankShare",
} as const;

function savedBankShare(): number {
  try {
    const saved = Number(globalThis.localStorage?.getItem(BANK_SHARE.storageKey));
    if (saved >= BANK_SHARE.min && saved <= BANK_SHARE.max) return saved;
  } catch {
    // no storage: the default
  }
  return BANK_SHARE.initial;
}

export function createUiStore(): UiStore {
  return reactive<UiStore>({
    picker: null,
    dialog: null,
    linkNote: null,
    help: false,
    confirmSubmit: false,
    bulkAccept: false,
    decideAll: false,
    everyOccurrence: null,
    questions: false,
    similar: null,
    bulkThreshold: 0.8,
    allArcs: false,
    collapsed: new Set<Id>(),
    ticked: new Set<Id>(),
    chosenLinks: new Set<string>(),
    signIn: false,
    suggestedEdges: true,
    bankShare: savedBankShare(),
  });
}
