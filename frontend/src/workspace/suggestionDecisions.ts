// Deciding on suggestions: accept (Y) and reject (X) one, or accept all above a score. Every
// decision is an ordinary operation through the queue (accept_suggestion / reject_suggestion,
// one accept-above batch, or one decision on every suggestion of a type), so undo, versions and
// the log work as for any edit.

import type { ComputedRef, ShallowRef } from "vue";
import type { Decision, Id, LinkItem, LinkType, Operation, SuggestionKind } from "../api/types";
import type { Commands } from "./commands";
import type { Editing } from "./editing";
import type { AnnotationStore } from "./stores/annotation";
import type { NavigationStore } from "./stores/navigation";
import type { Notices } from "./stores/notices";
import { proposalSpans } from "./mentionSuggestions";
import type { Focus } from "./suggestionFocus";
import { groupLabel, type SuggestionGroup } from "./suggestionGroups";
import {
  type BulkCount,
  edgeEnds,
  formatScore,
  linkEnds,
  membershipOperation,
  type OpenMembership,
} from "./suggestionModel";
import type { TopicModel } from "./topicModel";

export interface SuggestionDecisionDeps {
  topic: TopicModel;
  store: AnnotationStore;
  nav: NavigationStore;
  editing: Editing;
  notices: Notices;
  commands: Commands;
  /** The suggestion the keys act on. */
  focus: ComputedRef<Focus | null>;
  /** After deciding on a link, hand the keys to the mention's next one. */
  chooseNextLink: (decided: Id) => void;
  /** After rejecting a proposed mention, hand the keys to the next one in reading order. */
  chooseNextMention: (decided: Id) => void;
  counts: ShallowRef<BulkCount>;
  /** What to say when no suggestion is left to act on. */
  noSuggestionsText: () => string;
  /** Fetch the suggestions again now (after a batch changed many at once). */
  refresh: () => void;
}

export function createSuggestionDecisions(deps: SuggestionDecisionDeps) {
  const {
    topic,
    store,
    nav,
    editing,
    notices,
    commands,
    focus,
    chooseNextLink,
    chooseNextMention,
    counts,
    noSuggestionsText,
    refresh,
  } = deps;
  const state = () => store.state.value;

  function describe(focus: Focus): string {
    if (focus.kind === "membership") {
      const o = focus.open;
      const where = o.target === null ? "a new cluster" : commands.clusterLabel(o.target);
      return `the suggestion to put ${commands.mentionLabel(o.mention)} in ${where}`;
    }
    if (focus.kind === "mention") {
      return `the suggested mention "${topic.text(focus.item.document, proposalSpans(focus.item))}"`;
    }
    if (focus.kind === "link") {
      const e = linkEnds(focus.item)!;
      return `the suggested ${e.type} link ${commands.mentionLabel(e.anaphor)} → ${commands.mentionLabel(e.antecedent)}`;
    }
    const e = edgeEnds(focus.item)!;
    return `the suggestion to put ${commands.clusterLabel(e.child)} under ${commands.clusterLabel(e.parent)}`;
  }

  function acceptMembership(open: OpenMembership): void {
    const mention = open.mention;
    const previousSelection = nav.selected.value;
    let target = open.target;
    let creates: { local: Id; kind: "cluster" } | undefined;
    if (target === null) {
      target = editing.queue.newLocalId();
      creates = { local: target, kind: "cluster" };
      const m = state().mentions.get(mention)!;
      nav.pendingClusters.set(target, topic.text(m.document, m.spans));
    }
    const local = target;
    nav.pendingAssign.set(mention, local);
    nav.selected.set(local);
    const operation: Operation = {
      op: "accept_suggestion",
      suggestion: open.item.suggestion,
      operation: membershipOperation(open),
    };
    let advancedTo: Id | null = mention;
    editing.op(operation, `accept ${describe({ kind: "membership", open })}`, {
      creates,
      done(applied) {
        if (nav.pendingAssign.get(mention) === local) nav.pendingAssign.delete(mention);
        if (creates) nav.pendingClusters.delete(local);
        const created = applied.created["cluster"];
        if (creates && created !== undefined && nav.selected.value === local)
          nav.selected.set(created);
      },
      failed() {
        if (nav.pendingAssign.get(mention) === local) nav.pendingAssign.delete(mention);
        if (creates) nav.pendingClusters.delete(local);
        if (nav.selected.value === local) nav.selected.set(previousSelection);
        if (nav.current.value === advancedTo) nav.current.set(mention);
      },
    });
    if (store.locked.value) return;
    if (!nav.toNextUndone()) nav.step(1);
    advancedTo = nav.current.value;
  }

  function accept(f: Focus): void {
    if (f.kind === "membership") return acceptMembership(f.open);
    const item = f.item;
    if (!item.valid) {
      notices.status(`Not accepted: ${item.reason}`);
      return;
    }
    if (f.kind === "mention") {
      // The new mention becomes current: its suggested links come with the next fetch.
      editing.op(
        { op: "accept_suggestion", suggestion: item.suggestion, operation: item.operation },
        `accept ${describe(f)}`,
        {
          done(applied) {
            const created = applied.created["mention"];
            if (created !== undefined) nav.current.set(created);
          },
        },
      );
      return;
    }
    editing.op(
      { op: "accept_suggestion", suggestion: item.suggestion, operation: item.operation },
      `accept ${describe(f)}`,
    );
    if (f.kind === "link") chooseNextLink(item.suggestion);
  }

  /** Accept a link suggestion as another type than the model's (question mode, keys 1-5): the
   * decision is recorded on the suggestion and the link added is of the type chosen. */
  function acceptLinkAs(item: LinkItem, type: LinkType): void {
    const e = linkEnds(item);
    if (!e) return;
    if (!item.valid) {
      notices.status(`Not accepted: ${item.reason}`);
      return;
    }
    const operation: Operation = {
      op: "add_link",
      type,
      anaphor: e.anaphor,
      antecedent: e.antecedent,
    };
    const what = `the suggested link ${commands.mentionLabel(e.anaphor)} → ${commands.mentionLabel(e.antecedent)} as ${type}`;
    editing.op(
      { op: "accept_suggestion", suggestion: item.suggestion, operation },
      `accept ${what}`,
    );
  }

  function reject(f: Focus): void {
    const id = f.kind === "membership" ? f.open.item.suggestion : f.item.suggestion;
    if (state().decisions.get(id) === "rejected") {
      notices.status("Already rejected (Y accepts it after all).");
      return;
    }
    editing.op({ op: "reject_suggestion", suggestion: id }, `reject ${describe(f)}`);
    if (f.kind === "link") chooseNextLink(id);
    if (f.kind === "mention") chooseNextMention(id);
  }

  function nothingHere(): void {
    const open = counts.value.total;
    notices.status(
      open ? "No suggestion for this mention: G goes to the next one." : noSuggestionsText(),
    );
  }

  function acceptFocused(): void {
    const f = focus.value;
    if (f) accept(f);
    else nothingHere();
  }

  function rejectFocused(): void {
    const f = focus.value;
    if (f) reject(f);
    else nothingHere();
  }

  function acceptAbove(threshold: number, kinds: SuggestionKind[]): void {
    const what = `accept the suggestions scoring ${formatScore(threshold)} or more`;
    editing.acceptAbove(threshold, kinds, what, {
      batchDone(batch) {
        const skipped = batch.skipped.map((s) => `#${s.suggestion}: ${s.reason}`);
        const done = batch.applied.length;
        const text = done
          ? `Accepted ${done} suggestion${done === 1 ? "" : "s"} (each one undo step).`
          : "No suggestion at or above that score was left to accept.";
        if (skipped.length)
          notices.alert(`${text} ${skipped.length} could not be applied:`, skipped.slice(0, 8));
        else notices.status(text);
        refresh();
      },
    });
  }

  /** Accept (the ones the rules allowed when fetched) or reject every open suggestion of one
   * group (../suggestionGroups.ts): one request, one change, one undo step. */
  function decideGroup(group: SuggestionGroup, decision: Decision): void {
    const ids = decision === "accepted" ? group.acceptable : group.all;
    const label = groupLabel(group, ids.length);
    if (ids.length === 0) {
      notices.status(
        `No open ${groupLabel(group)} to ${decision === "accepted" ? "accept" : "reject"}.`,
      );
      return;
    }
    const verb = decision === "accepted" ? "accept" : "reject";
    editing.decide(decision, ids, `${verb} ${ids.length} ${label}`, {
      done() {
        const done = decision === "accepted" ? "Accepted" : "Rejected";
        notices.status(`${done} ${ids.length} ${label} (one step: Ctrl+Z undoes them all).`);
        refresh();
      },
    });
  }

  return { accept, acceptLinkAs, reject, acceptFocused, rejectFocused, acceptAbove, decideGroup };
}
