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

/**
 * `word` misspelt the way readers misspell, the kind of slip chosen by `i`: a letter dropped,
 * two neighbours swapped, a letter doubled or a vowel changed, never in the first letter (for
 * the typo paths of site search: similar names and corrected headlines). Words of four letters
 * or more (searchWords' are).
 */
export function misspelt(word: string, i: number): string {
  const at = 1 + (i % Math.max(1, word.length - 2));
  const rest = word.slice(at);
  switch (i % 4) {
    case 0:
      return word.slice(0, at) + rest.slice(1);
    case 1:
      // Two same letters swapped would be no slip: one is dropped instead.
      return rest.length > 1 && rest[0] !== rest[1] ? word.slice(0, at) + rest[1] + rest[0] + rest.slice(2) : word.slice(0, at) + rest.slice(1);
    case 2:
      return word.slice(0, at) + rest[0] + rest;
    default: {
      const vowel = /[aeiou]/.exec(rest);
      const p = vowel ? at + vowel.index : at;
      const other = word[p] === 'e' ? 'a' : 'e';
      return word.slice(0, p) + other + word.slice(p + 1);
    }
  }
}
