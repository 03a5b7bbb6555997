// What one site search costs when no cache answers it, word by word: the real service
// (searchSite) on one connection, one search at a time, so each figure is that word's own
// cost (server and database together), not the queue of a loaded machine (npm run bench's
// "search (distinct words)" row measures that). Prints the distribution over the bench's
// distinct words and the slowest of them with their counts per category.
//
//   npx tsx scripts/bench/search-word-cost.ts                     (the bench's first 1,500 words)
//   BENCH_WORDS=8000 npx tsx scripts/bench/search-word-cost.ts
//   npx tsx scripts/bench/search-word-cost.ts yonge patio home    (these words, best of 3 rounds)
//   BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/guide_city_apis npx tsx scripts/bench/search-word-cost.ts
//   BENCH_SERVICE_DIR=/tmp/main-export npx tsx scripts/bench/search-word-cost.ts   (another checkout's service)
//   BENCH_TYPOS=1 npx tsx scripts/bench/search-word-cost.ts       (the words misspelt: the typo paths)
// Also printed: the queries each search sent (one, for a search full text answers: issue 41) and
// the CPU per search of this process and of its PostgreSQL backend, which a busy machine
// disturbs less than the times.
import knexFactory from 'knex';
import path from 'node:path';
import { cpuMeter } from './measure';
import { createSearchService as ownSearchService } from '../../server/apps/search/service';
import { SEARCH_CATEGORIES } from '../../server/apps/search/source-queries';
import { misspelt, searchWords } from './search-words';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city_apis';

async function main() {
  const db = knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 1, max: 1 } });
  try {
    const named = process.argv.slice(2);
    const listed = named.length ? named : await searchWords(db, Number(process.env.BENCH_WORDS ?? 1500));
    const words = process.env.BENCH_TYPOS === '1' ? listed.map((w, i) => misspelt(w, i)) : listed;
    // Named words: 3 rounds, the best of each (the first also plans the statements). Each
    // round asks at another minute (the ranking cache's key) with another number of trailing
    // spaces (the answer cache's; the search trims them), so no cache answers a round.
    const rounds = named.length ? 3 : 1;
    const serviceDir = process.env.BENCH_SERVICE_DIR;
    const createSearchService = serviceDir
      ? ((await import(path.resolve(serviceDir, 'server/apps/search/service.ts'))) as { createSearchService: typeof ownSearchService }).createSearchService
      : ownSearchService;
    const search = createSearchService();
    const backend = Number((await db.raw('select pg_backend_pid() as pid')).rows[0].pid);
    const cpu = cpuMeter(process.pid, async () => [backend]);
    let queries = 0;
    let most = 0;
    db.on('query', () => queries++);
    const cpuBefore = await cpu.sample();
    const runs = new Map<string, { ms: number; note: string }>();
    const start = Date.now();
    for (let round = 0; round < rounds; round++) {
      for (const word of words) {
        const now = new Date(start + round * 60_000);
        const t0 = process.hrtime.bigint();
        const sent = queries;
        const r = await search.searchSite(db, { q: word + ' '.repeat(round), categories: SEARCH_CATEGORIES, ordering: 'relevancy', offset: 0, limit: 18 }, 'http://localhost', { now });
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        most = Math.max(most, queries - sent);
        const counts = Object.entries(r.counts).filter(([, n]) => n > 0).map(([c, n]) => `${c} ${n}`).join(', ');
        const note = `${r.count} (${counts || 'none'}; ${r.match}${r.count_estimated ? ', estimated' : ''})`;
        const seen = runs.get(word);
        if (!seen || ms < seen.ms) runs.set(word, { ms, note });
      }
    }
    const cpuAfter = await cpu.sample();
    const searches = rounds * words.length;
    const dbMs = (cpuAfter.db.get(backend) ?? 0) - (cpuBefore.db.get(backend) ?? 0);
    const sorted = [...runs].sort((a, b) => a[1].ms - b[1].ms);
    const total = sorted.reduce((s, [, r]) => s + r.ms, 0);
    const at = (p: number) => sorted[Math.floor(p * (sorted.length - 1))][1].ms.toFixed(1);
    const slow = sorted.filter(([, r]) => r.ms > 10);
    console.log(`${sorted.length} words, one search at a time: mean ${(total / sorted.length).toFixed(2)} ms, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)}`);
    console.log(
      `queries per search: mean ${(queries / searches).toFixed(2)}, most ${most}; CPU per search ${((cpuAfter.server - cpuBefore.server) / searches).toFixed(2)} ms this process + ${(dbMs / searches).toFixed(2)} ms database`,
    );
    console.log(`over 10 ms: ${slow.length} words, ${((slow.reduce((s, [, r]) => s + r.ms, 0) / total) * 100).toFixed(0)}% of the time`);
    for (const [word, r] of sorted.slice(-Math.min(sorted.length, 15)).reverse()) console.log(`${r.ms.toFixed(1).padStart(7)} ms  ${word}: ${r.note}`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
