// The first-time tour of this workspace: each step names a part of our screen (a CSS
// selector) and the keys that work it, read from the keymap, so that the tour cannot speak of
// a key the workspace does not have. CoRefi's own tour steps (a tutorial file's tourSteps)
// describe CoRefi's screen (a "+ at the bottom left", a "black '?'", a "Reset button"), so they
// are no longer shown (docs/onboarding.md).

import { type CommandId, KEYMAP } from "../keyboard/keymap";

export interface WorkspaceTourStep {
  /** The part of the screen the card sits beside and outlines. */
  target: string;
  title: string;
  content: string;
}

/** The keys of a workspace command as the help overlay shows them ("Ctrl+Space or Alt+Space"). */
export function keysOf(command: CommandId): string {
  const binding = KEYMAP.find((b) => b.command === command && b.context === "workspace");
  if (!binding) throw new Error(`no workspace key for ${command}`);
  return binding.keys.filter((k) => !k.startsWith("Meta+")).join(" or ");
}

export function workspaceTour(project: {
  hierarchy: boolean;
  anaphora: boolean;
}): WorkspaceTourStep[] {
  const steps: WorkspaceTourStep[] = [
    {
      target: ".documents",
      title: "Welcome",
      content:
        "This is the topic's text. The marked spans are the mentions to decide, one at a time. " +
        "Everything can be done from the keyboard; this tour shows where. Enter moves on, Escape closes it.",
    },
    {
      target: ".m.is-current",
      title: "The current mention",
      content:
        `The current mention is underlined in purple. ${keysOf("nextMention")} goes to the next mention, ` +
        `${keysOf("prevMention")} to the previous one, ${keysOf("nextUnassigned")} to the next one still to do.`,
    },
  ];
  if (project.hierarchy) {
    steps.push(
      {
        target: ".bank",
        title: "The cluster bank",
        content:
          `Your clusters so far, on the right. ${keysOf("prevCluster")} and ${keysOf("nextCluster")} select one; ` +
          `${keysOf("searchClusters")} searches them by label or member text.`,
      },
      {
        target: ".m.is-current",
        title: "Assigning a mention",
        content:
          `${keysOf("assign")} puts the current mention into the selected cluster. ` +
          `If it belongs to none of them, ${keysOf("assignNew")} starts a new cluster with it.`,
      },
      {
        target: ".tree-panel",
        title: "The hierarchy",
        content:
          "Below the bank, the hierarchy of clusters: drag a cluster onto its parent, or press " +
          `${keysOf("setParent")} and pick the parent. ${keysOf("focusTree")} takes the keyboard into the tree. ` +
          "To undo a parent, drag the cluster back to the top level.",
      },
    );
  }
  if (project.anaphora) {
    steps.push({
      target: ".anaphora-panel",
      title: "Anaphora links",
      content:
        `${keysOf("markAnaphor")} takes the current mention as the anaphor; move to its antecedent and press ` +
        `${keysOf("linkType1")} to ${keysOf("linkType5")} for the link type.`,
    });
  }
  steps.push({
    target: ".ws-actions",
    title: "Keys, guidelines and undo",
    content:
      `The Keys button here (or ${keysOf("help")}) lists every key of this screen; ${keysOf("guidelines")} shows the ` +
      `project's guidelines; ${keysOf("undo")} undoes. Submit… sends the topic when every mention is done.`,
  });
  return steps;
}
