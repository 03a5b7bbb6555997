// npm run bench: the public read API and pages under load. Starts the server in its own
// process on the city-scale PostgreSQL database (100k articles, 20k listings, 10k events),
// then runs autocannon against each endpoint — 20 connections, a few seconds each, after a
// warm-up — twice: as guests whose answers the guest response cache may share, and uncached
// (see UNCACHED below). It prints req/s, p50 and p99 for both, with the load average (figures
// taken on a busy machine are not comparable). The budget: p99 under 50 ms for every one.
//
// Uncached, site search still keeps a popular query's ranking for a few seconds
// (server/db/count-cache.ts), and list counts too. "search (distinct words)" sends a different
// word from the articles' headlines with every request: nothing is cached there.
//
//   npm run bench
//   BENCH_DATABASE_URL=postgres://... BENCH_PORT=3341 BENCH_SECONDS=5 BENCH_CONNECTIONS=20 npm run bench
//   BENCH_ONLY=search npm run bench          (endpoints whose name contains the word)
//   BENCH_ONLY=page npm run bench            (the pages: home, an article, a hub, a listing)
//   BENCH_GZIP=0 npm run bench               (uncompressed answers; by default gzip, as browsers)
//   BENCH_PGLITE_DIR=/tmp/demo npm run bench (the embedded database in that data directory,
//                                             e.g. made by `DATA_DIR=/tmp/demo npm run seed`)
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { openDatabase } from '../server/db';

const PGLITE_DIR = process.env.BENCH_PGLITE_DIR;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';
const TARGET = PGLITE_DIR ? `PGlite in ${PGLITE_DIR}` : DATABASE_URL.replace(/\/\/[^@]*@/, '//');
const PORT = Number(process.env.BENCH_PORT ?? 3340);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BUDGET_P99_MS = 50;
const ROOT = path.resolve(__dirname, '..');
const BASE = `http://127.0.0.1:${PORT}`;

interface Endpoint {
  name: string;
  path: string;
  /** Other paths to send in turn (each request takes the next one). */
  paths?: string[];
  /** An HTML page rather than JSON. */
  page?: boolean;
}

// Every request is a returning guest's: it carries the csrftoken cookie of an earlier visit.
// A guest's answer may come from the guest response cache (server/http/guest-response-cache.ts):
// the "shared" columns. Any other cookie bypasses that cache, so the "uncached" columns send
// one more, and measure the handler, its queries and serialisation on every request.
const RETURNING_GUEST = `csrftoken=${'b'.repeat(43)}`;
const UNCACHED = `${RETURNING_GUEST}; bench_uncached=1`;
// Browsers and their fetch() ask for compressed answers; BENCH_GZIP=0 asks for them as they are.
const ACCEPT_ENCODING = process.env.BENCH_GZIP === '0' ? 'identity' : 'gzip, deflate, br';

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** Real values from the database, so every request finds rows: a station, busy features, a busy day. */
async function endpoints(): Promise<Endpoint[]> {
  // PGlite takes its data directory's lock: open, read and close before the server starts.
  const handle = PGLITE_DIR ? await openDatabase({ dataDir: PGLITE_DIR }) : null;
  const db = handle?.db ?? knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } });
  try {
    const stop = await db('subway_stops').orderBy('id').first('id', 'latitude', 'longitude');
    const features = await db('listing_features as lf')
      .join('features as f', 'f.id', 'lf.feature_id')
      .groupBy('f.slug')
      .orderByRaw('count(*) desc')
      .limit(2)
      .pluck('f.slug');
    const busyDay = await db('event_occurrences').groupBy('local_date').orderByRaw('count(*) desc').first(db.raw('local_date::text as local_date'));
    const article = await db('articles').where('status', 'published').where('date_published', '<=', new Date()).orderBy('date_published', 'desc').first('path');
    const listing = await db('listings as l').join('listing_types as t', 't.id', 'l.type_id').where('t.slug', 'restaurants').orderBy('l.favourite_count', 'desc').first('l.id', 'l.slug', 't.slug as type');
    // Words from the names of places, events and headlines, in a fixed shuffled order, for
    // searches that miss every cache: each request of a run asks for another word.
    const words: string[] = (
      await db.raw(`
        select w from (
          select regexp_split_to_table(lower(name), '[^a-z]+') as w from listings
          union select regexp_split_to_table(lower(title), '[^a-z]+') from events
          union select regexp_split_to_table(lower(name), '[^a-z]+') from articles where id % 20 = 0
        ) s where length(w) between 4 and 12 order by md5(w) limit 8000`)
    ).rows.map((r: { w: string }) => r.w);
    const lat = stop?.latitude ?? 43.6532;
    const lng = stop?.longitude ?? -79.3832;
    const common = process.env.BENCH_COMMON_WORD ?? 'toronto';
    const rare = process.env.BENCH_RARE_WORD ?? 'pizza';
    return [
      { name: 'listings (plain)', path: '/api/v2/listings/' },
      { name: 'listings (smart_review)', path: '/api/v2/listings/?ordering=smart_review' },
      { name: 'listings (distance)', path: `/api/v2/listings/?latitude=${lat}&longitude=${lng}&ordering=distance` },
      { name: 'listings (subway stop)', path: `/api/v2/listings/?subway_stop=${stop?.id ?? 1}` },
      { name: 'listings (bbox)', path: `/api/v2/listings/?bbox=${lng - 0.02},${lat - 0.015},${lng + 0.02},${lat + 0.015}` },
      { name: 'listings (features)', path: `/api/v2/listings/?features=${features.join(',')}` },
      { name: 'listings (keywords)', path: '/api/v2/listings/?keywords=pi&bundle_type=simple&limit=10' },
      { name: 'events by date', path: `/api/v2/events/?date=${busyDay?.local_date ?? '2026-12-05'}` },
      { name: 'events upcoming', path: '/api/v2/events/?ordering=start_date_time' },
      { name: 'articles', path: '/api/v2/articles/' },
      { name: 'articles (type)', path: '/api/v2/articles/?type=food' },
      { name: `search common "${common}"`, path: `/api/search/?serialize_for=web&q=${encodeURIComponent(common)}` },
      { name: `search rare "${rare}"`, path: `/api/search/?serialize_for=web&q=${encodeURIComponent(rare)}` },
      { name: 'search by date', path: `/api/search/?serialize_for=web&q=${encodeURIComponent(common)}&ordering=-date_published` },
      { name: 'search typo', path: '/api/search/?serialize_for=web&q=resturant' },
      {
        name: 'search (distinct words)',
        path: `/api/search/?serialize_for=web&q=${encodeURIComponent(words[0] ?? common)}`,
        paths: words.map((w) => `/api/search/?serialize_for=web&q=${encodeURIComponent(w)}`),
      },
      { name: 'page: home', path: '/', page: true },
      ...(article ? [{ name: 'page: article', path: article.path as string, page: true }] : []),
      { name: 'page: listing hub', path: '/restaurants/', page: true },
      ...(listing ? [{ name: 'page: listing detail', path: `/${listing.type}/${listing.slug}-${listing.id}/`, page: true }] : []),
    ];
  } finally {
    if (handle) await handle.close();
    else await db.destroy();
  }
}

function startServer(): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (PGLITE_DIR) delete env.DATABASE_URL;
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/index.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      NODE_ENV: 'production',
      ...(PGLITE_DIR ? { DATA_DIR: PGLITE_DIR } : { DATABASE_URL, DATA_DIR: `/tmp/guide-bench-${PORT}` }),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function waitForHealth(timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${BASE}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server on ${BASE} did not become healthy`);
}

function run(url: string, duration: number, paths: string[] | undefined, cookie: string): Promise<autocannon.Result> {
  const headers = { cookie, 'accept-encoding': ACCEPT_ENCODING };
  if (!paths?.length) return autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers });
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    pipelining: 1,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
}

async function main(): Promise<void> {
  const list = (await endpoints()).filter((e) => !process.env.BENCH_ONLY || e.name.includes(process.env.BENCH_ONLY));
  const server = startServer();
  const stop = () => server.kill('SIGTERM');
  process.once('SIGINT', stop);
  try {
    await waitForHealth();
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per endpoint, Accept-Encoding: ${ACCEPT_ENCODING}, against ${TARGET}; load average ${loadAverage()} on ${os.cpus().length} cores\n`);
    const rows: string[][] = [];
    let over = 0;
    for (const e of list) {
      const first = await fetch(BASE + e.path, { headers: { cookie: RETURNING_GUEST } });
      const text = await first.text();
      if (!first.ok) throw new Error(`${e.name}: ${first.status} ${text.slice(0, 500)}`);
      const body = (e.page ? { count: `${Math.round(text.length / 1024)} KB` } : JSON.parse(text)) as { count?: number | string };
      const row = [e.name, String(body.count ?? '')];
      // Distinct words never repeat within a run: only the uncached path means anything there.
      for (const cookie of e.paths ? [UNCACHED] : [RETURNING_GUEST, UNCACHED]) {
        await run(BASE + e.path, 1, e.paths?.slice(-200), cookie); // warm-up: plans cached, pool open, pages in memory
        const before = loadAverage();
        const r = await run(BASE + e.path, SECONDS, e.paths?.slice(0, -200), cookie);
        const bad = r.non2xx + r.errors + r.timeouts;
        if (r.latency.p99 >= BUDGET_P99_MS || bad) over += 1;
        const load = `${before.split(' ')[0]}→${loadAverage().split(' ')[0]}`;
        const kind = cookie === UNCACHED ? 'uncached' : 'shared';
        console.log(`${e.name} (${kind}): ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms (load ${load})`);
        if (e.paths) row.push('–', '–', '–');
        row.push(r.requests.average.toFixed(0), String(r.latency.p50), `${r.latency.p99}${bad ? ` (${bad} failed)` : r.latency.p99 < BUDGET_P99_MS ? '' : ' OVER'}`);
      }
      rows.push(row);
    }
    const head = ['endpoint', 'count', 'shared req/s', 'p50 ms', 'p99 ms', 'uncached req/s', 'p50 ms', 'p99 ms'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
    console.log(`\np99 budget ${BUDGET_P99_MS} ms; OVER marks a p99 at or above it. Load average ${loadAverage()} at the end.\n`);
    console.log(line(head));
    console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const r of rows) console.log(line(r));
    console.log(`\n${list.map((e) => `${e.name}: ${e.path}`).join('\n')}`);
    if (over) process.exitCode = 1;
  } finally {
    stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
