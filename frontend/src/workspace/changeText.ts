// What an undo or redo changed, in words: "Undid merge of "CRF" into "CRF tagger"."
//
// The server answers an undo with the operation's name and the effects it applied (the
// inverse of the original's); inverted back, they are the original's effects, and those name
// everything the sentence needs. Clusters the change created or deleted are named by the
// label their effect carries, since the state may no longer hold them.

import type { Applied, Effect, Id, Span } from "../api/types";
import { invertEffects } from "../domain/effects";

/** Quoted names of what the state holds now (`text`: of spans, for mentions gone). */
export interface ChangeNames {
  mention(id: Id): string;
  cluster(id: Id): string;
  text(document: Id, spans: readonly Span[]): string;
}

type Of<E extends Effect["e"]> = Extract<Effect, { e: E }>;

function first<E extends Effect["e"]>(effects: readonly Effect[], e: E): Of<E> | undefined {
  return effects.find((effect): effect is Of<E> => effect.e === e);
}

function all<E extends Effect["e"]>(effects: readonly Effect[], e: E): Of<E>[] {
  return effects.filter((effect): effect is Of<E> => effect.e === e);
}

/** What the original operation did, from its effects (a "do": not inverted). */
export function describeOperation(
  name: string,
  effects: readonly Effect[],
  names: ChangeNames,
): string {
  const labels = new Map<Id, string>();
  for (const effect of effects) {
    if (effect.e === "cluster_created" || effect.e === "cluster_deleted")
      labels.set(effect.cluster, `"${effect.label}"`);
  }
  const cluster = (id: Id | null | undefined) =>
    id == null ? "no cluster" : (labels.get(id) ?? names.cluster(id));
  const moves = all(effects, "member_set");
  const mentions = (n: number) => (n === 1 ? names.mention(moves[0]!.mention) : `${n} mentions`);
  switch (name) {
    case "merge": {
      const deleted = first(effects, "cluster_deleted");
      const target = moves[0]?.new;
      return deleted ? `merge of ${cluster(deleted.cluster)} into ${cluster(target)}` : "merge";
    }
    case "assign": {
      const move = moves[0];
      if (!move) return "assignment";
      const created = first(effects, "cluster_created");
      const to = created && created.cluster === move.new ? "a new cluster" : cluster(move.new);
      return `assignment of ${names.mention(move.mention)} to ${to}`;
    }
    case "split":
      return moves.length ? `split of ${mentions(moves.length)} into a new cluster` : "split";
    case "rename": {
      const set = first(effects, "label_set");
      return set ? `rename of "${set.old}" to "${set.new}"` : "rename";
    }
    case "set_note": {
      const set = first(effects, "note_set");
      return set ? `note change of ${cluster(set.cluster)}` : "note change";
    }
    case "set_parent": {
      const added = first(effects, "edge_added");
      const removed = first(effects, "edge_removed");
      if (added) return `putting ${cluster(added.child)} under ${cluster(added.parent)}`;
      return removed ? `move of ${cluster(removed.child)} to the top level` : "parent change";
    }
    case "add_edge": {
      const added = first(effects, "edge_added");
      return added
        ? `adding ${cluster(added.parent)} as a parent of ${cluster(added.child)}`
        : "new edge";
    }
    case "remove_edge": {
      const removed = first(effects, "edge_removed");
      return removed
        ? `detaching ${cluster(removed.child)} from ${cluster(removed.parent)}`
        : "detach";
    }
    case "add_link":
    case "remove_link": {
      const link = first(effects, "link_added") ?? first(effects, "link_removed");
      const what = link
        ? `the ${link.type} link ${names.mention(link.anaphor)} → ${names.mention(link.antecedent)}`
        : "a link";
      return name === "add_link" ? `adding ${what}` : `removal of ${what}`;
    }
    case "set_link_note": {
      const set = first(effects, "link_note_set");
      return set
        ? `note change of the ${set.type} link ${names.mention(set.anaphor)} → ${names.mention(set.antecedent)}`
        : "link note change";
    }
    case "set_link_attribute": {
      const set = first(effects, "link_attribute_set");
      return set
        ? `${set.name} change of the ${set.type} link ${names.mention(set.anaphor)} → ${names.mention(set.antecedent)}`
        : "link attribute change";
    }
    case "set_cluster_attribute": {
      const set = first(effects, "cluster_attribute_set");
      return set ? `${set.name} change of ${cluster(set.cluster)}` : "cluster attribute change";
    }
    case "retype_links": {
      const added = all(effects, "link_added");
      const removed = all(effects, "link_removed");
      if (added.length === 1 && removed.length === 1) {
        const [was, now] = [removed[0]!, added[0]!];
        return `the change of the link ${names.mention(now.anaphor)} → ${names.mention(now.antecedent)} from ${was.type} to ${now.type}`;
      }
      return added.length
        ? `the change of ${added.length} links to ${added[0]!.type}`
        : "a change of link types";
    }
    case "add_mention": {
      const added = first(effects, "mention_added");
      return added
        ? `adding the mention ${names.text(added.document, added.spans)}`
        : "new mention";
    }
    case "fix_span": {
      const set = first(effects, "spans_set");
      return set ? `span change of ${names.mention(set.mention)}` : "span change";
    }
    case "reject_mention": {
      const set = first(effects, "rejected_set");
      return set ? `rejection of ${names.mention(set.mention)}` : "rejection";
    }
    case "add_mentions": {
      const n = all(effects, "mention_added").length;
      return `adding ${n} mention${n === 1 ? "" : "s"}`;
    }
    case "reject_mentions": {
      const n = all(effects, "rejected_set").length;
      return `rejection of ${n} mention${n === 1 ? "" : "s"}`;
    }
    case "accept_suggestions":
    case "reject_suggestions": {
      const n = all(effects, "suggestion_decided").length;
      return `${name === "accept_suggestions" ? "accepting" : "rejecting"} ${n} suggestion${n === 1 ? "" : "s"}`;
    }
    case "accept_suggestion":
      return "accepting a suggestion";
    case "reject_suggestion":
      return "rejecting a suggestion";
    default:
      return name.replaceAll("_", " ");
  }
}

/** "Undid …." / "Redid …." for an applied undo or redo (other kinds: "Done …."). */
export function describeChange(
  applied: Pick<Applied, "name" | "kind" | "effects">,
  names: ChangeNames,
): string {
  const original = applied.kind === "undo" ? invertEffects(applied.effects) : applied.effects;
  const verb = applied.kind === "undo" ? "Undid" : applied.kind === "redo" ? "Redid" : "Done:";
  return `${verb} ${describeOperation(applied.name, original, names)}.`;
}
