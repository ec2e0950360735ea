// The topic import's and the export's formats, keyed by the schema's enums (the server's
// format registry): the build fails when the registry gains one this table does not name.
import type { ExportFormat, ImportFormat } from "../../api/adminTypes";
import { choicesOf } from "../choices";

export const IMPORT_FORMATS = choicesOf<ImportFormat, { label: string; accept: string }>({
  auto: {
    label: "Guess from the file (said after the import)",
    accept: ".jsonl,.json,.jsonlines,.zip,.tsv,.xmi,.conllu",
  },
  scico: { label: "SciCo (.jsonl)", accept: ".jsonl,.json,.zip" },
  chemu: { label: "ChEMU-Ref (.jsonlines)", accept: ".jsonlines,.jsonl,.zip" },
  corefi: { label: "CoRefi (.json, or .zip of a folder)", accept: ".json,.zip" },
  brat: { label: "brat standoff (.zip of .txt + .ann)", accept: ".zip" },
  "webanno-tsv": {
    label: "INCEpTION WebAnno TSV (.tsv, or .zip: a topic per file)",
    accept: ".tsv,.zip",
  },
  "webanno-tsv-folders": {
    label: "INCEpTION WebAnno TSV (.zip: a topic per folder)",
    accept: ".zip",
  },
  "uima-xmi": {
    label: "INCEpTION UIMA CAS XMI (.xmi, or .zip: a topic per file)",
    accept: ".xmi,.zip",
  },
  "uima-xmi-folders": {
    label: "INCEpTION UIMA CAS XMI (.zip: a topic per folder)",
    accept: ".zip",
  },
  corefud: { label: "CorefUD (.conllu)", accept: ".conllu,.zip" },
  "label-studio": { label: "Label Studio JSON export (.json)", accept: ".json,.zip" },
});

export const EXPORT_FORMATS = choicesOf<ExportFormat, { label: string }>({
  scico: { label: "SciCo jsonl" },
  chemu: { label: "ChEMU-Ref jsonlines" },
  corefi: { label: "CoRefi json (zip)" },
  brat: { label: "brat standoff (zip)" },
  conll: { label: "CoNLL (coreference only)" },
  "webanno-tsv": { label: "INCEpTION WebAnno TSV (zip: a topic per file)" },
  "webanno-tsv-folders": { label: "INCEpTION WebAnno TSV (zip: a topic per folder)" },
  "uima-xmi": { label: "INCEpTION UIMA CAS XMI (zip: a topic per file)" },
  "uima-xmi-folders": { label: "INCEpTION UIMA CAS XMI (zip: a topic per folder)" },
  corefud: { label: "CorefUD CoNLL-U" },
});
