import type { Knex } from 'knex';
import type { Db } from '../../db';
import { queryForm, type ParsedQuery } from './query-text';
import { HEADLINE_OPTIONS, MARK_END, MARK_START } from './snippet';
import { SOURCES, type SearchCategory } from './source-queries';
import type { StatementCache } from './named-statement-queries';

// Site search's SQL for the reader's words (query-text.ts parses them) and for the page of
// results (service.ts says when it is loaded apart from the ranking).

/** The tsquery as SQL with bound parameters, or null when the query has no words at all. */
export function tsQuerySql(knex: Knex, parsed: ParsedQuery): Knex.Raw | null {
  const hasWeb = queryForm(parsed).web;
  if (parsed.prefix && hasWeb) {
    return knex.raw(`(websearch_to_tsquery('english', ?) && to_tsquery('english', ?))`, [parsed.web, `${parsed.prefix}:*`]);
  }
  if (parsed.prefix) return knex.raw(`to_tsquery('english', ?)`, [`${parsed.prefix}:*`]);
  if (hasWeb) return knex.raw(`websearch_to_tsquery('english', ?)`, [parsed.web]);
  return null;
}

/** Category c's rows whose ids are in `ids` (SQL for an integer array), through its domain's query, with the title and snippet highlighted by `tsq`. */
export function pageQuery(db: Db, c: SearchCategory, ids: Knex.Raw, tsq: Knex.Raw, now: Date): Knex.QueryBuilder {
  const s = SOURCES[c];
  const strip = (sql: string) => `translate(${sql}, '${MARK_START}${MARK_END}', '')`;
  return s.query(db, now, ids, [
    db.raw(`ts_headline('english', ${strip(s.snippetText)}, ?, ?) as search_snippet`, [tsq, HEADLINE_OPTIONS]),
    db.raw(`ts_headline('english', ${strip(s.name)}, ?, 'HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}') as search_title`, [tsq]),
  ]);
}

/** Which parts the page statement's highlight has: the typed words (queryForm) and the corrected ones. */
export interface PageForm {
  web: boolean;
  prefix: boolean;
  corrected: boolean;
}

/** The page statement's values: the query's parts, and each category's ids as a value of its own (the page's categories are its shape). */
export type PageValues = { web: string; prefix: string; corrected: string; plain: string; now: Date } & Partial<Record<SearchCategory, number[]>>;

/** A row of the page statement: one result as row_to_json made it. */
export interface PageRow {
  category: SearchCategory;
  json: string;
}

/**
 * The rows of `categories` whose ids `values` holds, in one (named) statement for all of them:
 * each category's rows through its domain's query (pageQuery), as row_to_json makes them (the
 * union of different queries' rows), with the title and snippet highlighted by the query's
 * words, and by the words it was corrected to (similar matches: the typed ones are in no text).
 */
export async function pageRows(db: Db, statements: StatementCache, categories: SearchCategory[], form: PageForm, values: PageValues): Promise<PageRow[]> {
  const statement = statements.prepared(db, JSON.stringify(['page', categories, form]), values, (v) => {
    const typed = tsQuerySql(db, { web: form.web ? v.web : '', prefix: form.prefix ? v.prefix : null, plain: '' });
    const correctedTsq = form.corrected ? db.raw(`plainto_tsquery('english', ?)`, [v.corrected]) : null;
    const highlight = correctedTsq && typed ? db.raw('(? || ?)', [typed, correctedTsq]) : (correctedTsq ?? typed ?? db.raw(`plainto_tsquery('english', ?)`, [v.plain]));
    const parts = categories.map((c) => db.raw(`select ?::text as category, row_to_json(h)::text as json from (?) as h`, [c, pageQuery(db, c, db.raw('?::integer[]', [v[c] as number[]]), highlight, v.now)]));
    return db.raw(parts.map(() => '(?)').join(' union all '), parts);
  });
  const { rows } = (await statement) as { rows: PageRow[] };
  return rows;
}
