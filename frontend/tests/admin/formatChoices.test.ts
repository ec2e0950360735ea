// Every format the server's registries list (the schema's enums, which `npm run api` writes
// from them) is a choice on the admin pages, and no other: a format the registry gains and a
// page does not offer fails here (and the build, as the tables are Records over the enums).
import { describe, expect, it } from "vitest";
import schema from "../../src/api/schema.json";
import { CORPUS_FORMATS, TAXONOMY_FORMATS } from "../../src/admin/corpus/corporaApi";
import { EXPORT_FORMATS, IMPORT_FORMATS } from "../../src/admin/data/formats";

const enumOf = (name: string): string[] => {
  const found = (schema.components.schemas as Record<string, { enum?: string[] }>)[name];
  if (!found?.enum) throw new Error(`the schema has no enum ${name}`);
  return found.enum;
};
const exportEnum = (): string[] => {
  const parameter = schema.paths["/api/projects/{id}/export/"].get.parameters.find(
    (p) => p.name === "format",
  );
  return (parameter?.schema as { enum?: string[] } | undefined)?.enum ?? [];
};
const values = (choices: readonly { value: string }[]) => choices.map((c) => c.value).sort();

describe("the admin pages' format choices", () => {
  it.each([
    ["topic import", () => enumOf("ImportRequestFormatEnum"), IMPORT_FORMATS],
    ["export", exportEnum, EXPORT_FORMATS],
    ["corpus import", () => enumOf("CorpusFormatEnum"), CORPUS_FORMATS],
    ["taxonomy import", () => enumOf("TaxonomyFormatEnum"), TAXONOMY_FORMATS],
  ] as const)("offer the %s formats the server's registry lists", (_what, registry, choices) => {
    const listed = registry();
    expect(listed.length).toBeGreaterThan(0);
    expect(values(choices)).toEqual([...listed].sort());
  });
});
