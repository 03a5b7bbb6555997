// npm run bench: the site against a bare Express route, in one run. Starts, in their own
// processes, the server (production mode) on the city-scale PostgreSQL database (100k
// articles, 20k listings, 10k events) and a bare Express app sending a 30 KB page from memory
// (scripts/bench/reference-server.ts), then runs autocannon against each row with the same
// settings, after a one-second warm-up, one row at a time. Every row is printed as req/s, p50,
// p99 and the ratio of its req/s to the reference's at the same number of connections
// (absolute req/s on a shared 2-core machine mean nothing from one run to the next), beside
// the target of issue 15 and a pass/FAIL mark:
//
// - pages (home, an article, a listing hub) at 50 connections, for a first visit (no cookie),
//   a returning guest (the guest response cache may answer) and for a member signed in through the real login API
//   (its session cookie): guests ≥ 0.50x, members ≥ 0.30x with p99 < 100 ms;
// - per page, the query count and database time of an uncached render (another cookie: no
//   shared cache answers), read from its `Server-Timing: db;desc="<N> queries";dur=<ms>`
//   header (the median of 5 renders; "n/a" when the server does not send it): ≤ 4 queries,
//   ≤ 5 ms;
// - every list and search API at 20 connections, as a returning guest (shared), with
//   another cookie (uncached: the handler, its queries and serialisation run every time) and
//   as the member signed in (member: their session is read and their own ratings added):
//   p99 < 50 ms. "search (distinct words)" sends another word with every request, so no cache
//   of any kind answers it.
//
// Each row also shows the CPU milliseconds per request of the server's processes and of the
// PostgreSQL backends serving the bench's database (from /proc; nothing else may use that
// database during the run): latency on a machine with a load average of 20 measures the
// neighbours, CPU per request does not. With PGlite the database's share is in the server's.
// "client CPU" is autocannon's own, as a share of the one core it runs on: near 100%, the
// row's rate is the client's limit, not the server's (a larger compressed answer, the hub's,
// costs it more per request).
//
// With the load average (figures taken on a busy machine are not comparable). BENCH_STRICT=1
// exits non-zero when a target is not met (or could not be checked).
//
//   npm run bench
//   BENCH_STRICT=1 npm run bench
//   BENCH_DATABASE_URL=postgres://... BENCH_PORT=3340 BENCH_SECONDS=5 npm run bench
//   BENCH_PAGE_CONNECTIONS=50 BENCH_CONNECTIONS=20 npm run bench   (pages', APIs' connections)
//   BENCH_ONLY=search npm run bench          (rows whose name contains the word; the references always run)
//   BENCH_ONLY=page npm run bench            (the pages only)
//   BENCH_GZIP=0 npm run bench               (uncompressed answers; by default gzip/br, as browsers)
//   npm run bench:pglite                     (the default a newcomer runs: the embedded database,
//                                             the demo city seeded into a fresh temp data directory
//                                             first, 30 s to 3 min, removed at the end; `--pglite`)
//   BENCH_PGLITE_DIR=/tmp/demo npm run bench (the embedded database in that data directory,
//                                             e.g. made by `DATA_DIR=/tmp/demo npm run seed`)
//   BENCH_CPU_PROF=/tmp/prof npm run bench:pglite
//                                            (also the server's CPU profile, written when it stops;
//                                             read by `npx tsx scripts/bench/cpu-profile.ts FILE`)
//   BENCH_MEMBER_EMAIL=... BENCH_MEMBER_PASSWORD=...  (the member signed in; default a demo member)
//   BENCH_SERVER_DIR=/tmp/main-export BENCH_DATABASE_URL=... npm run bench
//                                            (the server of another checkout, e.g. `git archive main`
//                                             with static/dist, on a database it seeded: before and
//                                             after on the same machine, by the same bench)
//   BENCH_STACK_URL=http://127.0.0.1:8080 npm run bench
//                                            (also the page rows of a deployment already running
//                                             there, e.g. the nginx stack, on the same database;
//                                             its rows go beside the single process's. Other
//                                             scripts can add rows with scripts/bench/measure.ts.)
import knexFactory from 'knex';
import { seedDemoDataDir } from './demo-data-dir';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db';
import { DEMO_PASSWORD } from '../seed/members';
import { searchWords } from './search-words';
import { startBenchServer } from './bench-server';
import {
  API_CONNECTIONS,
  ACCEPT_ENCODING,
  PAGE_CONNECTIONS,
  RETURNING_GUEST,
  SECONDS,
  UNCACHED,
  apiRow,
  costOk,
  cpuMeter,
  costTable,
  loadAverage,
  measure,
  pageRow,
  renderCost,
  rowsTable,
  signIn,
  startReference,
  type CostRow,
  type Measured,
  type Row,
} from './measure';

/** `--pglite` (npm run bench:pglite): PGlite, in a data directory seeded with the demo city now unless BENCH_PGLITE_DIR names one. */
const PGLITE = process.argv.includes('--pglite') || Boolean(process.env.BENCH_PGLITE_DIR);
/** The PGlite data directory, once known (main()); undefined on PostgreSQL. */
let pgliteDir = process.env.BENCH_PGLITE_DIR;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';
const PORT = Number(process.env.BENCH_PORT ?? 3340);
const REFERENCE_PORT = Number(process.env.BENCH_REFERENCE_PORT ?? PORT + 9);
const BASE = `http://127.0.0.1:${PORT}`;
const STACK = process.env.BENCH_STACK_URL?.replace(/\/$/, '');
const MEMBER_EMAIL = process.env.BENCH_MEMBER_EMAIL ?? 'nathan.shah@example.com';
const MEMBER_PASSWORD = process.env.BENCH_MEMBER_PASSWORD ?? DEMO_PASSWORD;
const ONLY = process.env.BENCH_ONLY;
const SERVER_DIR = process.env.BENCH_SERVER_DIR ? path.resolve(process.env.BENCH_SERVER_DIR) : undefined;

interface Endpoint {
  name: string;
  path: string;
  /** Other paths to send in turn (each request takes the next one). */
  paths?: string[];
}

interface Sample {
  pages: Endpoint[];
  apis: Endpoint[];
}

/** Real values from the database, so every request finds rows: a station, busy features, a busy day. */
async function sample(): Promise<Sample> {
  // PGlite takes its data directory's lock: open, read and close before the server starts.
  const handle = pgliteDir ? await openDatabase({ dataDir: pgliteDir }) : null;
  const db = handle?.db ?? knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } });
  try {
    const stop = await db('subway_stops').orderBy('id').first('id', 'latitude', 'longitude');
    const features = await db('listing_features as lf').join('features as f', 'f.id', 'lf.feature_id').groupBy('f.slug').orderByRaw('count(*) desc').limit(2).pluck('f.slug');
    const busyDay = await db('event_occurrences').groupBy('local_date').orderByRaw('count(*) desc').first(db.raw('local_date::text as local_date'));
    const article = await db('articles').where('status', 'published').where('date_published', '<=', new Date()).orderBy('date_published', 'desc').first('path');
    const words = await searchWords(db);
    const lat = stop?.latitude ?? 43.6532;
    const lng = stop?.longitude ?? -79.3832;
    const common = process.env.BENCH_COMMON_WORD ?? 'toronto';
    const rare = process.env.BENCH_RARE_WORD ?? 'pizza';
    const search = (q: string) => `/api/search/?serialize_for=web&q=${encodeURIComponent(q)}`;
    return {
      pages: [
        { name: 'home', path: '/' },
        ...(article ? [{ name: 'article', path: article.path as string }] : []),
        { name: 'hub', path: '/restaurants/' },
      ],
      apis: [
        { name: 'listings (plain)', path: '/api/v2/listings/' },
        { name: 'listings (smart_review)', path: '/api/v2/listings/?ordering=smart_review' },
        { name: 'listings (distance)', path: `/api/v2/listings/?latitude=${lat}&longitude=${lng}&ordering=distance` },
        { name: 'listings (subway stop)', path: `/api/v2/listings/?subway_stop=${stop?.id ?? 1}` },
        { name: 'listings (bbox)', path: `/api/v2/listings/?bbox=${lng - 0.02},${lat - 0.015},${lng + 0.02},${lat + 0.015}` },
        { name: 'listings (features)', path: `/api/v2/listings/?features=${features.join(',')}` },
        { name: 'listings (keywords)', path: '/api/v2/listings/?keywords=pi&bundle_type=simple&limit=10' },
        // Issue 39: the Open now filter (the minute's probe against the hours' ranges).
        { name: 'listings (open now)', path: '/api/v2/listings/?open_now=true' },
        { name: 'listings (open now, restaurants)', path: '/api/v2/listings/?open_now=true&type=restaurants' },
        { name: 'events by date', path: `/api/v2/events/?date=${busyDay?.local_date ?? '2026-12-05'}` },
        { name: 'events upcoming', path: '/api/v2/events/?ordering=start_date_time' },
        { name: 'articles', path: '/api/v2/articles/' },
        { name: 'articles (type)', path: '/api/v2/articles/?type=food' },
        { name: `search common "${common}"`, path: search(common) },
        { name: `search rare "${rare}"`, path: search(rare) },
        { name: 'search by date', path: `${search(common)}&ordering=-date_published` },
        { name: 'search typo', path: search('resturant') },
        { name: 'search (distinct words)', path: search(words[0] ?? common), paths: words.map(search) },
      ],
    };
  } finally {
    if (handle) await handle.close();
    else await db.destroy();
  }
}

// The per-page query count and database time come from the Server-Timing header, which the
// bench server turns on (it costs a little CPU per request, which the figures include).
const startServer = () => startBenchServer({ port: PORT, databaseUrl: DATABASE_URL, pgliteDir, serverDir: SERVER_DIR });

/** The first answer must be a 200: a bench of error pages measures nothing. Prints the encoding the server chose. */
async function check(base: string, urlPath: string, cookie: string): Promise<string> {
  const res = await fetch(base + urlPath, { headers: { cookie, 'accept-encoding': ACCEPT_ENCODING } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${base}${urlPath}: ${res.status} ${text.slice(0, 300)}`);
  console.log(`${base}${urlPath}: answered with Content-Encoding ${res.headers.get('content-encoding') ?? 'identity'}`);
  return text;
}

async function main(): Promise<void> {
  let removeSeeded: (() => void) | undefined;
  if (PGLITE && !pgliteDir) {
    console.log('Seeding the demo city into a fresh PGlite data directory (npm run seed)…');
    const seeded = await seedDemoDataDir();
    console.log(`Seeded ${seeded.dir} in ${seeded.seconds.toFixed(0)} s (removed at the end; BENCH_PGLITE_DIR names one to keep using).`);
    pgliteDir = seeded.dir;
    removeSeeded = seeded.remove;
  }
  try {
    await benchmark();
  } finally {
    removeSeeded?.();
  }
}

async function benchmark(): Promise<void> {
  const target = pgliteDir ? `PGlite in ${pgliteDir}` : DATABASE_URL.replace(/\/\/[^@]*@/, '//');
  const { pages, apis } = await sample();
  const wanted = (name: string) => !ONLY || name.includes(ONLY);
  const pageList = pages.filter((p) => wanted(`page: ${p.name}`));
  const apiList = apis.filter((a) => wanted(a.name));
  // One that started is stopped when the other could not start (else it holds its port).
  const started = await Promise.allSettled([startServer(), startReference(REFERENCE_PORT)]);
  const notStarted = started.find((s) => s.status === 'rejected');
  if (notStarted) {
    for (const s of started) if (s.status === 'fulfilled') s.value.kill('SIGTERM');
    throw notStarted.reason;
  }
  const [server, reference] = started.map((s) => (s as PromiseFulfilledResult<ChildProcess>).value);
  // The database backends serving the bench's database (PostgreSQL on this machine), for the
  // CPU column; PGlite runs inside the server process.
  const stats = pgliteDir ? null : new pg.Client({ connectionString: DATABASE_URL });
  await stats?.connect();
  const backends = async () =>
    stats ? (await stats.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid) : [];
  const serverCpu = cpuMeter(server.pid!, backends);
  const referenceCpu = cpuMeter(reference.pid!, async () => []);
  const stop = () => {
    server.kill('SIGTERM');
    reference.kill('SIGTERM');
    void stats?.end();
  };
  process.once('SIGINT', stop);
  try {
    console.log(
      `\n${SECONDS} s per row after a 1 s warm-up, Accept-Encoding: ${ACCEPT_ENCODING}, against ${target}; pages at ${PAGE_CONNECTIONS} connections, APIs at ${API_CONNECTIONS}; load average ${loadAverage()} on ${os.cpus().length} cores\n`,
    );
    const rows: Row[] = [];
    const costs: CostRow[] = [];
    const progress = (name: string, m: Measured) =>
      console.log(
        `${name}: ${m.reqPerSec.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.failed ? `, ${m.failed} failed` : ''}${m.cpuMsPerRequest ? `, CPU ${m.cpuMsPerRequest.server.toFixed(2)} + ${m.cpuMsPerRequest.db.toFixed(2)} ms/req` : ''} (load ${m.load})`,
      );
    const referenceBase = `http://127.0.0.1:${REFERENCE_PORT}`;
    const referenceRow = (connections: number, m: Measured, when: string): Row => ({ name: `bare Express, 30 KB from memory (${when})`, connections, m, ratio: 1, target: '', ok: m.failed === 0 });

    // The reference runs before and after each group of rows, and the group's ratios are to
    // the mean of the two: the machine's load drifts over the minutes a group takes.
    interface Raw {
      name: string;
      kind: 'guest' | 'member' | 'api';
      m: Measured;
    }
    async function group(connections: number, body: (add: (name: string, kind: Raw['kind'], m: Measured) => void) => Promise<void>): Promise<void> {
      const before = await measure(referenceBase, '/', '', connections, undefined, referenceCpu);
      progress('bare Express (before)', before);
      const raw: Raw[] = [];
      await body((name, kind, m) => {
        progress(name, m);
        raw.push({ name, kind, m });
      });
      const after = await measure(referenceBase, '/', '', connections, undefined, referenceCpu);
      progress('bare Express (after)', after);
      const mean = { ...before, reqPerSec: (before.reqPerSec + after.reqPerSec) / 2 };
      rows.push(referenceRow(connections, before, 'before'));
      for (const r of raw) rows.push(r.kind === 'api' ? apiRow(r.name, r.m, mean, connections) : pageRow(r.name, r.m, mean, connections, r.kind === 'member'));
      rows.push(referenceRow(connections, after, 'after'));
    }

    if (pageList.length) {
      await group(PAGE_CONNECTIONS, async (add) => {
        const targets = [{ label: '', base: BASE }, ...(STACK ? [{ label: ' (stack)', base: STACK }] : [])];
        for (const { label, base } of targets) {
          const member = await signIn(base, MEMBER_EMAIL, MEMBER_PASSWORD);
          // A first visit sends no cookie at all (most readers: a search engine's or a shared link).
          for (const [who, cookie] of [['first visit', ''], ['guest', RETURNING_GUEST], ['member', member]] as const) {
            for (const p of pageList) {
              await check(base, p.path, cookie);
              add(`${who} ${p.name}${label}`, who === 'member' ? 'member' : 'guest', await measure(base, p.path, cookie, PAGE_CONNECTIONS, undefined, base === BASE ? serverCpu : undefined));
            }
          }
        }
      });
      for (const p of pageList) costs.push({ page: `${p.name} (${p.path})`, cost: await renderCost(BASE, p.path) });
    }

    if (apiList.length) {
      await group(API_CONNECTIONS, async (add) => {
        const member = await signIn(BASE, MEMBER_EMAIL, MEMBER_PASSWORD);
        for (const e of apiList) {
          await check(BASE, e.path, RETURNING_GUEST);
          // Distinct words never repeat within a run: only the uncached path means anything there.
          const kinds = e.paths ? [['uncached', UNCACHED]] : [['shared', RETURNING_GUEST], ['uncached', UNCACHED], ['member', member]];
          for (const [kind, cookie] of kinds as Array<[string, string]>) {
            add(`${e.name} ${kind}`, 'api', await measure(BASE, e.path, cookie, API_CONNECTIONS, e.paths, serverCpu));
          }
        }
      });
    }

    const failed = rows.filter((r) => r.ok !== true).length + costs.filter((c) => costOk(c.cost) !== true).length;
    console.log(`\nLoad average ${loadAverage()} at the end. "shared": a returning guest (the guest response cache may answer); "uncached": another cookie, the handler runs; "member": the member signed in, the handler runs with their session and their own ratings.\n`);
    console.log(rowsTable(rows));
    if (costs.length) console.log(`\n${costTable(costs)}`);
    console.log(`\n${[...pageList.map((p) => `page ${p.name}: ${p.path}`), ...apiList.map((e) => `${e.name}: ${e.path}`)].join('\n')}`);
    console.log(`\n${failed ? `${failed} target(s) not met or not checked (n/a).` : 'Every target met.'}`);
    if (failed && process.env.BENCH_STRICT === '1') process.exitCode = 1;
  } finally {
    stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
