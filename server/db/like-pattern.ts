// A typed search term as an ILIKE pattern: it matches the term anywhere, and the term's own
// %, _ and \ match themselves (Postgres' default LIKE escape is the backslash).

/** The term with its own %, _ and \ escaped, to build a pattern around (`term%`, `%term%`). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%term%`, the term's wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}
