import type { Knex } from 'knex';

// Headline typos (server/apps/search/typo-queries.ts) ask for the 50 most recent published headlines
// with the corrected words. For a common word ('danforth', in 2,500 of 100,000 headlines) the
// planner walks the date index and reads each row for its headline_words: about 2,000 rows,
// one page each (articles are wide), 18 ms warm and up to 50 ms cold. With headline_words
// carried in a date index, the walk reads the index only (an index-only scan whose filter is
// the included column): 0.8 ms for 'danforth', 2 ms for 'islington' (7,500 rows walked).
// A B-tree, so PGlite gets it too; 16 MB for 100,000 articles. (A RUM index on the column
// was tried: see 20261128000100_search_rum_indexes.ts.)
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX articles_published_date_headline_words ON articles (date_published DESC, id DESC) INCLUDE (headline_words) WHERE status = 'published'`);
}
