import type { Knex } from 'knex';
import type { Db } from './index';

// Several small lists in one statement: each query becomes a JSON array column of a single
// row, so a page's shared sections cost one round trip (and one parse/bind/execute) instead of
// one per list. Each array keeps its query's order: it aggregates a sorted subquery with no
// join or grouping above it, the case PostgreSQL's documentation says keeps the input order
// (see "Aggregate Functions", "supplying the input values from a sorted subquery").
//
// JSON turns timestamps into ISO strings; `dates` names the columns to turn back into Dates,
// so the rows are what the same query run on its own answers (int8 and numeric arrive as
// JSON numbers, dates as 'YYYY-MM-DD', as the drivers are set to answer them in db/index.ts).

export type SectionQueries<K extends string> = Record<K, Knex.QueryBuilder>;

export async function selectSections<K extends string>(db: Db, queries: SectionQueries<K>, dates: readonly string[] = []): Promise<Record<K, unknown[]>> {
  const names = Object.keys(queries) as K[];
  if (names.length === 0) return {} as Record<K, unknown[]>;
  const columns = names.map((name) => db.raw(`(select coalesce(json_agg(s), '[]'::json) from ? as s) as ??`, [queries[name], name]));
  const row = (await db.first(columns)) as Record<K, unknown[] | string>;
  const out = {} as Record<K, unknown[]>;
  for (const name of names) {
    const value = row[name];
    // Both drivers parse json; a string would mean a driver that does not.
    const rows = (typeof value === 'string' ? JSON.parse(value) : value) as Array<Record<string, unknown>>;
    for (const r of rows) {
      for (const c of dates) if (typeof r[c] === 'string') r[c] = new Date(r[c]);
    }
    out[name] = rows;
  }
  return out;
}
