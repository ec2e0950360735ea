// Find in text (Ctrl+F): the query, its matches over every document of the topic, and the
// match shown. Provided by the document list; the text's tokens read it to highlight matches.

import { computed, inject, type InjectionKey, provide, ref, watch } from "vue";
import type { Id } from "../api/types";
import { documentText, type FindHit, findInDocuments, hitsByDocument } from "../domain/findText";

export function createFind(documents: readonly { id: Id; tokens: readonly string[] }[]) {
  // Built on the first search, not when the workspace opens; a topic's tokens never change.
  let texts: ReturnType<typeof documentText>[] | null = null;
  const open = ref(false);
  const query = ref("");
  const index = ref(0);
  const hits = computed<FindHit[]>(() => {
    if (!open.value || !query.value.trim()) return [];
    texts ??= documents.map(documentText);
    return findInDocuments(texts, query.value);
  });
  const byDocument = computed(() => hitsByDocument(hits.value));
  const current = computed<FindHit | null>(() => hits.value[index.value] ?? null);
  // A new query starts at its first match.
  watch(query, () => {
    index.value = 0;
  });

  function step(by: number): boolean {
    const n = hits.value.length;
    if (!n) return false;
    index.value = (index.value + by + n) % n;
    return true;
  }

  return {
    open,
    query,
    index,
    hits,
    byDocument,
    current,
    /** Open the bar (Ctrl+F); the field then takes the focus. */
    show() {
      open.value = true;
    },
    search(text: string) {
      query.value = text;
    },
    next: () => step(1),
    prev: () => step(-1),
    close() {
      open.value = false;
    },
  };
}

export type Find = ReturnType<typeof createFind>;

const FIND: InjectionKey<Find> = Symbol("find in text");
const DOCUMENT: InjectionKey<Id> = Symbol("document shown");

export const provideFind = (find: Find): void => provide(FIND, find);
/** The find of the workspace around (null outside one: the text then highlights nothing). */
export const useFind = (): Find | null => inject(FIND, null);
/** The document a run of text belongs to (its tokens are numbered within it). */
export const provideDocumentId = (id: Id): void => provide(DOCUMENT, id);
export const useDocumentId = (): Id | null => inject(DOCUMENT, null);
