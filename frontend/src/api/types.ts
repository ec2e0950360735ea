// The JSON the backend sends and accepts, by the names the pages use. API payloads are
// aliases of the types generated from the server's OpenAPI schema (schema.d.ts, made by
// `npm run api` from the serializers in annotation/api/serializers and modelserve/api); the
// few types written here are not API payloads, and each says why.

import type { components } from "./schema";

type Schemas = components["schemas"];

// -- the domain's vocabulary (the frontend's domain code builds and reads these) --------------

export type Id = number;
/** Inclusive token offsets within one document. */
export type Span = [number, number];
export type LinkType = Schemas["LinkType"];
/** The link types in the order the interface offers them (tests/api/types.test.ts checks
 * that they are exactly the server's). */
export const LINK_TYPES = [
  "COREFERENCE",
  "TRANSFORMED",
  "REACTION_ASSOCIATED",
  "WORK_UP",
  "CONTAINED",
] as const satisfies readonly LinkType[];
export type Decision = Schemas["Decision"];

// -- payloads -----------------------------------------------------------------------------

export type Me = Schemas["Me"];
export type ProjectInfo = Schemas["ProjectInfo"];
export type DocumentPayload = Schemas["DocumentPayload"];
export type TopicPayload = Schemas["TopicPayload"];
export type MentionPayload = Schemas["MentionPayload"];
/** OpenAPI 3.0 cannot describe a tuple of mixed types, so the schema gives each part of a
 * link as "a link type or an id"; the triple is [type, anaphor, antecedent]. */
export type AnnotationPayload = WithLinkTriples<Schemas["AnnotationPayload"]>;
type LooseLinks = { links: (LinkType | Id)[][] };
export type WithLinkTriples<T extends LooseLinks> = Omit<T, "links"> & {
  links: [LinkType, Id, Id][];
};
/** A payload's links as the triples the server sends (annotation/api/serializers: a link is
 * always [type, anaphor, antecedent]; the schema can only say "a type or an id" of each). */
export const withLinkTriples = <T extends LooseLinks>(payload: T): WithLinkTriples<T> =>
  payload as Omit<T, "links"> & LooseLinks as WithLinkTriples<T>;
export type AssignmentRow = Schemas["AssignmentRow"];
export type AssignmentSubmitted = Schemas["AssignmentSubmitted"];

export type Effect = Schemas["Effect"];
export type EffectName = Effect["e"];
export type Operation = Schemas["Operation"];
/** What a suggestion proposes, and what accepting one applies (never a decision). */
export type EditOperation = Schemas["EditOperation"];

/** What the operations/undo/redo endpoints return and the websocket broadcasts. */
export type Applied = Schemas["Applied"];
/** A model suggestion run of a topic. */
export type RunPayload = Schemas["RunPayload"];
export type CorpusQueryPayload = Schemas["CorpusQueryPayload"];
export type CorpusNeighbour = Schemas["CorpusNeighbour"];
/** GET /api/topics/<id>/suggestion-runs/ */
export type RunsAnswer = Schemas["RunsAnswer"];
/** POST /api/topics/<id>/suggestion-runs/ */
export type RunRequested = Schemas["RunRequested"];
export type SuggestionKind = Schemas["SuggestionKind"];
export type MembershipItem = Schemas["MembershipItem"];
export type EdgeItem = Schemas["SuggestionItem"];
export type LinkItem = Schemas["SuggestionItem"];
/** A proposed new mention (accepting it applies its add_mention). */
export type MentionSuggestionItem = Schemas["MentionItem"];
/** GET /api/annotations/<id>/suggestions/ */
export type SuggestionsPayload = Schemas["SuggestionsPayload"];
/** POST /api/annotations/<id>/suggestions/accept-above/: each acceptance its own change. */
export type AppliedBatch = Schemas["AppliedBatch"];

// -- not in the schema --------------------------------------------------------------------

/** ws/annotations/<id>/: the schema describes HTTP only; the messages carry its payloads. */
export type SocketMessage =
  | ({ type: "applied" } & Applied)
  | { type: "status"; assignment: Id; status: Schemas["AssignmentStatus"] }
  | ({ type: "run" } & RunPayload);

/** Every refusal (generated from the schema's error bodies; http.ts). */
export type { ErrorBody } from "./http";
