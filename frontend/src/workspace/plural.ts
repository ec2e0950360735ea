// Counted nouns, singular or plural: "1 topic", "2 topics", "1 hierarchy edge".

/** `n` and the noun, plural unless `n` is 1 (`many` for irregular plurals). */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** The noun alone, for `n`: "mention" or "mentions". */
export function nounFor(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
