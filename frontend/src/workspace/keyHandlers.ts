// What each workspace-level command of the keymap does. Panels (tree, bank, pickers, dialogs)
// register their own commands with the same dispatcher when they mount.

import type { KeyHandler } from "../keyboard/dispatcher";
import type { CommandId } from "../keyboard/keymap";
import { LINK_TYPES } from "../api/types";
import type { Link } from "../domain/state";
import { readOnlyText } from "./editing";
import type { Workspace } from "./workspace";

export type KeyHandlerDeps = Pick<
  Workspace,
  | "commands"
  | "nav"
  | "ui"
  | "events"
  | "notices"
  | "store"
  | "suggestions"
  | "reviewing"
  | "assignment"
>;

export function workspaceKeyHandlers(deps: KeyHandlerDeps): Partial<Record<CommandId, KeyHandler>> {
  const { commands, nav, ui, events, notices, store, suggestions } = deps;
  /** 1-5: with no anaphor pending, the links ticked in the link list take the type (and are
   * unticked); else the type goes to the new link or the current one. */
  const typeKey = (index: number) => {
    let chosen: Link[] = [];
    if (nav.anaphor.value === null && ui.chosenLinks.size > 0) {
      chosen = [...ui.chosenLinks].flatMap((key) => store.state.value.links.get(key) ?? []);
      ui.chosenLinks.clear();
    }
    commands.linkByIndex(index, chosen);
  };
  const withSelected = (what: string, run: (cluster: number) => void) => () => {
    const cluster = commands.requireSelected(what);
    if (cluster !== null) run(cluster);
  };
  // Selecting a cluster changes only colours: say which one it is.
  const announceSelected = () => {
    const selected = nav.selected.value;
    if (selected === null) return;
    const size = store.state.value.clusters.get(selected)?.members.size ?? 0;
    notices.announce(
      `Selected ${commands.clusterLabel(selected)}, ${size === 1 ? "1 mention" : `${size} mentions`}.`,
    );
  };
  return {
    assign: () => commands.assignCurrent(false),
    assignNew: () => commands.assignCurrent(true),
    prevCluster: () => {
      nav.selectRelative(-1);
      announceSelected();
    },
    nextCluster: () => {
      nav.selectRelative(1);
      announceSelected();
    },
    nextMention: () => nav.step(1),
    prevMention: () => nav.step(-1),
    nextUnassigned: () => {
      if (!nav.toNextUndone()) notices.status("Every mention is done.");
    },
    merge: withSelected(
      "merge it into another",
      (cluster) => (ui.picker = { mode: "merge", cluster }),
    ),
    split: () => {
      const ticked = [...ui.ticked];
      if (ticked.length > 0) {
        ui.ticked.clear();
        commands.split(ticked);
        return;
      }
      const mention = nav.current.value;
      const cluster = mention === null ? undefined : store.state.value.mentionCluster.get(mention);
      if (mention === null || cluster === undefined) {
        notices.status(
          "Tick members of the selected cluster (or go to a mention in a cluster), then press S to split them off.",
        );
      } else if ((store.state.value.clusters.get(cluster)?.members.size ?? 0) < 2) {
        notices.status(
          `${commands.mentionLabel(mention)} is alone in its cluster: nothing to split off.`,
        );
      } else commands.split([mention]);
    },
    setParent: withSelected(
      "give it a parent",
      (cluster) => (ui.picker = { mode: "parent", cluster }),
    ),
    addParent: withSelected(
      "add a parent to it",
      (cluster) => (ui.picker = { mode: "addParent", cluster }),
    ),
    moveToRoot: withSelected("move it to the top level", (cluster) => {
      if ((store.state.value.parents.get(cluster)?.size ?? 0) === 0) {
        notices.status(`${commands.clusterLabel(cluster)} is already at the top level.`);
      } else commands.setParent(cluster, null);
    }),
    editNote: withSelected("edit its note", (cluster) => (ui.dialog = { kind: "note", cluster })),
    rename: withSelected("rename it", (cluster) => (ui.dialog = { kind: "rename", cluster })),
    focusTree: () => events.emit("focus-tree"),
    focusBank: () => events.emit("focus-bank"),
    undo: () => void commands.undo(),
    redo: () => void commands.redo(),
    help: () => void (ui.help = !ui.help),
    // The header's Submit…: the same dialog, which asks before anything is sent.
    submit: () => {
      if (deps.reviewing || deps.assignment === null) return false;
      ui.confirmSubmit = true;
    },
    escape: () => {
      // A pending anaphor goes with one Escape, messages or not: marking it shows a message,
      // so closing messages first made cancelling it take two presses.
      if (nav.anaphor.value !== null) {
        nav.anaphor.set(null);
        notices.clear();
        notices.status("No anaphor selected.");
        return;
      }
      // Then the notices (they may cover the text).
      if (notices.items.length) {
        notices.clear();
        return;
      }
      const active = document.activeElement as HTMLElement | null;
      if (active && active !== document.body) {
        active.blur();
        return;
      }
      return false;
    },
    markAnaphor: () => commands.markAnaphor(),
    linkType1: () => typeKey(0),
    linkType2: () => typeKey(1),
    linkType3: () => typeKey(2),
    linkType4: () => typeKey(3),
    linkType5: () => typeKey(4),
    linkAlso: (event) => {
      const type = LINK_TYPES[Number((event.code ?? "").replace("Digit", "")) - 1];
      if (!type) return false;
      commands.link(type, true);
    },
    nextLink: () => commands.stepCurrentLink(1),
    prevLink: () => commands.stepCurrentLink(-1),
    followLink: () => commands.followLink(),
    removeLink: () => commands.removeCurrentLink(),
    rejectMention: () => commands.rejectCurrent(),
    suggest: () => void suggestions.requestRun(),
    acceptSuggestion: () => suggestions.acceptFocused(),
    rejectSuggestion: () => suggestions.rejectFocused(),
    nextSuggestion: () => suggestions.next(),
    similarMentions: () => {
      // the key moment, for the panel's key-to-screen figure (bench/corpus_panel.py)
      performance.mark("similar-key");
      ui.similar = ui.similar ? null : { mention: nav.current.value };
    },
    questions: () => {
      ui.questions = !ui.questions;
    },
    acceptAbove: () => {
      if (store.locked.value) notices.status(readOnlyText(store));
      else ui.bulkAccept = true;
    },
    linkNote: () => {
      const link = commands.notes.currentLink();
      if (link !== null) ui.linkNote = link;
    },
    // Ctrl+Alt+k (Alt+k is a second link type), by the physical digit key (keyString): attribute k-1 of the project's list.
    cycleAttribute: (event) => {
      const digit = Number(
        ("code" in event && event.code ? event.code.replace("Digit", "") : "") || event.key,
      );
      if (digit >= 1 && digit <= 9) commands.notes.cycleAttribute(digit - 1);
    },
    decideType: () => {
      if (store.locked.value) notices.status(readOnlyText(store));
      else ui.decideAll = true;
    },
    toggleArcs: () => {
      ui.allArcs = !ui.allArcs;
      notices.status(
        ui.allArcs ? "Drawing every link." : "Drawing the links of the current mention only.",
      );
    },
  };
}
