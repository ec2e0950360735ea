// Notes and attributes on links and clusters: the commands behind Shift+N (a link's note) and
// Ctrl+Alt+1-9 (the project's attribute k, set to its next value), and the link they act on.
//
// The link a key acts on is the current link ([ and ] choose it) when it touches the current
// mention, else the current mention's first link (./linkEditing.ts's order, the list's).

import type { Id } from "../api/types";
import type { Link } from "../domain/state";
import { linkKey } from "../domain/state";
import type { Editing } from "./editing";
import { linksOfMention } from "./linkEditing";
import type { AnnotationStore } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import type { Notices } from "./stores/notices";
import type { TopicModel } from "./topicModel";

export interface NoteCommandDeps {
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  editing: Editing;
  notices: Notices;
  mentionLabel: (id: Id) => string;
  clusterLabel: (id: Id) => string;
}

/** The value after `current` in `values`, then none (null), then the first again. */
export function nextValue(values: readonly string[], current: string | null): string | null {
  if (current === null) return values[0] ?? null;
  const index = values.indexOf(current);
  return index + 1 < values.length ? values[index + 1]! : null;
}

export function createNoteCommands({
  topic,
  store,
  nav,
  editing,
  notices,
  mentionLabel,
  clusterLabel,
}: NoteCommandDeps) {
  const state = () => store.state.value;
  const attributes = () => topic.project.attributes ?? [];

  function linkLabel(link: Link): string {
    return `the ${link.type} link ${mentionLabel(link.anaphor)} → ${mentionLabel(link.antecedent)}`;
  }

  function linkOf(mention: Id): Link | null {
    const key = nav.link.value;
    const chosen = key === null ? undefined : state().links.get(key);
    if (chosen && (chosen.anaphor === mention || chosen.antecedent === mention)) return chosen;
    return linksOfMention(state(), mention)[0] ?? null;
  }

  /** The link the keys act on, or null with a word on how to get one. */
  function currentLink(): Link | null {
    const mention = nav.current.value;
    const link = mention === null ? null : linkOf(mention);
    if (link === null)
      notices.status("Go to a mention with a link (K/J or click it) to write on its link.");
    return link;
  }

  function linkNote(link: Link): string {
    return state().linkNotes.get(linkKey(link)) ?? "";
  }

  function linkAttribute(link: Link, name: string): string | null {
    return state().linkAttributes.get(linkKey(link))?.get(name) ?? null;
  }

  function setLinkNote(link: Link, note: string): void {
    const { type, anaphor, antecedent } = link;
    editing.op(
      { op: "set_link_note", type, anaphor, antecedent, note },
      `change the note of ${linkLabel(link)}`,
    );
  }

  function setLinkAttribute(link: Link, name: string, value: string | null): void {
    const { type, anaphor, antecedent } = link;
    const what =
      value === null
        ? `clear ${name} of ${linkLabel(link)}`
        : `set ${name} of ${linkLabel(link)} to ${value}`;
    editing.op({ op: "set_link_attribute", type, anaphor, antecedent, name, value }, what);
  }

  function setClusterAttribute(cluster: Id, name: string, value: string | null): void {
    const what =
      value === null
        ? `clear ${name} of ${clusterLabel(cluster)}`
        : `set ${name} of ${clusterLabel(cluster)} to ${value}`;
    editing.op({ op: "set_cluster_attribute", cluster, name, value }, what);
  }

  /**
   * Ctrl+Alt+k: attribute k of the current link (anaphora), else of the selected cluster, to its
   * next value; after the last value it is cleared. Says what it set.
   */
  function cycleAttribute(index: number): void {
    const attribute = attributes()[index];
    if (attribute === undefined) {
      const count = attributes().length;
      notices.status(
        count
          ? `This project has ${count} attribute${count === 1 ? "" : "s"}: Ctrl+Alt+1 to Ctrl+Alt+${count}.`
          : "This project defines no attributes.",
      );
      return;
    }
    const mention = nav.current.value;
    const link = topic.project.anaphora && mention !== null ? linkOf(mention) : null;
    if (link !== null) {
      const value = nextValue(attribute.values, linkAttribute(link, attribute.name));
      setLinkAttribute(link, attribute.name, value);
      notices.status(`${attribute.name} of ${linkLabel(link)}: ${value ?? "none"}.`);
      return;
    }
    const cluster = topic.project.hierarchy ? nav.selected.value : null;
    if (cluster !== null && cluster >= 0 && state().clusters.has(cluster)) {
      const value = nextValue(
        attribute.values,
        state().clusters.get(cluster)!.attributes.get(attribute.name) ?? null,
      );
      setClusterAttribute(cluster, attribute.name, value);
      notices.status(`${attribute.name} of ${clusterLabel(cluster)}: ${value ?? "none"}.`);
      return;
    }
    notices.status(
      topic.project.anaphora
        ? "Go to a mention with a link (K/J or click it) to set its link's attributes."
        : "Select a cluster first (←/→, or click a mention) to set its attributes.",
    );
  }

  return {
    linkOf,
    currentLink,
    linkLabel,
    linkNote,
    linkAttribute,
    setLinkNote,
    setLinkAttribute,
    setClusterAttribute,
    cycleAttribute,
  };
}

export type NoteCommands = ReturnType<typeof createNoteCommands>;
