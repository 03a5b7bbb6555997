import type { Knex } from 'knex';

// Site search's relevancy pool is the most recent few hundred matches of the reader's words
// (server/apps/search/ranking-queries.ts). For a word in thousands of rows, GIN finds every match
// (each read from the table for its date) or the date index is walked until the pool is full
// (each row's tsvector tested): 10-15 ms for a word in 5,000-10,000 of 100,000 articles. A
// RUM index keeps the date beside each word's entries, so the index itself answers "the 400
// most recent matches published before now" (2-5 ms for those words). It needs the `rum`
// extension (Debian's postgresql-15-rum): where it is not installed (PGlite, a server without
// the package) nothing is created and search keeps its GIN and date-index paths. Each index
// is partial on the rule that makes a row public, where that rule is a constant, as the
// search's queries state it.
//
// One RUM index per table, on `search` only. A second one (headline_words, for headline typos)
// was tried: the planner then answered "order by date <=| now" for either column's query by
// the other column's index, an ordered scan with no words in its condition, and RUM returned
// such a scan in the wrong order (the oldest rows first: relevancy-pool.test.ts caught it).
const INDEXES: Array<{ table: string; date: string; where?: string }> = [
  { table: 'articles', date: 'date_published', where: `status = 'published'` },
  { table: 'listings', date: 'date_published' },
  { table: 'events', date: 'date_created', where: `status = 'approved'` },
];

export async function up(knex: Knex): Promise<void> {
  const { rows } = (await knex.raw(`select count(*)::int as n from pg_available_extensions where name = 'rum'`)) as { rows: Array<{ n: number }> };
  if (rows[0].n === 0) return;
  await knex.raw('CREATE EXTENSION IF NOT EXISTS rum');
  for (const { table, date, where } of INDEXES) {
    await knex.raw(`CREATE INDEX ?? ON ?? USING rum (search rum_tsvector_addon_ops, ??) WITH (attach = '${date}', to = 'search')${where ? ` WHERE ${where}` : ''}`, [`${table}_search_rum`, table, date]);
  }
}
