// What the adjudicator decides from: each annotator's submitted version renamed into the
// adjudicated annotation's mention ids, aligned cluster by cluster (./alignment.ts), the
// support of every adjudicated cluster, edge and link, and the items where some annotator's
// decision differs from the adjudicated one. Pure: rebuilt from the state after each change.
//
// Definitions (docs/adjudication-workspace.md says why):
// - An annotator's decision for a mention: rejected; absent (a mention someone added and they
//   did not); in the adjudicated cluster their cluster is aligned to; in a cluster of theirs
//   aligned to none ("new"); or in no cluster.
// - Support of a mention's placement: the annotators whose decision equals the adjudicated one.
// - Support of a cluster: the annotators who have a cluster with exactly its members.
// - Support of an edge P > C: the annotators whose clusters aligned to P and C have that edge.
// - Support of a link: the annotators who have the same link (type, anaphor, antecedent).
// - A disagreement: a mention, edge or link whose support is below the number of annotators.

import type { components } from "../../api/schema";
import type { Id, LinkType, Span } from "../../api/types";
import { type AnnotationState, edgeKey } from "../../domain/state";
import { alignClusters, type Key } from "./alignment";

export type AnnotatorVersion = Omit<components["schemas"]["AnnotatorVersion"], "links"> & {
  links: [LinkType, Id, Id][];
};

export interface Place {
  document: Id;
  spans: readonly Span[];
}

export interface MappedLink {
  type: LinkType;
  anaphor: Key;
  antecedent: Key;
}

export const mappedLinkKey = (l: MappedLink): string => `${l.type}|${l.anaphor}|${l.antecedent}`;

/** One annotator's version with its mentions renamed into adjudicated ids (see `keys`). */
export interface AnnotatorView {
  /** 0-based; the key that adopts this annotator's decisions is index + 1. */
  index: number;
  annotator: string;
  clusterOf: Map<Key, number>;
  members: Map<number, Key[]>;
  labels: Map<number, string>;
  parents: Map<number, number[]>;
  children: Map<number, number[]>;
  edges: Set<string>;
  links: Map<string, MappedLink>;
  linksOf: Map<Key, string[]>;
  rejected: Set<Key>;
  added: Set<Key>;
  /** The mentions this annotator flagged for the adjudicator, with their comments. */
  flags: Map<Key, string>;
  /** annotator cluster -> the adjudicated cluster it is aligned to, and back */
  aligned: Map<number, Id>;
  alignedFrom: Map<Id, number>;
}

export type MentionDecision =
  | { kind: "cluster"; cluster: Id }
  | { kind: "new"; cluster: number }
  | { kind: "rejected" }
  | { kind: "absent" }
  | { kind: "unassigned" };

export const decisionCode = (d: MentionDecision): string =>
  d.kind === "cluster" ? `c${d.cluster}` : d.kind === "new" ? `n${d.cluster}` : d.kind;

interface ItemBase {
  /** Stable while the things it names exist: "m:<mention>", "e:<parent>><child>", "l:<type>|<a>|<b>". */
  key: string;
  /** The mention the workspace goes to for this item. */
  anchor: Key;
  support: number;
}
export type Item =
  | (ItemBase & {
      kind: "mention";
      mention: Key;
      decisions: MentionDecision[];
      current: MentionDecision;
    })
  | (ItemBase & { kind: "edge"; parent: Id; child: Id; has: boolean[]; current: boolean })
  | (ItemBase & { kind: "link"; link: MappedLink; has: boolean[]; current: boolean });

export interface AdjudicationModel {
  annotators: AnnotatorView[];
  /** Mentions that exist only in some annotators' versions: a negative key -> its place. */
  places: Map<Key, Place>;
  clusterSupport: Map<Id, number>;
  edgeSupport: Map<string, number>;
  linkSupport: Map<string, number>;
  mentionSupport: Map<Key, number>;
  /** Every disagreement, in reading order of its anchor (mentions, then edges, then links). */
  items: Item[];
}

const placeKey = (document: Id, spans: readonly Span[]) =>
  `${document}:${spans.map(([s, e]) => `${s}-${e}`).join(",")}`;

type Adjudicated = Pick<
  AnnotationState,
  "mentions" | "clusters" | "edges" | "links" | "mentionCluster"
>;

/**
 * Mentions by identity across annotations: a candidate mention has one id everywhere; a
 * mention an annotator added is the adjudicated mention at the same place, or else a negative
 * key shared by every annotator who added that same place.
 */
function mentionKeys(state: Adjudicated, versions: readonly AnnotatorVersion[]) {
  const atPlace = new Map<string, Key>();
  for (const m of state.mentions.values()) atPlace.set(placeKey(m.document, m.spans), m.id);
  const places = new Map<Key, Place>();
  const perVersion = versions.map((version) => {
    const rename = new Map<number, Key>();
    for (const added of version.added) {
      const where = placeKey(added.document, added.spans);
      let key = atPlace.get(where);
      if (key === undefined) {
        key = -(places.size + 1);
        atPlace.set(where, key);
        places.set(key, { document: added.document, spans: added.spans });
      }
      rename.set(added.id, key);
    }
    return rename;
  });
  return { places, perVersion };
}

type StaticView = Omit<AnnotatorView, "aligned" | "alignedFrom"> & {
  clusterSets: { id: number; members: Key[] }[];
};

/** What does not change while the adjudicator edits: kept per version and renaming. */
const staticViews = new WeakMap<AnnotatorVersion, { renaming: string; view: StaticView }>();

function staticView(
  index: number,
  version: AnnotatorVersion,
  rename: Map<number, Key>,
): StaticView {
  const renaming = [...rename].join(";");
  const cached = staticViews.get(version);
  if (cached && cached.renaming === renaming && cached.view.index === index) return cached.view;
  const view = buildStaticView(index, version, (id) => rename.get(id) ?? id);
  staticViews.set(version, { renaming, view });
  return view;
}

function buildStaticView(
  index: number,
  version: AnnotatorVersion,
  key: (id: number) => Key,
): StaticView {
  const clusterOf = new Map<Key, number>();
  const members = new Map<number, Key[]>();
  const labels = new Map<number, string>();
  const parents = new Map<number, number[]>();
  const children = new Map<number, number[]>();
  for (const cluster of version.clusters) {
    const keys = cluster.members.map(key);
    members.set(cluster.id, keys);
    labels.set(cluster.id, cluster.label);
    for (const k of keys) clusterOf.set(k, cluster.id);
  }
  const edges = new Set<string>();
  for (const [parent, child] of version.edges) {
    edges.add(edgeKey(parent, child));
    parents.set(child, [...(parents.get(child) ?? []), parent]);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const links = new Map<string, MappedLink>();
  const linksOf = new Map<Key, string[]>();
  for (const [type, anaphor, antecedent] of version.links) {
    const link = { type, anaphor: key(anaphor), antecedent: key(antecedent) };
    const k = mappedLinkKey(link);
    links.set(k, link);
    for (const end of [link.anaphor, link.antecedent])
      linksOf.set(end, [...(linksOf.get(end) ?? []), k]);
  }
  return {
    index,
    annotator: version.annotator,
    clusterOf,
    members,
    labels,
    parents,
    children,
    edges,
    links,
    linksOf,
    rejected: new Set(version.rejected.map(key)),
    added: new Set(version.added.map((a) => key(a.id))),
    flags: new Map(version.flags.map((f) => [key(f.mention), f.comment])),
    clusterSets: version.clusters.map((c) => ({ id: c.id, members: members.get(c.id)! })),
  };
}

function annotatorView(
  base: StaticView,
  adjudicatedClusters: readonly { id: Id; members: Key[] }[],
): AnnotatorView {
  const aligned = alignClusters(base.clusterSets, adjudicatedClusters);
  const alignedFrom = new Map<Id, number>();
  for (const [mine, theirs] of aligned) alignedFrom.set(theirs, mine);
  return { ...base, aligned, alignedFrom };
}

export function annotatorDecision(
  view: AnnotatorView,
  mention: Key,
  state: Adjudicated,
): MentionDecision {
  if (view.rejected.has(mention)) return { kind: "rejected" };
  const cluster = view.clusterOf.get(mention);
  if (cluster !== undefined) {
    const aligned = view.aligned.get(cluster);
    return aligned === undefined ? { kind: "new", cluster } : { kind: "cluster", cluster: aligned };
  }
  const candidate = mention >= 0 && state.mentions.get(mention)?.added === false;
  return candidate || view.added.has(mention) ? { kind: "unassigned" } : { kind: "absent" };
}

/**
 * The decisions as numbers, to compare every mention cheaply: an adjudicated cluster id (> 0),
 * or -1 rejected, -2 absent, -3 unassigned, -4 "new" (never the adjudicated one's).
 */
function annotatorCode(view: AnnotatorView, mention: Key, candidate: boolean): number {
  if (view.rejected.has(mention)) return -1;
  const cluster = view.clusterOf.get(mention);
  if (cluster !== undefined) return view.aligned.get(cluster) ?? -4;
  return candidate || view.added.has(mention) ? -3 : -2;
}

function adjudicatedCode(mention: Key, state: Adjudicated): number {
  const m = mention >= 0 ? state.mentions.get(mention) : undefined;
  if (!m) return -2;
  if (m.rejected) return -1;
  return state.mentionCluster.get(mention) ?? -3;
}

export function adjudicatedDecision(mention: Key, state: Adjudicated): MentionDecision {
  const m = mention >= 0 ? state.mentions.get(mention) : undefined;
  if (!m) return { kind: "absent" };
  if (m.rejected) return { kind: "rejected" };
  const cluster = state.mentionCluster.get(mention);
  return cluster === undefined ? { kind: "unassigned" } : { kind: "cluster", cluster };
}

/** Reading order of mention keys (document, first token, last token, key). */
function readingRank(
  state: Adjudicated,
  places: Map<Key, Place>,
  documentIndex: ReadonlyMap<Id, number>,
): Map<Key, number> {
  const all: [Key, Place][] = [...state.mentions.values()].map((m) => [m.id, m] as [Key, Place]);
  for (const entry of places) all.push(entry);
  const first = (p: Place) => p.spans[0]?.[0] ?? 0;
  const last = (p: Place) => p.spans[p.spans.length - 1]?.[1] ?? 0;
  all.sort(
    ([ka, a], [kb, b]) =>
      (documentIndex.get(a.document) ?? 0) - (documentIndex.get(b.document) ?? 0) ||
      first(a) - first(b) ||
      last(a) - last(b) ||
      ka - kb,
  );
  return new Map(all.map(([key], i) => [key, i]));
}

export function buildAdjudication(
  state: Adjudicated,
  versions: readonly AnnotatorVersion[],
  documentIndex: ReadonlyMap<Id, number>,
): AdjudicationModel {
  const { places, perVersion } = mentionKeys(state, versions);
  const adjudicatedClusters = [...state.clusters.values()].map((c) => ({
    id: c.id,
    members: [...c.members],
  }));
  const annotators = versions.map((v, i) =>
    annotatorView(staticView(i, v, perVersion[i]!), adjudicatedClusters),
  );
  const n = annotators.length;
  const rank = readingRank(state, places, documentIndex);
  const items: Item[] = [];

  const mentionSupport = new Map<Key, number>();
  const mentionKeysAll: Key[] = [...state.mentions.keys(), ...places.keys()];
  for (const mention of mentionKeysAll) {
    const code = adjudicatedCode(mention, state);
    const candidate = mention >= 0 && state.mentions.get(mention)?.added === false;
    let support = 0;
    for (const a of annotators) if (annotatorCode(a, mention, candidate) === code) support++;
    mentionSupport.set(mention, support);
    if (support < n) {
      const decisions = annotators.map((a) => annotatorDecision(a, mention, state));
      const current = adjudicatedDecision(mention, state);
      items.push({
        kind: "mention",
        key: `m:${mention}`,
        anchor: mention,
        mention,
        decisions,
        current,
        support,
      });
    }
  }

  const clusterSupport = new Map<Id, number>();
  for (const cluster of state.clusters.values()) {
    let support = 0;
    for (const a of annotators) {
      const mine = a.alignedFrom.get(cluster.id);
      if (mine === undefined || a.members.get(mine)!.length !== cluster.members.size) continue;
      if ([...cluster.members].every((m) => a.clusterOf.get(m) === mine)) support++;
    }
    clusterSupport.set(cluster.id, support);
  }

  const firstMember = (cluster: Id): Key => {
    let best: Key | null = null;
    for (const m of state.clusters.get(cluster)?.members ?? []) {
      if (best === null || (rank.get(m) ?? 0) < (rank.get(best) ?? 0)) best = m;
    }
    return best ?? 0;
  };
  const edgeSupport = new Map<string, number>();
  const edgeCandidates = new Map<string, [Id, Id]>();
  for (const [parent, child] of state.edges.values())
    edgeCandidates.set(edgeKey(parent, child), [parent, child]);
  for (const a of annotators) {
    for (const key of a.edges) {
      const [p, c] = key.split(">").map(Number) as [number, number];
      const parent = a.aligned.get(p);
      const child = a.aligned.get(c);
      // Never an edge from a cluster to itself: the hierarchy refuses one, so no adoption could
      // settle it (with a many-to-one alignment, two of an annotator's clusters on one of ours).
      if (parent !== undefined && child !== undefined && parent !== child)
        edgeCandidates.set(edgeKey(parent, child), [parent, child]);
    }
  }
  const edgeItems: Item[] = [];
  for (const [key, [parent, child]] of edgeCandidates) {
    const has = annotators.map((a) => {
      const p = a.alignedFrom.get(parent);
      const c = a.alignedFrom.get(child);
      return p !== undefined && c !== undefined && a.edges.has(edgeKey(p, c));
    });
    const current = state.edges.has(key);
    const support = has.filter((h) => h === current).length;
    if (current) edgeSupport.set(key, has.filter(Boolean).length);
    if (support < n)
      edgeItems.push({
        kind: "edge",
        key: `e:${key}`,
        anchor: firstMember(child),
        parent,
        child,
        has,
        current,
        support,
      });
  }

  const linkSupport = new Map<string, number>();
  const linkCandidates = new Map<string, MappedLink>();
  for (const l of state.links.values()) linkCandidates.set(mappedLinkKey(l), l);
  for (const a of annotators) for (const [key, l] of a.links) linkCandidates.set(key, l);
  const linkItems: Item[] = [];
  for (const [key, link] of linkCandidates) {
    const has = annotators.map((a) => a.links.has(key));
    const current = state.links.has(key);
    const support = has.filter((h) => h === current).length;
    if (current) linkSupport.set(key, has.filter(Boolean).length);
    if (support < n)
      linkItems.push({
        kind: "link",
        key: `l:${key}`,
        anchor: link.anaphor,
        link,
        has,
        current,
        support,
      });
  }

  const byAnchor = (a: Item, b: Item) =>
    (rank.get(a.anchor) ?? 0) - (rank.get(b.anchor) ?? 0) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  items.sort(byAnchor);
  edgeItems.sort(byAnchor);
  linkItems.sort(byAnchor);
  return {
    annotators,
    places,
    clusterSupport,
    edgeSupport,
    linkSupport,
    mentionSupport,
    items: [...items, ...edgeItems, ...linkItems],
  };
}
