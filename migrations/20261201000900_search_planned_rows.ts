import type { Knex } from 'knex';

// Site search counts a word's matches up to 2,000; above that its count is the planner's
// estimate, and its relevancy pool a query whose best plan depends on the word (a walk down
// the date index for a word in half the articles, the GIN or RUM index for a rarer one)
// (server/apps/search/ranking-queries.ts). Both were statements of their own, two round trips
// more for a common word. These functions let the search's one (named) statement ask for them:
// - search_planned_rows: the planner's estimate of the rows `query` answers (EXPLAIN plans it
//   without running it);
// - search_pool_rows: the rows of `query` (id, score, date), planned for these words, as the
//   statement's generic plan could not.
// `query` is SQL the search service writes (never a reader's text), with the reader's words as
// $1, the time as $2 (and the pool's size and the rows wanted as $3 and $4). plpgsql, so PGlite
// has them too; volatile because a function that is not may run no utility statement, EXPLAIN
// included.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION search_planned_rows(query text, words tsquery, at timestamptz) RETURNS float8
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE plan json;
    BEGIN
      EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan USING words, at;
      RETURN (plan->0->'Plan'->>'Plan Rows')::float8;
    END
    $fn$`);
  await knex.raw(`
    CREATE FUNCTION search_pool_rows(query text, words tsquery, at timestamptz, pool integer, wanted integer)
    RETURNS TABLE (id integer, score real, date timestamptz)
    LANGUAGE plpgsql VOLATILE ROWS 18 AS $fn$
    BEGIN
      RETURN QUERY EXECUTE query USING words, at, pool, wanted;
    END
    $fn$`);
}
