import type { Knex } from 'knex';

/**
 * Words from the names of places, events and headlines, in a fixed shuffled order, for
 * searches that miss every cache: each request asks for another word (npm run bench's
 * "search (distinct words)" row, and scripts/bench/search-word-cost.ts).
 */
export async function searchWords(db: Knex, limit = 8000): Promise<string[]> {
  const { rows } = (await db.raw(
    `select w from (
       select regexp_split_to_table(lower(name), '[^a-z]+') as w from listings
       union select regexp_split_to_table(lower(title), '[^a-z]+') from events
       union select regexp_split_to_table(lower(name), '[^a-z]+') from articles where id % 20 = 0
     ) s where length(w) between 4 and 12 order by md5(w) limit ?`,
    [limit],
  )) as { rows: Array<{ w: string }> };
  return rows.map((r) => r.w);
}
