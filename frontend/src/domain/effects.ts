// Applying the server's effects to the local state: a port of annotation/domain/effects.py.
//
// The server plans every operation and sends back its effects (primitive, invertible
// changes); the browser applies exactly those, with the same precondition checks, so the
// local state cannot drift from the server's without the check saying so (and the workspace
// then reloads).

import type { Effect } from "../api/types";
import { LINK_TYPES } from "../api/types";
import { type AnnotationState, type Link, makeMention, sameSpans, type Validation } from "./state";

export class CorruptEffects extends Error {
  constructor(
    message: string,
    readonly effect: unknown,
  ) {
    super(message);
    this.name = "CorruptEffects";
  }
}

const INVERSE_NAME: Partial<Record<Effect["e"], Effect["e"]>> = {
  cluster_created: "cluster_deleted",
  cluster_deleted: "cluster_created",
  edge_added: "edge_removed",
  edge_removed: "edge_added",
  link_added: "link_removed",
  link_removed: "link_added",
  mention_added: "mention_removed",
  mention_removed: "mention_added",
};
const SWAPPED = new Set<Effect["e"]>([
  "member_set",
  "label_set",
  "note_set",
  "spans_set",
  "rejected_set",
  "suggestion_decided",
  "validation_set",
  "link_note_set",
  "link_attribute_set",
  "cluster_attribute_set",
]);

export function invertEffect(effect: Effect): Effect {
  if (SWAPPED.has(effect.e)) {
    const swapped = effect as Effect & { old: unknown; new: unknown };
    return { ...swapped, old: swapped.new, new: swapped.old } as Effect;
  }
  const inverse = INVERSE_NAME[effect.e];
  if (inverse === undefined) throw new CorruptEffects(`unknown effect '${effect.e}'`, effect);
  return { ...effect, e: inverse } as Effect;
}

/** The effects that undo `effects`: each one inverted, in reverse order. */
export function invertEffects(effects: readonly Effect[]): Effect[] {
  return [...effects].reverse().map(invertEffect);
}

/**
 * Apply effects in place, checking each one's precondition against the state.
 * All or nothing: when an effect does not fit, the ones already applied are rolled back and
 * CorruptEffects is thrown.
 */
export function applyEffects(state: AnnotationState, effects: readonly Effect[]): void {
  for (let index = 0; index < effects.length; index++) {
    const effect = effects[index]!;
    try {
      applyOne(state, effect);
    } catch (error) {
      for (const applied of invertEffects(effects.slice(0, index))) applyOne(state, applied);
      if (error instanceof CorruptEffects) throw error;
      throw new CorruptEffects(`malformed effect #${index}: ${String(error)}`, effect);
    }
  }
}

function need(condition: boolean, effect: Effect, why: string): asserts condition {
  if (!condition) throw new CorruptEffects(`cannot apply ${effect.e}: ${why}`, effect);
}

function isInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

function checkFields(effect: Effect, fields: string[]): void {
  const record = effect as unknown as Record<string, unknown>;
  for (const field of fields) {
    if (!(field in record)) throw new TypeError(`missing field '${field}'`);
  }
}

type Handler<E extends Effect["e"]> = (state: AnnotationState, e: Extract<Effect, { e: E }>) => void;
type Handlers = { [E in Effect["e"]]: Handler<E> };

function applyOne(state: AnnotationState, effect: Effect): void {
  const handler = (HANDLERS as Record<string, Handler<Effect["e"]> | undefined>)[effect.e];
  need(handler !== undefined, effect, "unknown effect");
  handler(state, effect as never);
}

/** A validation from an effect (null: none), or a TypeError (a malformed effect) as Python's
 * `_validation` refuses one: a known decision, a text note, and a reason with a rejection only. */
function asValidation(value: unknown): Validation | null {
  if (value === null) return null;
  const v = value as Record<string, unknown>;
  const decision = v.decision;
  const known = decision === "accepted" || decision === "rejected";
  if (!known || typeof v.note !== "string" || !("reason" in v)) {
    throw new TypeError(`not a validation: ${JSON.stringify(value)}`);
  }
  if ((decision === "rejected") !== (typeof v.reason === "string")) {
    const why = "a rejection, and only a rejection, has a reason";
    throw new TypeError(`${why}: ${JSON.stringify(value)}`);
  }
  return { decision, reason: v.reason as string | null, note: v.note };
}

function sameValidation(a: Validation | null, b: Validation | null): boolean {
  if (a === null || b === null) return a === b;
  return a.decision === b.decision && a.reason === b.reason && a.note === b.note;
}

function asLink(e: { type: Link["type"]; anaphor: number; antecedent: number }): Link {
  return { type: e.type, anaphor: e.anaphor, antecedent: e.antecedent };
}

const HANDLERS: Handlers = {
  cluster_created(state, e) {
    checkFields(e, ["cluster", "label", "note"]);
    need(!state.clusters.has(e.cluster), e, "the cluster exists");
    need(typeof e.label === "string" && typeof e.note === "string", e, "label and note are text");
    state.createCluster(e.cluster, e.label, e.note);
  },
  cluster_deleted(state, e) {
    checkFields(e, ["cluster", "label", "note"]);
    const cluster = state.clusters.get(e.cluster);
    need(cluster !== undefined, e, "no such cluster");
    need(cluster.label === e.label && cluster.note === e.note, e, "label or note differ");
    need(cluster.members.size === 0, e, "the cluster still has members");
    need(cluster.attributes.size === 0, e, "the cluster still has attributes");
    need(
      state.parents.get(e.cluster)!.size === 0 && state.children.get(e.cluster)!.size === 0,
      e,
      "the cluster still has edges",
    );
    state.deleteCluster(e.cluster);
  },
  member_set(state, e) {
    checkFields(e, ["mention", "old", "new"]);
    need(state.mentions.has(e.mention), e, "no such mention");
    need((state.mentionCluster.get(e.mention) ?? null) === e.old, e, "the mention is elsewhere");
    if (e.new !== null) {
      need(state.clusters.has(e.new), e, "no such cluster");
      need(!state.mentions.get(e.mention)!.rejected, e, "the mention is rejected");
    }
    state.setMember(e.mention, e.new);
  },
  edge_added(state, e) {
    checkFields(e, ["parent", "child"]);
    need(state.clusters.has(e.parent) && state.clusters.has(e.child), e, "no such cluster");
    need(e.parent !== e.child, e, "self-loop");
    need(!state.hasEdge(e.parent, e.child), e, "the edge exists");
    state.addEdge(e.parent, e.child);
  },
  edge_removed(state, e) {
    checkFields(e, ["parent", "child"]);
    need(state.hasEdge(e.parent, e.child), e, "no such edge");
    state.removeEdge(e.parent, e.child);
  },
  label_set(state, e) {
    checkFields(e, ["cluster", "old", "new"]);
    const cluster = state.clusters.get(e.cluster);
    need(cluster !== undefined && cluster.label === e.old, e, "label differs");
    need(typeof e.new === "string", e, "label is text");
    cluster.label = e.new;
  },
  note_set(state, e) {
    checkFields(e, ["cluster", "old", "new"]);
    const cluster = state.clusters.get(e.cluster);
    need(cluster !== undefined && cluster.note === e.old, e, "note differs");
    need(typeof e.new === "string", e, "note is text");
    cluster.note = e.new;
  },
  link_added(state, e) {
    checkFields(e, ["type", "anaphor", "antecedent"]);
    const link = asLink(e);
    need((LINK_TYPES as readonly string[]).includes(link.type), e, "unknown link type");
    need(state.mentions.has(link.anaphor) && state.mentions.has(link.antecedent), e, "no such mention");
    need(!state.links.has(`${link.type}|${link.anaphor}|${link.antecedent}`), e, "the link exists");
    state.addLink(link);
  },
  link_removed(state, e) {
    checkFields(e, ["type", "anaphor", "antecedent"]);
    const link = asLink(e);
    const key = `${link.type}|${link.anaphor}|${link.antecedent}`;
    need(state.links.has(key), e, "no such link");
    need(!state.linkNotes.has(key) && !state.linkAttributes.has(key), e, "the link still has a note or attributes");
    state.removeLink(link);
  },
  link_note_set(state, e) {
    checkFields(e, ["type", "anaphor", "antecedent", "old", "new"]);
    const link = asLink(e);
    const key = `${link.type}|${link.anaphor}|${link.antecedent}`;
    need(state.links.has(key), e, "no such link");
    need((state.linkNotes.get(key) ?? "") === e.old, e, "note differs");
    need(typeof e.new === "string", e, "note is text");
    state.setLinkNote(link, e.new);
  },
  link_attribute_set(state, e) {
    checkFields(e, ["type", "anaphor", "antecedent", "name", "old", "new"]);
    const link = asLink(e);
    const key = `${link.type}|${link.anaphor}|${link.antecedent}`;
    need(state.links.has(key), e, "no such link");
    need(typeof e.name === "string" && (e.new === null || typeof e.new === "string"), e, "name and value are text");
    need((state.linkAttributes.get(key)?.get(e.name) ?? null) === e.old, e, "value differs");
    state.setLinkAttribute(link, e.name, e.new);
  },
  cluster_attribute_set(state, e) {
    checkFields(e, ["cluster", "name", "old", "new"]);
    const cluster = state.clusters.get(e.cluster);
    need(cluster !== undefined, e, "no such cluster");
    need(typeof e.name === "string" && (e.new === null || typeof e.new === "string"), e, "name and value are text");
    need((cluster.attributes.get(e.name) ?? null) === e.old, e, "value differs");
    state.setClusterAttribute(e.cluster, e.name, e.new);
  },
  mention_added(state, e) {
    checkFields(e, ["mention", "document", "spans"]);
    need(!state.mentions.has(e.mention), e, "the mention exists");
    need(state.documents.has(e.document), e, "no such document");
    state.putMention(makeMention(e.mention, e.document, e.spans, true, false));
  },
  mention_removed(state, e) {
    checkFields(e, ["mention", "document", "spans"]);
    const mention = state.mentions.get(e.mention);
    need(mention !== undefined, e, "no such mention");
    need(mention.added && !mention.rejected, e, "only an added, active mention is removed");
    need(mention.document === e.document && sameSpans(mention.spans, e.spans), e, "spans differ");
    need(
      !state.mentionCluster.has(e.mention) && (state.mentionLinks.get(e.mention)?.size ?? 0) === 0,
      e,
      "still in use",
    );
    state.removeMention(e.mention);
  },
  spans_set(state, e) {
    checkFields(e, ["mention", "old", "new"]);
    const mention = state.mentions.get(e.mention);
    need(mention !== undefined && sameSpans(mention.spans, e.old), e, "spans differ");
    need(Array.isArray(e.new) && e.new.length > 0, e, "no spans");
    need(
      e.new.every((span) => Array.isArray(span) && span.length === 2 && isInt(span[0]) && isInt(span[1])),
      e,
      "spans are [start, end] pairs",
    );
    state.putMention(makeMention(mention.id, mention.document, e.new, mention.added, mention.rejected));
  },
  rejected_set(state, e) {
    checkFields(e, ["mention", "old", "new"]);
    const mention = state.mentions.get(e.mention);
    need(mention !== undefined && mention.rejected === e.old, e, "rejected flag differs");
    need(typeof e.new === "boolean", e, "rejected is a boolean");
    if (e.new) {
      const inUse = state.mentionCluster.has(mention.id) || (state.mentionLinks.get(mention.id)?.size ?? 0) > 0;
      need(!inUse, e, "a rejected mention has no cluster and no links");
    }
    state.putMention(makeMention(mention.id, mention.document, mention.spans, mention.added, e.new));
  },
  suggestion_decided(state, e) {
    checkFields(e, ["suggestion", "old", "new"]);
    need((state.decisions.get(e.suggestion) ?? null) === e.old, e, "decision differs");
    need(e.new === null || e.new === "accepted" || e.new === "rejected", e, "unknown decision");
    if (e.new === null) state.decisions.delete(e.suggestion);
    else state.decisions.set(e.suggestion, e.new);
  },
  // The validation page keeps its own copy of the decisions (src/validation/decisions.ts);
  // the state still checks and records them as Python's does, so a stale one is refused here too.
  validation_set(state, e) {
    checkFields(e, ["mention", "old", "new"]);
    need(state.mentions.has(e.mention), e, "no such mention");
    const old = asValidation(e.old);
    need(sameValidation(state.validations.get(e.mention) ?? null, old), e, "validation differs");
    state.setValidation(e.mention, asValidation(e.new));
  },
};

/** Every kind of effect there is (the golden cases of fixtures/golden/twins/ cover each one). */
export const EFFECT_KINDS = Object.keys(HANDLERS) as Effect["e"][];
