// The importer's errors come as text, one per problem, written by FormatError.__str__
// (scorer/corefscore/formats/errors.py): "FILE: line N, field F: message",
// "FILE: RECORD, field F: message" (brat "T12", CoRefi "mentions[3]") or "FILE: message".
// The page shows them as a table with the place in its own columns.

import type { ImportFormat } from "../../api/adminTypes";

export interface ImportProblem {
  file: string;
  /** "line 12", "T12", "mentions[3]"; empty when the problem is the whole file. */
  record: string;
  field: string;
  message: string;
  text: string;
}

const PATTERN = /^(.+?): (?:(line \d+|[^\s,:]+)(?:, field ([^:]+))?: |field ([^:]+): )?([\s\S]*)$/;

export function parseImportProblem(text: string): ImportProblem {
  const match = PATTERN.exec(text);
  if (!match) return { file: "", record: "", field: "", message: text, text };
  const [, file = "", record = "", field = "", fieldOnly = "", message = ""] = match;
  return { file, record, field: field || fieldOnly, message, text };
}

/** The line number of a record ("line 12" -> 12), for sorting and linking. */
export function lineOf(problem: ImportProblem): number | null {
  const match = /^line (\d+)$/.exec(problem.record);
  return match ? Number(match[1]) : null;
}

/** The format a refused file looks like, from the refusal's message ("...; it looks like
 * ChEMU-Ref jsonlines (--format chemu: its records carry ...)", annotation/services/imports/
 * guessing.py::looks_like), or null when the message names none. */
export function looksLike(message: string): { label: string; format: ImportFormat } | null {
  const match = /it looks like (.+?) \(--format ([\w-]+)/.exec(message);
  return match ? { label: match[1]!, format: match[2] as ImportFormat } : null;
}
