// The read-only side of a workspace: the topic's documents, their metadata and token text.

import type { DocumentPayload, Id, ProjectInfo, Span, TopicPayload } from "../api/types";
import { type DocumentMeta, documentMeta, mentionText } from "../domain/documents";

export interface TopicModel {
  readonly topic: TopicPayload;
  readonly project: ProjectInfo;
  readonly documents: readonly DocumentPayload[];
  /** document id -> index in `documents` (their order on the screen) */
  readonly documentIndex: ReadonlyMap<Id, number>;
  readonly documentById: ReadonlyMap<Id, DocumentPayload>;
  meta(document: Id): DocumentMeta;
  text(document: Id, spans: readonly Span[]): string;
}

export function createTopicModel(topic: TopicPayload): TopicModel {
  const documents = [...topic.documents].sort((a, b) => a.position - b.position);
  const documentIndex = new Map(documents.map((d, i) => [d.id, i]));
  const documentById = new Map(documents.map((d) => [d.id, d]));
  const metas = new Map<Id, DocumentMeta>();
  return {
    topic,
    project: topic.project,
    documents,
    documentIndex,
    documentById,
    meta(document) {
      let meta = metas.get(document);
      if (!meta) {
        meta = documentMeta(documentById.get(document)?.metadata);
        metas.set(document, meta);
      }
      return meta;
    },
    text(document, spans) {
      const doc = documentById.get(document);
      return doc ? mentionText(doc.tokens, spans) : "";
    },
  };
}
