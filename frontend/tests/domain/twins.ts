// The golden cases that the TypeScript and Python twins share (fixtures/golden/twins/; the
// Python side reads them in tests/domain/twins.py). A state there has the shape of
// snapshot() less settings: `stateFrom` builds one, `picture` gives it back in that shape.

import type { Decision, Id, LinkType, Span } from "../../src/api/types";
import { AnnotationState, makeMention, type Validation } from "../../src/domain/state";

export interface Rows {
  documents: [Id, number][];
  mentions: [Id, Id, Span[], boolean, boolean][];
  clusters: [Id, string, string, Id[]][];
  edges?: [Id, Id][];
  links?: [string, Id, Id][];
  decisions?: [Id, string][];
  validations?: [Id, string, string | null, string][];
  link_notes?: [string, Id, Id, string][];
  link_attributes?: [string, Id, Id, string, string][];
  cluster_attributes?: [Id, string, string][];
}

/** JSON imports type rows as arrays of unions: the files' shape, as `Rows` says it. */
export const asRows = (value: unknown): Rows => value as Rows;

export function stateFrom(rows: Rows): AnnotationState {
  const attributes = new Map<Id, Record<string, string>>();
  for (const [id, name, value] of rows.cluster_attributes ?? []) {
    attributes.set(id, { ...attributes.get(id), [name]: value });
  }
  const key = (type: string, anaphor: Id, antecedent: Id) => `${type}|${anaphor}|${antecedent}`;
  const details = new Map<
    string,
    {
      type: LinkType;
      anaphor: Id;
      antecedent: Id;
      note: string;
      attributes: Record<string, string>;
    }
  >();
  const detail = (type: string, anaphor: Id, antecedent: Id) => {
    const k = key(type, anaphor, antecedent);
    if (!details.has(k))
      details.set(k, { type: type as LinkType, anaphor, antecedent, note: "", attributes: {} });
    return details.get(k)!;
  };
  for (const [type, anaphor, antecedent, note] of rows.link_notes ?? [])
    detail(type, anaphor, antecedent).note = note;
  for (const [type, anaphor, antecedent, name, value] of rows.link_attributes ?? []) {
    detail(type, anaphor, antecedent).attributes[name] = value;
  }
  return new AnnotationState({
    documents: rows.documents,
    mentions: rows.mentions.map(([id, document, spans, added, rejected]) =>
      makeMention(id, document, spans, added, rejected),
    ),
    clusters: rows.clusters.map(([id, label, note, members]) => ({
      id,
      label,
      note,
      members,
      attributes: attributes.get(id),
    })),
    edges: rows.edges ?? [],
    links: (rows.links ?? []).map(([type, anaphor, antecedent]) => ({
      type: type as LinkType,
      anaphor,
      antecedent,
    })),
    decisions: (rows.decisions ?? []).map(([id, decision]) => [id, decision as Decision]),
    validations: (rows.validations ?? []).map(([id, decision, reason, note]) => [
      id,
      { decision, reason, note } as Validation,
    ]),
    linkDetails: details.values(),
  });
}

export function picture(state: AnnotationState): Record<string, unknown> {
  const { settings: _settings, ...rows } = state.snapshot() as Record<string, unknown>;
  return rows;
}
