// What the annotator can do in a workspace, whatever the input (key, click, drag): each
// command checks what it needs, sends one operation and moves the focus the way CoRefi does.

import type { Id, LinkType, Span } from "../api/types";
import { LINK_TYPES } from "../api/types";
import type { Occurrence } from "../domain/occurrences";
import { linkKey, type Link } from "../domain/state";
import { describeChange } from "./changeText";
import { createNoteCommands } from "./noteCommands";
import {
  linksOfMention,
  otherEnd,
  pairLinks,
  retypeOperation,
  stepLink,
  tokenPlace,
} from "./linkEditing";
import { sentencesOf } from "./textSelection";
import type { Editing } from "./editing";
import type { AnnotationStore } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import type { Notices } from "./stores/notices";
import type { TopicModel } from "./topicModel";

export interface CommandDeps {
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  editing: Editing;
  notices: Notices;
}

function quote(text: string, max = 40): string {
  return `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
}

export function createCommands({ topic, store, nav, editing, notices }: CommandDeps) {
  const state = () => store.state.value;

  function mentionLabel(id: Id): string {
    const mention = state().mentions.get(id);
    return mention ? quote(topic.text(mention.document, mention.spans)) : `mention #${id}`;
  }

  function clusterLabel(id: Id): string {
    if (id < 0) return "the new cluster";
    const cluster = state().clusters.get(id);
    return cluster ? quote(cluster.label) : `cluster #${id}`;
  }

  /** How undo and redo name what they changed (clusters gone from the state: see changeText). */
  const names = {
    mention: mentionLabel,
    cluster: clusterLabel,
    text: (document: Id, spans: readonly Span[]) => quote(topic.text(document, spans)),
  };

  function requireSelected(what: string): Id | null {
    const selected = nav.selected.value;
    if (selected === null || selected < 0 || !state().clusters.has(selected)) {
      notices.status(`Select a cluster first (←/→, / to search, or click a mention) to ${what}.`);
      return null;
    }
    return selected;
  }

  /** SPACE (existing cluster) and Ctrl/Alt+SPACE (new cluster). */
  function assignCurrent(toNew: boolean): void {
    const mention = nav.current.value;
    if (mention === null) return;
    let target: Id;
    const previousSelection = nav.selected.value;
    let creates: { local: Id; kind: "cluster" } | undefined;
    if (toNew) {
      target = editing.queue.newLocalId();
      creates = { local: target, kind: "cluster" };
    } else {
      const selected = nav.selected.value;
      if (selected === null) {
        notices.status("Select a cluster first (←/→ or /), or press Ctrl+Space for a new cluster.");
        return;
      }
      target = selected;
      const now = nav.pendingAssign.get(mention) ?? state().mentionCluster.get(mention);
      if (now === target) {
        notices.status(`${mentionLabel(mention)} is already in ${clusterLabel(target)}.`);
        nav.toNextUndone();
        return;
      }
    }
    nav.pendingAssign.set(mention, target);
    if (toNew) {
      nav.pendingClusters.set(
        target,
        topic.text(state().mentions.get(mention)!.document, state().mentions.get(mention)!.spans),
      );
      nav.selected.set(target);
    }
    const description = `assign ${mentionLabel(mention)} to ${toNew ? "a new cluster" : clusterLabel(target)}`;
    let advancedTo: Id | null = mention;
    editing.op({ op: "assign", mention, cluster: toNew ? null : target }, description, {
      creates,
      done(applied) {
        if (nav.pendingAssign.get(mention) === target) nav.pendingAssign.delete(mention);
        if (toNew) nav.pendingClusters.delete(target);
        const created = applied.created["cluster"];
        if (toNew && created !== undefined && nav.selected.value === target)
          nav.selected.set(created);
      },
      failed() {
        if (nav.pendingAssign.get(mention) === target) nav.pendingAssign.delete(mention);
        if (toNew) nav.pendingClusters.delete(target);
        if (toNew && nav.selected.value === target) nav.selected.set(previousSelection);
        // Not saved: back to that mention, unless the annotator has moved on by hand.
        if (nav.current.value === advancedTo) nav.current.set(mention);
      },
    });
    if (store.locked.value) return;
    if (!nav.toNextUndone()) nav.step(1);
    advancedTo = nav.current.value;
  }

  function merge(source: Id, target: Id): void {
    if (source === target) return;
    editing.op(
      { op: "merge", source, target },
      `merge ${clusterLabel(source)} into ${clusterLabel(target)}`,
      {
        done: () => {
          // The source is gone (its selection was dropped when it went): the merged cluster is
          // the one to go on with, unless another was selected meanwhile.
          const selected = nav.selected.value;
          if (selected === null || selected === source) nav.selected.set(target);
        },
      },
    );
  }

  function setParent(child: Id, parent: Id | null): void {
    const description =
      parent === null
        ? `move ${clusterLabel(child)} to the top level`
        : `put ${clusterLabel(child)} under ${clusterLabel(parent)}`;
    editing.op({ op: "set_parent", child, parent }, description);
  }

  function addParent(child: Id, parent: Id): void {
    editing.op(
      { op: "add_edge", parent, child },
      `add ${clusterLabel(parent)} as a parent of ${clusterLabel(child)}`,
    );
  }

  function detach(parent: Id, child: Id): void {
    editing.op(
      { op: "remove_edge", parent, child },
      `detach ${clusterLabel(child)} from ${clusterLabel(parent)}`,
    );
  }

  function split(mentions: Id[]): void {
    if (mentions.length === 0) return;
    const what = mentions.length === 1 ? mentionLabel(mentions[0]!) : `${mentions.length} mentions`;
    editing.op({ op: "split", mentions }, `split ${what} into a new cluster`, {
      done(applied) {
        const created = applied.created["cluster"];
        if (created !== undefined) nav.selected.set(created);
      },
    });
  }

  function rename(cluster: Id, label: string): void {
    editing.op(
      { op: "rename", cluster, label },
      `rename ${clusterLabel(cluster)} to ${quote(label)}`,
    );
  }

  function setNote(cluster: Id, note: string): void {
    editing.op({ op: "set_note", cluster, note }, `change the note of ${clusterLabel(cluster)}`);
  }

  /** A rejected mention is not offered as a link end; true (and a word why) when it is one. */
  function refusedLinkEnd(mention: Id, role: string): boolean {
    if (!state().mentions.get(mention)?.rejected) return false;
    notices.status(`${mentionLabel(mention)} is rejected, so it cannot be ${role} of a link.`);
    return true;
  }

  function markAnaphor(): void {
    const mention = nav.current.value;
    if (mention === null) return;
    if (nav.anaphor.value !== mention && refusedLinkEnd(mention, "the anaphor")) return;
    if (nav.anaphor.value === mention) {
      nav.anaphor.set(null);
      notices.status("No anaphor selected.");
      return;
    }
    nav.anaphor.set(mention);
    notices.status(
      `Anaphor ${mentionLabel(mention)}: go to its antecedent (K/J or click) and press 1-5 for the type; Esc cancels.`,
    );
  }

  const sentences = new Map<Id, [number, number][]>();
  /** "s2 w5": sentence and word where the mention starts, so equal texts can be told apart. */
  function mentionPlace(id: Id): string {
    const mention = state().mentions.get(id);
    const doc = mention && topic.documentById.get(mention.document);
    if (!mention || !doc) return "";
    let list = sentences.get(doc.id);
    if (!list) sentences.set(doc.id, (list = sentencesOf(doc)));
    const { sentence, word } = tokenPlace(list, mention.spans[0]?.[0] ?? 0);
    return `s${sentence} w${word}`;
  }

  function linkLabel(l: Link): string {
    return `${mentionLabel(l.anaphor)} (${mentionPlace(l.anaphor)}) → ${mentionLabel(l.antecedent)} (${mentionPlace(l.antecedent)})`;
  }

  /** The current link when it still exists and touches the current mention (else none). */
  function currentLink(): Link | null {
    const key = nav.link.value;
    const link = key === null ? undefined : state().links.get(key);
    const mention = nav.current.value;
    if (!link || (mention !== null && link.anaphor !== mention && link.antecedent !== mention))
      return null;
    return link;
  }

  /** [ and ]: the previous or next link of the current mention becomes the current link. */
  function stepCurrentLink(delta: 1 | -1): void {
    const mention = nav.current.value;
    if (mention === null) return;
    const links = linksOfMention(state(), mention);
    const next = stepLink(links, currentLink() ? nav.link.value : null, delta, linkKey);
    if (!next) {
      notices.status(`${mentionLabel(mention)} has no links.`);
      return;
    }
    nav.link.set(linkKey(next));
    announceLink(next);
  }

  /** Say which link is current now, and what the keys do with it. */
  function announceLink(l: Link): void {
    const mention = nav.current.value;
    const links = mention === null ? [] : linksOfMention(state(), mention);
    const at = links.findIndex((other) => linkKey(other) === linkKey(l)) + 1;
    const place = at > 0 ? `Link ${at} of ${links.length}: ` : "Link ";
    notices.status(
      `${place}${linkLabel(l)} as ${l.type}. 1-5 changes its type, Shift+Delete removes it, O goes to its other end.`,
    );
  }

  /** Give `links` the type `type` as one operation (one undo); the current link follows. */
  function retype(links: readonly Link[], type: LinkType): void {
    if (links.length === 0) return;
    const op = retypeOperation(links, type);
    if (op === null) {
      notices.status(
        links.length === 1
          ? `${linkLabel(links[0]!)} is already ${type}.`
          : `These ${links.length} links are already ${type}.`,
      );
      return;
    }
    const before = nav.link.value;
    const current = links.find((l) => linkKey(l) === before);
    if (current) nav.link.set(linkKey({ ...current, type }));
    const what = links.length === 1 ? `the link ${linkLabel(links[0]!)}` : `${links.length} links`;
    editing.op(op, `change ${what} to ${type}`, {
      failed() {
        if (current && nav.link.value === linkKey({ ...current, type })) nav.link.set(before);
      },
    });
  }

  /** Keys 1-5 and the type buttons: link the pending anaphor; with none, retype the links
   * ticked in the list, else the current link. */
  function applyType(type: LinkType, chosen: readonly Link[]): void {
    if (nav.anaphor.value !== null) return link(type);
    if (chosen.length > 0) return retype(chosen, type);
    const current = currentLink();
    if (current) return retype([current], type);
    notices.status(
      "Press A on the anaphor first, then go to its antecedent and press 1-5; or choose a link ([ and ], or click it) to change its type.",
    );
  }

  /** Shift+Delete: remove the current link. */
  function removeCurrentLink(): void {
    const current = currentLink();
    if (!current) {
      notices.status(
        "Choose a link first ([ and ] go through the current mention's links), then Shift+Delete removes it.",
      );
      return;
    }
    nav.link.set(null);
    removeLink(current);
  }

  /** O: go to the other end of the current link (the list scrolls to it, however far). */
  function followLink(): void {
    const mention = nav.current.value;
    let current = currentLink();
    if (!current && mention !== null) {
      current = linksOfMention(state(), mention)[0] ?? null;
      if (current) nav.link.set(linkKey(current));
    }
    if (!current || mention === null) {
      notices.status("The current mention has no links to follow.");
      return;
    }
    const other = otherEnd(current, mention);
    nav.current.set(other);
    notices.status(
      `At the ${other === current.antecedent ? "antecedent" : "anaphor"} ${mentionLabel(other)} (${mentionPlace(other)}) of the ${current.type} link; O goes back.`,
    );
  }

  function link(type: LinkType, also = false): void {
    const anaphor = nav.anaphor.value;
    const antecedent = nav.current.value;
    if (anaphor === null) {
      notices.status("Press A on the anaphor first, then go to its antecedent and press 1-5.");
      return;
    }
    if (antecedent === null || antecedent === anaphor) {
      notices.status("Go to the antecedent (K/J or click it), then press 1-5.");
      return;
    }
    if (refusedLinkEnd(anaphor, "the anaphor") || refusedLinkEnd(antecedent, "the antecedent"))
      return;
    // The pair is linked already with one other type: the annotator means to change it (Alt
    // with the digit adds a second type instead, which ChEMU allows with a warning).
    const existing = pairLinks(state(), anaphor, antecedent);
    if (!also && existing.length === 1 && existing[0]!.type !== type) {
      nav.link.set(linkKey(existing[0]!));
      retype(existing, type);
      return;
    }
    nav.link.set(linkKey({ type, anaphor, antecedent }));
    editing.op(
      { op: "add_link", type, anaphor, antecedent },
      `link ${mentionLabel(anaphor)} → ${mentionLabel(antecedent)} as ${type}`,
    );
  }

  function linkByIndex(index: number, chosen: readonly Link[] = []): void {
    const type = LINK_TYPES[index];
    if (type) applyType(type, chosen);
  }

  function removeLink(l: Link): void {
    editing.op(
      { op: "remove_link", type: l.type, anaphor: l.anaphor, antecedent: l.antecedent },
      `remove the ${l.type} link ${mentionLabel(l.anaphor)} → ${mentionLabel(l.antecedent)}`,
    );
  }

  function rejectCurrent(): void {
    const mention = nav.current.value;
    if (mention === null || !topic.project.allow_reject_mentions) return;
    if (state().mentions.get(mention)?.rejected) {
      notices.status(
        `${mentionLabel(mention)} is already rejected; assign it to a cluster to bring it back.`,
      );
      return;
    }
    editing.op({ op: "reject_mention", mention }, `reject ${mentionLabel(mention)}`);
    nav.step(1);
  }

  function addMention(document: Id, spans: Span[]): void {
    editing.op(
      { op: "add_mention", document, spans },
      `add the mention ${quote(topic.text(document, spans))}`,
      {
        done(applied) {
          const created = applied.created["mention"];
          if (created !== undefined) nav.current.set(created);
        },
      },
    );
  }

  /** A mention at each occurrence (../domain/occurrences.ts), as one change (one undo step). */
  function addMentions(text: string, places: readonly Occurrence[]): void {
    const mentions = places.map((o) => ({
      document: o.document,
      spans: [[o.start, o.end] as Span],
    }));
    const what = `add ${mentions.length} mention${mentions.length === 1 ? "" : "s"} of ${quote(text)}`;
    editing.op({ op: "add_mentions", mentions }, what, {
      done: () =>
        notices.status(
          `Added ${mentions.length} mention${mentions.length === 1 ? "" : "s"} of ${quote(text)} (one step: Ctrl+Z removes them all).`,
        ),
    });
  }

  /** Reject every one of `mentions` (the mentions of one text), as one change. */
  function rejectMentions(text: string, mentions: readonly Id[]): void {
    const what = `reject ${mentions.length} mention${mentions.length === 1 ? "" : "s"} of ${quote(text)}`;
    editing.op({ op: "reject_mentions", mentions: [...mentions] }, what, {
      done: () =>
        notices.status(
          `Rejected ${mentions.length} mention${mentions.length === 1 ? "" : "s"} of ${quote(text)} (one step: Ctrl+Z brings them back).`,
        ),
    });
  }

  function fixSpans(mention: Id, spans: Span[]): void {
    const doc = state().mentions.get(mention)?.document;
    if (doc === undefined) return;
    editing.op(
      { op: "fix_span", mention, spans },
      `change ${mentionLabel(mention)} to ${quote(topic.text(doc, spans))}`,
    );
  }

  /** Clicking a mention selects its cluster (CoRefi); an unassigned one becomes current. */
  function clickMention(mention: Id): void {
    if (topic.project.anaphora && (nav.anaphor.value !== null || !topic.project.hierarchy)) {
      nav.current.set(mention);
      return;
    }
    const cluster = nav.pendingAssign.get(mention) ?? state().mentionCluster.get(mention);
    if (cluster !== undefined) nav.selected.set(cluster);
    else nav.current.set(mention);
  }

  /** Double-click reopens a mention: it becomes the current mention. */
  function reopenMention(mention: Id): void {
    window.getSelection?.()?.removeAllRanges(); // a double-click also selects a word
    nav.current.set(mention);
  }

  return {
    mentionLabel,
    clusterLabel,
    requireSelected,
    assignCurrent,
    merge,
    setParent,
    addParent,
    detach,
    split,
    rename,
    setNote,
    markAnaphor,
    link,
    linkByIndex,
    applyType,
    retype,
    currentLink,
    stepCurrentLink,
    announceLink,
    removeCurrentLink,
    followLink,
    mentionPlace,
    linkLabel,
    removeLink,
    rejectCurrent,
    addMention,
    addMentions,
    rejectMentions,
    fixSpans,
    clickMention,
    reopenMention,
    // Notes and attributes on links and clusters (./noteCommands.ts).
    notes: createNoteCommands({ topic, store, nav, editing, notices, mentionLabel, clusterLabel }),
    undo: () =>
      editing.send({ kind: "undo" }, "undo", {
        done: (applied) => notices.status(describeChange(applied, names)),
      }),
    redo: () =>
      editing.send({ kind: "redo" }, "redo", {
        done: (applied) => notices.status(describeChange(applied, names)),
      }),
  };
}

export type Commands = ReturnType<typeof createCommands>;
