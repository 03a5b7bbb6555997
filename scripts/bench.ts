// npm run bench: the public read API under load. Starts the server in its own process on the
// city-scale PostgreSQL database (100k articles, 20k listings, 10k events), then runs
// autocannon against each endpoint — 20 connections, a few seconds each, after a warm-up —
// and prints req/s, p50 and p99 per endpoint. The budget: p99 under 50 ms for every one.
//
//   npm run bench
//   BENCH_DATABASE_URL=postgres://... BENCH_PORT=3341 BENCH_SECONDS=5 BENCH_CONNECTIONS=20 npm run bench
//   BENCH_ONLY=search npm run bench          (endpoints whose name contains the word)
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';
const PORT = Number(process.env.BENCH_PORT ?? 3340);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BUDGET_P99_MS = 50;
const ROOT = path.resolve(__dirname, '..');
const BASE = `http://127.0.0.1:${PORT}`;

interface Endpoint {
  name: string;
  path: string;
}

/** Real values from the database, so every request finds rows: a station, busy features, a busy day. */
async function endpoints(): Promise<Endpoint[]> {
  const db = knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } });
  try {
    const stop = await db('subway_stops').orderBy('id').first('id', 'latitude', 'longitude');
    const features = await db('listing_features as lf')
      .join('features as f', 'f.id', 'lf.feature_id')
      .groupBy('f.slug')
      .orderByRaw('count(*) desc')
      .limit(2)
      .pluck('f.slug');
    const busyDay = await db('event_occurrences').groupBy('local_date').orderByRaw('count(*) desc').first(db.raw('local_date::text as local_date'));
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
    ];
  } finally {
    await db.destroy();
  }
}

function startServer(): ChildProcess {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/guide-bench-${PORT}`,
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

function run(url: string, duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
}

async function main(): Promise<void> {
  const list = (await endpoints()).filter((e) => !process.env.BENCH_ONLY || e.name.includes(process.env.BENCH_ONLY));
  const server = startServer();
  const stop = () => server.kill('SIGTERM');
  process.once('SIGINT', stop);
  try {
    await waitForHealth();
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per endpoint, against ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')}\n`);
    const rows: string[][] = [];
    let over = 0;
    for (const e of list) {
      const first = await fetch(BASE + e.path);
      const body = (await first.json()) as { count?: number };
      if (!first.ok) throw new Error(`${e.name}: ${first.status} ${JSON.stringify(body)}`);
      await run(BASE + e.path, 1); // warm-up: plans cached, pool open, pages in memory
      const r = await run(BASE + e.path, SECONDS);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (r.latency.p99 >= BUDGET_P99_MS || bad) over += 1;
      console.log(`${e.name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`);
      rows.push([e.name, String(body.count ?? ''), r.requests.average.toFixed(0), String(r.latency.p50), String(r.latency.p99), bad ? `${bad} failed` : r.latency.p99 < BUDGET_P99_MS ? 'ok' : 'OVER']);
    }
    const head = ['endpoint', 'count', 'req/s', 'p50 ms', 'p99 ms', `p99 < ${BUDGET_P99_MS}`];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
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
