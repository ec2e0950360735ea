// A select's choices from a table keyed by one of the schema's enums (a format the server's
// registry lists). The table is a Record over the generated type, so when the registry gains a
// format and `npm run api` regenerates the types, the build fails until the table names it;
// tests/admin/formatChoices.test.ts checks the same against schema.json.

export function choicesOf<K extends string, V extends object>(
  table: Record<K, V>,
): (V & { value: K })[] {
  return (Object.keys(table) as K[]).map((value) => ({ ...table[value], value }));
}
