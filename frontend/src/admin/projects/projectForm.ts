// The project form's values and checks (the server checks again; these say it sooner).

import type { ProjectInput, ProjectRow } from "../../api/adminTypes";

/** A new project; a blank backend means the server's default (the form shows it once known). */
export function emptyProject(): ProjectInput {
  return {
    name: "",
    hierarchy: true,
    anaphora: false,
    guidelines: "",
    allow_add_mentions: false,
    allow_fix_spans: false,
    allow_reject_mentions: false,
    single_parent: true,
    refuse_duplicate_link_pairs: false,
    validation: false,
    hierarchy_count: "closure",
    suggestions: true,
    in_my_topics: true,
    suggestion_backend: "",
    suggestion_params: {},
    attributes: [],
  };
}

export function projectInput(project: ProjectRow): ProjectInput {
  const {
    name,
    hierarchy,
    anaphora,
    guidelines,
    allow_add_mentions,
    allow_fix_spans,
    allow_reject_mentions,
  } = project;
  return {
    name,
    hierarchy,
    anaphora,
    guidelines,
    allow_add_mentions,
    allow_fix_spans,
    allow_reject_mentions,
    single_parent: project.single_parent,
    refuse_duplicate_link_pairs: project.refuse_duplicate_link_pairs,
    validation: project.validation ?? false,
    hierarchy_count: project.hierarchy_count,
    suggestions: project.suggestions ?? true,
    in_my_topics: project.in_my_topics,
    suggestion_backend: project.suggestion_backend,
    suggestion_params: { ...project.suggestion_params },
    attributes: (project.attributes ?? []).map((a) => ({ name: a.name, values: [...a.values] })),
    // Sent only for a validation project (the others keep theirs unused).
    ...(project.validation
      ? { validation_reasons: project.validation_reasons.map((r) => ({ ...r })) }
      : {}),
  };
}

const REASON_KEY = /^[a-z][a-z0-9_-]*$/;

/** Why the reasons cannot be saved, or null (the server checks again, and that a key in use stays). */
export function reasonsError(reasons: readonly { key: string; label: string }[]): string | null {
  if (reasons.length < 1) return "A validation project needs at least one reason to reject for.";
  if (reasons.length > 3) return "At most three reasons: validators pick them with 1, 2 and 3.";
  for (const [i, reason] of reasons.entries()) {
    if (!REASON_KEY.test(reason.key)) {
      return `Reason ${i + 1}: the key is one word of lower-case letters, digits, - or _ (exports name the reason by it).`;
    }
    if (!reason.label.trim()) return `Reason ${i + 1}: write what validators read.`;
    if (reasons.findIndex((r) => r.key === reason.key) !== i)
      return `Reasons ${reasons.findIndex((r) => r.key === reason.key) + 1} and ${i + 1} have the same key.`;
  }
  return null;
}

export interface AttributeDefinition {
  name: string;
  values: string[];
}

const WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The attributes as the admin writes them, one a line: `certainty: high, low`. */
export function attributesText(attributes: readonly AttributeDefinition[]): string {
  return attributes.map((a) => `${a.name}: ${a.values.join(", ")}`).join("\n");
}

/** The lines back to definitions, or why they cannot be saved (the server checks again). */
export function parseAttributes(text: string): {
  attributes: AttributeDefinition[];
  error: string | null;
} {
  const attributes: AttributeDefinition[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const [name = "", rest] = line.split(":", 2).map((part) => part.trim());
    const values = (rest ?? "")
      .split(",")
      .map((value) => value.trim())
      .filter(Boolean);
    const where = `Line ${i + 1}`;
    if (!WORD.test(name))
      return {
        attributes,
        error: `${where}: write the attribute as one word, a colon, then its values (certainty: high, low).`,
      };
    if (!values.length)
      return { attributes, error: `${where}: ${name} needs at least one value after the colon.` };
    if (values.length > 9)
      return {
        attributes,
        error: `${where}: ${name} has ${values.length} values; at most 9 (picked by digit).`,
      };
    const bad = values.find((value) => !WORD.test(value));
    if (bad !== undefined)
      return {
        attributes,
        error: `${where}: the value “${bad}” is not one word (letters, digits, - or _).`,
      };
    if (new Set(values).size < values.length)
      return { attributes, error: `${where}: ${name} lists a value twice.` };
    if (attributes.some((a) => a.name === name))
      return { attributes, error: `${where}: ${name} is defined twice.` };
    attributes.push({ name, values });
  }
  if (attributes.length > 9)
    return { attributes, error: "At most 9 attributes (Ctrl+Alt+1 to Ctrl+Alt+9 set them)." };
  return { attributes, error: null };
}

export interface ParsedParams {
  params: Record<string, unknown> | null;
  error: string | null;
}

/** The backend parameters as typed: a JSON object, or blank for none. */
export function parseParams(text: string): ParsedParams {
  if (!text.trim()) return { params: {}, error: null };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value))
      return { params: value as Record<string, unknown>, error: null };
    return {
      params: null,
      error: 'Backend parameters must be a JSON object, e.g. {"threshold": 0.5}.',
    };
  } catch (e) {
    return {
      params: null,
      error: `Backend parameters are not valid JSON (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
}

export function projectErrors(input: ProjectInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!input.name.trim()) errors.name = "A project needs a name.";
  if (input.name.length > 200) errors.name = "The name may have at most 200 characters.";
  if (input.validation) {
    if (input.hierarchy || input.anaphora)
      errors.schemes = "A validation project uses the validation scheme alone.";
  } else if (!input.hierarchy && !input.anaphora)
    errors.schemes = "Choose at least one scheme: hierarchy, anaphora, or both.";
  const reasons =
    input.validation && input.validation_reasons ? reasonsError(input.validation_reasons) : null;
  if (reasons) errors.reasons = reasons;
  // A new validation project: its reasons follow what the clusters are, said explicitly
  // (WEC's event wording misfits clusters of concepts, and a default would hide the choice).
  if (input.validation && !input.validation_reasons && !input.validation_reasons_for) {
    errors.reasons =
      "Say what the clusters are (scientific concepts or events): validators reject for that kind's reasons.";
  }
  return errors;
}
