// Whether a change to site search changes what readers get: this checkout's search service and
// another checkout's (a copy of the code before the change) answer the bench's distinct words
// on the same database, with relevancy and date ordering and first and second pages mixed, and
// every answer is compared whole (counts, estimate flag, match, correction, each result's
// category, id, snippet and highlighted title). Prints how many are the same and the first
// differences.
//
//   OTHER_DIR=/tmp/search-before BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/search_city npx tsx scripts/bench/search-compare.ts
//   (BENCH_WORDS: how many words, 600 unless told; each is also searched misspelt (misspelt() in
//   search-words.ts: the typo paths), unless BENCH_TYPOS=0)
import path from 'node:path';
import knexFactory from 'knex';
import { createSearchService } from '../../server/apps/search/service';
import { misspelt, searchWords } from './search-words';

const OTHER = process.env.OTHER_DIR;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';

async function main() {
  if (!OTHER) throw new Error('OTHER_DIR: the checkout to compare with');
  const other = (await import(`${path.resolve(OTHER)}/server/apps/search/service.ts`)) as typeof import('../../server/apps/search/service');
  const db = knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 1, max: 2 } });
  const typed = await searchWords(db, Number(process.env.BENCH_WORDS ?? 600));
  const words = process.env.BENCH_TYPOS === '0' ? typed : typed.flatMap((w, i) => [w, misspelt(w, i)]);
  const a = createSearchService();
  const b = other.createSearchService();
  let same = 0;
  const diffs: string[] = [];
  const now = new Date();
  for (const [n, w] of words.entries()) {
    // A word and its misspelling are asked the same way.
    const i = process.env.BENCH_TYPOS === '0' ? n : Math.floor(n / 2);
    const ordering = i % 4 === 3 ? '-date_published' : 'relevancy';
    const offset = i % 5 === 4 ? 18 : 0;
    const params = { q: w, categories: [] as never[], ordering, offset, limit: 18 } as never;
    const x = await a.searchSite(db as never, params, 'http://x', { now });
    const y = await b.searchSite(db as never, params, 'http://x', { now });
    const key = (r: typeof x) => JSON.stringify([r.count, r.counts, r.count_estimated, r.match, r.corrected, r.results.map((s) => [s.category, s.id, s.snippet, s.highlighted_title])]);
    if (key(x) === key(y)) same++;
    else diffs.push(`${w} ${ordering} ${offset}: ${key(x).slice(0, 300)}\n   vs ${key(y).slice(0, 300)}`);
  }
  console.log(`${same} of ${words.length} answers the same`);
  for (const d of diffs.slice(0, 20)) console.log(d);
  if (diffs.length) process.exitCode = 1;
  await db.destroy();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
