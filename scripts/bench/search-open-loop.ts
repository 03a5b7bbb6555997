// Site search judged at the rate readers arrive (issue 24, goal 3). Closed-loop benches (a fixed
// number of connections, each waiting for its answer before asking again) slow their own
// arrivals down when the server slows, and so hide its queue. Here searches arrive on a clock:
// one every 1/RATE s, each for another word (no cache of any kind can answer it), whether or
// not earlier ones have been answered, and each latency counts from when the search was due,
// not from when it could be sent. Then, for scale, the closed-loop capacity for distinct words
// at 20 connections, as req/s and as a ratio to the bare Express reference, with the CPU per
// search of the server and of its PostgreSQL backends (from /proc).
//
// On the city-scale seed (`DATABASE_URL=postgres://root@127.0.0.1:5432/guide_city npm run seed -- --scale city`):
//   npx tsx scripts/bench/search-open-loop.ts
//   BENCH_SEARCH_RATE=200 BENCH_SEARCH_SECONDS=30 BENCH_DATABASE_URL=postgres://... npx tsx scripts/bench/search-open-loop.ts
// Target (issue 41): p99 < 50 ms with no errors at 200 searches a second, < 100 ms at 300 a
// second (BENCH_SEARCH_TARGET_MS sets another; BENCH_STRICT=1 exits non-zero when it is missed).
// BENCH_SERVER_DIR runs another checkout's server (a copy of the code before a change) on the
// same database.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import knexFactory from 'knex';
import pg from 'pg';
import { searchWords } from './search-words';
import { startBenchServer } from './bench-server';
import { ACCEPT_ENCODING, API_CONNECTIONS, RETURNING_GUEST, UNCACHED, cpuMeter, loadAverage, measure, startReference } from './measure';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';
const PORT = Number(process.env.BENCH_PORT ?? 3360);
const REFERENCE_PORT = PORT + 9;
const RATE = Number(process.env.BENCH_SEARCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 30);
const WARM_UP_SECONDS = 2;
const TARGET_P99_MS = Number(process.env.BENCH_SEARCH_TARGET_MS ?? (RATE > 200 ? 100 : 50));
const SERVER_DIR = process.env.BENCH_SERVER_DIR ? path.resolve(process.env.BENCH_SERVER_DIR) : undefined;
const TIMEOUT_MS = 10_000;

const searchPath = (q: string) => `/api/search/?serialize_for=web&q=${encodeURIComponent(q)}`;

interface OpenLoopResult {
  sent: number;
  failed: number;
  /** Milliseconds from when each search was due to its last byte, sorted. */
  latencies: number[];
  /** The slowest searches, slowest first: where a p99 comes from (a word alone, or a queue). */
  slowest: Array<{ word: string; ms: number; dueAt: number }>;
  seconds: number;
}

/** Sends one search per 1/rate s from `words`, never waiting for answers; latency from the due time. */
async function openLoop(words: string[], rate: number): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const samples: Array<{ word: string; ms: number; dueAt: number }> = [];
  let failed = 0;
  const interval = 1000 / rate;
  const start = performance.now();
  const answers: Array<Promise<void>> = [];
  for (let i = 0; i < words.length; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(Math.floor(wait));
    answers.push(
      new Promise<void>((resolve) => {
        const req = http.get(
          { host: '127.0.0.1', port: PORT, path: searchPath(words[i]), agent, timeout: TIMEOUT_MS, headers: { cookie: UNCACHED, 'accept-encoding': ACCEPT_ENCODING } },
          (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode === 200) samples.push({ word: words[i], ms: performance.now() - due, dueAt: (due - start) / 1000 });
              else failed++;
              resolve();
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => {
          failed++;
          resolve();
        });
      }),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  const slowestFirst = samples.sort((a, b) => b.ms - a.ms);
  return { sent: words.length, failed, latencies: slowestFirst.map((r) => r.ms).reverse(), slowest: slowestFirst.slice(0, 10), seconds: (performance.now() - start) / 1000 };
}

const at = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);

async function main(): Promise<void> {
  const db = knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } });
  const needed = (SECONDS + WARM_UP_SECONDS) * RATE;
  const words = await searchWords(db, needed + 4000).finally(() => db.destroy());
  if (words.length < needed + 1000) throw new Error(`${DATABASE_URL} has ${words.length} distinct words; ${needed + 1000} are needed (seed it at city scale)`);
  const [server, reference] = await Promise.all([startBenchServer({ port: PORT, databaseUrl: DATABASE_URL, serverDir: SERVER_DIR }), startReference(REFERENCE_PORT)]);
  const stats = new pg.Client({ connectionString: DATABASE_URL });
  await stats.connect();
  const backends = async () => (await stats.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  try {
    console.log(`\nSearch for distinct words on ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}; load average ${loadAverage()} on ${os.cpus().length} cores\n`);
    await openLoop(words.slice(0, WARM_UP_SECONDS * RATE), RATE); // plans cached, pool open
    const load = loadAverage().split(' ')[0];
    const run = await openLoop(words.slice(WARM_UP_SECONDS * RATE, needed), RATE);
    const p99 = at(run.latencies, 0.99);
    const ok = p99 < TARGET_P99_MS && run.failed === 0;
    console.log(`open loop: ${RATE} searches/s for ${SECONDS} s (${run.sent} sent over ${run.seconds.toFixed(1)} s), load ${load}→${loadAverage().split(' ')[0]}`);
    console.log(
      `  p50 ${at(run.latencies, 0.5).toFixed(1)} ms, p90 ${at(run.latencies, 0.9).toFixed(1)}, p99 ${p99.toFixed(1)}, max ${at(run.latencies, 1).toFixed(1)}; failed ${run.failed}  ` +
        `(target p99 < ${TARGET_P99_MS} ms, no errors: ${ok ? 'pass' : 'FAIL'})`,
    );
    // Searches due close together and all slow were queued behind one another; a lone slow one is its word.
    console.log(`  slowest: ${run.slowest.map((r) => `"${r.word}" ${r.ms.toFixed(0)} ms at ${r.dueAt.toFixed(2)} s`).join(', ')}`);

    const rest = words.slice(needed).map(searchPath);
    const closed = await measure(`http://127.0.0.1:${PORT}`, rest[0], UNCACHED, API_CONNECTIONS, rest, cpuMeter(server.pid!, backends));
    const bare = await measure(`http://127.0.0.1:${REFERENCE_PORT}`, '/', RETURNING_GUEST, API_CONNECTIONS);
    const cpu = closed.cpuMsPerRequest;
    console.log(
      `closed loop at ${API_CONNECTIONS} connections: ${closed.reqPerSec.toFixed(0)} searches/s (${(closed.reqPerSec / bare.reqPerSec).toFixed(2)}x bare Express's ${bare.reqPerSec.toFixed(0)} req/s), ` +
        `p50 ${closed.p50} ms, p99 ${closed.p99} ms, failed ${closed.failed}` +
        (cpu ? `; CPU per search ${cpu.server.toFixed(2)} ms server + ${cpu.db.toFixed(2)} ms database` : ''),
    );
    if (process.env.BENCH_STRICT === '1' && !ok) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    reference.kill('SIGTERM');
    await stats.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
