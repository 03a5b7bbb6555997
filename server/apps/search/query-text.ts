// What the reader typed, turned into a tsquery without ever splicing it into SQL: the text
// goes to websearch_to_tsquery as a bound parameter (quotes make phrases, "or" alternatives,
// a leading "-" excludes), and the last word, if the reader may still be typing it, also
// matches as a prefix through to_tsquery('word:*') — built only from letters and digits.
// queries.ts's tsQuerySql makes that SQL of a ParsedQuery.

export const MAX_QUERY_LENGTH = 200;

export interface ParsedQuery {
  /** The text for websearch_to_tsquery (may be empty). */
  web: string;
  /** The last word, to match as a prefix, or null. */
  prefix: string | null;
  /** The whole query, cleaned, for trigram matching on names. */
  plain: string;
}

export function parseQueryText(q: string): ParsedQuery {
  // Control characters and the highlight markers never reach the database.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const cleaned = q.replace(/[\u0000-\u001f\u007f\uE000\uE001]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_LENGTH);
  const quotes = (cleaned.match(/"/g) ?? []).length;
  const last = /(^|[\s(])([\p{L}\p{N}]+)$/u.exec(cleaned);
  // Not a prefix inside an open phrase ("best pi…), nor after "-" (an exclusion), nor "or".
  const prefix = last && quotes % 2 === 0 && last[2].toLowerCase() !== 'or' ? last[2].toLowerCase() : null;
  const web = prefix ? cleaned.slice(0, cleaned.length - last![2].length).trim() : cleaned;
  const plain = cleaned.replace(/["()]/g, ' ').replace(/(^|\s)-/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return { web, prefix, plain };
}

/** Which parts tsQuerySql makes of a query: its words for websearch_to_tsquery, its prefix. */
export function queryForm(parsed: ParsedQuery): { web: boolean; prefix: boolean } {
  return { web: /[\p{L}\p{N}]/u.test(parsed.web), prefix: Boolean(parsed.prefix) };
}
