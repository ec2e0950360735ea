// The annotation of one assignment in the browser: the TypeScript twin of
// annotation/domain/state.py (same fields, same indexes, same mutators).
//
// Only applyEffects (./effects.ts) should call the mutators: they keep the indexes in step but
// check nothing. The workspace wraps an instance in Vue's reactive(), so Map.get/Set.has on a
// key are tracked per key: a change of one mention re-renders only what reads that mention.

import { markRaw } from "vue";
import type { AnnotationPayload, Decision, Id, LinkType, Span } from "../api/types";
import type { components } from "../api/schema";

export interface Mention {
  readonly id: Id;
  readonly document: Id;
  readonly spans: readonly Span[];
  readonly added: boolean;
  readonly rejected: boolean;
}

export interface Cluster {
  id: Id;
  label: string;
  note: string;
  members: Set<Id>;
  /** attribute name -> value, among the project's attributes */
  attributes: Map<string, string>;
}

/** A validator's decision on one mention: accepted, or rejected with a reason's key. */
export type Validation = components["schemas"]["ValidationDecisionPayload"];

export interface Link {
  readonly type: LinkType;
  readonly anaphor: Id;
  readonly antecedent: Id;
}

export interface Settings {
  single_parent: boolean;
  allow_add_mentions: boolean;
  allow_fix_spans: boolean;
  allow_reject_mentions: boolean;
  hierarchy: boolean;
  anaphora: boolean;
  /** A second link type between the same anaphor and antecedent is refused (off: a warning). */
  refuse_duplicate_link_pairs: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  single_parent: true,
  allow_add_mentions: false,
  allow_fix_spans: false,
  allow_reject_mentions: false,
  hierarchy: true,
  anaphora: false,
  refuse_duplicate_link_pairs: false,
};

export function linkKey(link: Link): string {
  return `${link.type}|${link.anaphor}|${link.antecedent}`;
}

/** A linkKey back to its [type, anaphor, antecedent] (ids as numbers, as Python's snapshot has them). */
function splitKey(key: string): [string, number, number] {
  const [type, anaphor, antecedent] = key.split("|");
  return [type!, Number(anaphor), Number(antecedent)];
}

/** Python's sort of mixed rows: element by element, numbers as numbers, text as text. */
function compareRows(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

export function edgeKey(parent: Id, child: Id): string {
  return `${parent}>${child}`;
}

/** Mention objects are immutable: a change replaces the object, so Vue need not proxy them. */
export function makeMention(id: Id, document: Id, spans: readonly Span[], added = false, rejected = false): Mention {
  return markRaw({
    id,
    document,
    spans: spans.map(([s, e]) => [s, e] as Span),
    added,
    rejected,
  });
}

export function sameSpans(a: readonly Span[], b: readonly Span[]): boolean {
  return a.length === b.length && a.every(([s, e], i) => s === b[i]![0] && e === b[i]![1]);
}

export interface StateInit {
  settings?: Partial<Settings>;
  documents?: Iterable<[Id, number]>;
  mentions?: Iterable<Mention>;
  clusters?: Iterable<{
    id: Id;
    label: string;
    note?: string;
    members?: Iterable<Id>;
    attributes?: Record<string, string>;
  }>;
  edges?: Iterable<readonly [Id, Id]>;
  links?: Iterable<Link>;
  decisions?: Iterable<[Id, Decision]>;
  /** mention id -> validation (the clustering payload has none: the validation page shows them) */
  validations?: Iterable<[Id, Validation]>;
  /** What annotators wrote on links: only the links that carry a note or an attribute. */
  linkDetails?: Iterable<Link & { note: string; attributes: Record<string, string> }>;
}

export class AnnotationState {
  settings: Settings;
  /** document id -> token count */
  documents: Map<Id, number>;
  mentions: Map<Id, Mention>;
  clusters: Map<Id, Cluster>;
  /** edgeKey(parent, child) -> [parent, child] */
  edges: Map<string, readonly [Id, Id]>;
  links: Map<string, Link>;
  decisions: Map<Id, Decision>;
  /** mention id -> the validator's decision */
  validations: Map<Id, Validation>;
  /** linkKey -> note, for the links that have one */
  linkNotes: Map<string, string>;
  /** linkKey -> (attribute name -> value), for the links that have any */
  linkAttributes: Map<string, Map<string, string>>;

  // Indexes, derived from the fields above.
  mentionCluster: Map<Id, Id>;
  parents: Map<Id, Set<Id>>;
  children: Map<Id, Set<Id>>;
  mentionLinks: Map<Id, Set<string>>;

  constructor(init: StateInit = {}) {
    this.settings = { ...DEFAULT_SETTINGS, ...init.settings };
    this.documents = new Map(init.documents ?? []);
    this.mentions = new Map();
    for (const m of init.mentions ?? []) this.mentions.set(m.id, m);
    this.clusters = new Map();
    this.mentionCluster = new Map();
    this.parents = new Map();
    this.children = new Map();
    for (const c of init.clusters ?? []) {
      const cluster: Cluster = {
        id: c.id,
        label: c.label,
        note: c.note ?? "",
        members: new Set(c.members ?? []),
        attributes: new Map(Object.entries(c.attributes ?? {})),
      };
      this.clusters.set(c.id, cluster);
      this.parents.set(c.id, new Set());
      this.children.set(c.id, new Set());
      for (const m of cluster.members) {
        if (this.mentionCluster.has(m)) throw new Error(`mention #${m} is in two clusters`);
        this.mentionCluster.set(m, c.id);
      }
    }
    this.edges = new Map();
    for (const [p, c] of init.edges ?? []) this.addEdge(p, c);
    this.links = new Map();
    this.mentionLinks = new Map();
    for (const id of this.mentions.keys()) this.mentionLinks.set(id, new Set());
    for (const link of init.links ?? []) this.addLink(link);
    this.decisions = new Map(init.decisions ?? []);
    this.validations = new Map(init.validations ?? []);
    this.linkNotes = new Map();
    this.linkAttributes = new Map();
    for (const details of init.linkDetails ?? []) {
      const key = linkKey(details);
      if (!this.links.has(key)) throw new Error(`a note or attribute names the missing link ${key}`);
      if (details.note) this.linkNotes.set(key, details.note);
      const values = Object.entries(details.attributes);
      if (values.length) this.linkAttributes.set(key, new Map(values));
    }
  }

  static fromPayload(
    payload: AnnotationPayload,
    documents: Iterable<[Id, number]>,
    settings: Partial<Settings>,
  ): AnnotationState {
    return new AnnotationState({
      settings,
      documents,
      mentions: payload.mentions.map((m) => makeMention(m.id, m.document, m.spans, m.added, m.rejected)),
      clusters: payload.clusters,
      edges: payload.edges,
      links: payload.links.map(([type, anaphor, antecedent]) => ({ type, anaphor, antecedent })),
      decisions: Object.entries(payload.decisions).map(([k, v]) => [Number(k), v] as [Id, Decision]),
      linkDetails: payload.link_details ?? [],
    });
  }

  hasEdge(parent: Id, child: Id): boolean {
    return this.edges.has(edgeKey(parent, child));
  }

  /** How messages name a cluster: its label and id, e.g. `'CRF tagger' (#12)`. */
  clusterName(id: Id): string {
    return `'${this.clusters.get(id)?.label ?? "?"}' (#${id})`;
  }

  /** A canonical, comparable picture of the whole state: the same shape as Python's snapshot(). */
  snapshot(): unknown {
    const byId = <T>(a: [Id, T], b: [Id, T]) => a[0] - b[0];
    return {
      settings: { ...this.settings },
      documents: [...this.documents.entries()].sort(byId),
      mentions: [...this.mentions.values()]
        .sort((a, b) => a.id - b.id)
        .map((m) => [m.id, m.document, m.spans.map((s) => [...s]), m.added, m.rejected]),
      clusters: [...this.clusters.values()]
        .sort((a, b) => a.id - b.id)
        .map((c) => [c.id, c.label, c.note, [...c.members].sort((x, y) => x - y)]),
      edges: [...this.edges.values()].map((e) => [...e]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!),
      links: [...this.links.values()]
        .map((l) => [l.type, l.anaphor, l.antecedent])
        .sort(compareRows),
      decisions: [...this.decisions.entries()].sort(byId),
      validations: [...this.validations.entries()]
        .sort(byId)
        .map(([id, v]) => [id, v.decision, v.reason, v.note]),
      link_notes: [...this.linkNotes.entries()].map(([key, note]) => [...splitKey(key), note]).sort(compareRows),
      link_attributes: [...this.linkAttributes.entries()]
        .flatMap(([key, values]) => [...values.entries()].map(([name, value]) => [...splitKey(key), name, value]))
        .sort(compareRows),
      cluster_attributes: [...this.clusters.values()]
        .flatMap((c) => [...c.attributes.entries()].map(([name, value]) => [c.id, name, value]))
        .sort(compareRows),
    };
  }

  // -- mutators (for applyEffects only) ------------------------------------------------

  createCluster(id: Id, label: string, note: string): void {
    this.clusters.set(id, { id, label, note, members: new Set(), attributes: new Map() });
    this.parents.set(id, new Set());
    this.children.set(id, new Set());
  }

  deleteCluster(id: Id): void {
    this.clusters.delete(id);
    this.parents.delete(id);
    this.children.delete(id);
  }

  setMember(mention: Id, cluster: Id | null): void {
    const old = this.mentionCluster.get(mention);
    if (old !== undefined) {
      this.clusters.get(old)?.members.delete(mention);
      this.mentionCluster.delete(mention);
    }
    if (cluster !== null) {
      this.clusters.get(cluster)!.members.add(mention);
      this.mentionCluster.set(mention, cluster);
    }
  }

  addEdge(parent: Id, child: Id): void {
    this.edges.set(edgeKey(parent, child), [parent, child]);
    this.parents.get(child)!.add(parent);
    this.children.get(parent)!.add(child);
  }

  removeEdge(parent: Id, child: Id): void {
    this.edges.delete(edgeKey(parent, child));
    this.parents.get(child)?.delete(parent);
    this.children.get(parent)?.delete(child);
  }

  addLink(link: Link): void {
    const key = linkKey(link);
    this.links.set(key, link);
    this.mentionLinks.get(link.anaphor)!.add(key);
    this.mentionLinks.get(link.antecedent)!.add(key);
  }

  removeLink(link: Link): void {
    const key = linkKey(link);
    this.links.delete(key);
    this.mentionLinks.get(link.anaphor)?.delete(key);
    this.mentionLinks.get(link.antecedent)?.delete(key);
  }

  setLinkNote(link: Link, note: string): void {
    if (note) this.linkNotes.set(linkKey(link), note);
    else this.linkNotes.delete(linkKey(link));
  }

  setLinkAttribute(link: Link, name: string, value: string | null): void {
    const key = linkKey(link);
    const values = this.linkAttributes.get(key) ?? new Map<string, string>();
    if (value === null) values.delete(name);
    else values.set(name, value);
    if (values.size) this.linkAttributes.set(key, values);
    else this.linkAttributes.delete(key);
  }

  setClusterAttribute(cluster: Id, name: string, value: string | null): void {
    const values = this.clusters.get(cluster)!.attributes;
    if (value === null) values.delete(name);
    else values.set(name, value);
  }

  setValidation(mention: Id, validation: Validation | null): void {
    if (validation === null) this.validations.delete(mention);
    else this.validations.set(mention, validation);
  }

  /** Add a mention or replace one (new spans, new rejected flag). */
  putMention(mention: Mention): void {
    if (!this.mentions.has(mention.id)) this.mentionLinks.set(mention.id, new Set());
    this.mentions.set(mention.id, mention);
  }

  removeMention(id: Id): void {
    this.mentions.delete(id);
    this.mentionLinks.delete(id);
  }
}
