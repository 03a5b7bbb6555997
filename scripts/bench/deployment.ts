// The deployment's figures: nginx with two node processes (scripts/stack.ts) beside one node
// process, both the production build on the same seeded PostgreSQL database, for the home page,
// an article and a hub, as a first visit (no cookie), a returning guest (csrftoken cookie only)
// and a signed-in member; then the same stack two ways (issue 30): media in an S3 bucket
// (s3rver) and public reads on a hot standby of a primary of its own (scripts/stack.ts,
// startStackOn, as `npm run stack -- --s3 --replica`), seeded alike. BENCH_STACK_TWO_WAYS=0
// leaves that one out.
// Each figure is printed as req/s, p99 and its ratio to a bare Express route sending 30 KB from
// memory, measured in the same run (absolute req/s mean little on a shared machine).
//
//   npm run build && npm run bench:stack
//   BENCH_STACK_DATABASE_URL=postgres://… BENCH_SECONDS=5 BENCH_CONNECTIONS=50 npm run bench:stack
//
// Without a database URL it uses `guide_stack_bench` on 127.0.0.1:5432, creating it and seeding
// the demo city when it is empty. The stack is reached over HTTPS (nginx terminates TLS, as in
// production); the single process and the reference over plain HTTP. benchStack() is the whole
// run, for scripts/bench/site.ts to call.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { sign } from 'cookie-signature';
import { ensureDatabase, nginxInstalled, NGINX_PATH, seedWhenEmpty, SERVER_ENTRY, stackDataDir, stackGet, startStack, startStackOn } from '../stack';
import { freePort } from '../../server/testing/free-port';
import { runWrk, wrkInstalled, WRK_PATH } from './wrk';

const ROOT = path.resolve(__dirname, '../..');
export const DEFAULT_BENCH_STACK_DATABASE = 'postgres://root@127.0.0.1:5432/guide_stack_bench';
const REFERENCE_BYTES = 30 * 1024;

export interface StackBenchOptions {
  databaseUrl?: string;
  seconds?: number;
  connections?: number;
  log?: (line: string) => void;
  /** Also measure the stack on S3 + a read replica (default: unless BENCH_STACK_TWO_WAYS=0). */
  twoWays?: boolean;
}

export interface Figure {
  reqPerSec: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  failed: number;
}

export const STACK_BENCH_TARGETS = ['single process', 'nginx + 2 processes', 'nginx + 2 processes, S3 + replica'] as const;

export interface StackBenchRow {
  target: (typeof STACK_BENCH_TARGETS)[number];
  page: string;
  who: 'first visit' | 'guest' | 'member';
  figure: Figure;
  /** req/s over the bare Express reference's. */
  ratio: number;
}

export interface StackBenchResult {
  reference: Figure;
  rows: StackBenchRow[];
  connections: number;
  seconds: number;
}

// A returning guest carries the csrftoken cookie of an earlier visit (as scripts/bench/site.ts).
const RETURNING_GUEST = `csrftoken=${'b'.repeat(43)}`;

/**
 * The load generator: wrk where it is installed (scripts/bench/wrk.ts says why), else autocannon;
 * BENCH_CLIENT=autocannon forces the latter. Every figure of a run comes from the same one.
 */
export const benchClient = (): 'wrk' | 'autocannon' => (process.env.BENCH_CLIENT !== 'autocannon' && wrkInstalled() ? 'wrk' : 'autocannon');

async function load(url: string, seconds: number, connections: number, cookie?: string): Promise<Figure> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...(cookie ? { cookie } : {}) };
  if (benchClient() === 'wrk') {
    const r = await runWrk(url, { seconds, connections, headers });
    return { reqPerSec: r.reqPerSec, p99: r.p99, failed: r.non2xx + r.errors + r.timeouts };
  }
  const r = await autocannon({ url, connections, duration: seconds, pipelining: 1, headers });
  return { reqPerSec: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts };
}

/** The bare Express route: 30 KB of HTML from memory, in a process of its own. */
async function startReference(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const script = `
    const express = require('express');
    const body = Buffer.from('<!doctype html><title>x</title>' + 'x'.repeat(${REFERENCE_BYTES} - 31));
    const app = express();
    app.get('/', (req, res) => res.type('html').send(body));
    app.listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, child };
}

async function startSingle(databaseUrl: string, sessionSecret: string): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-bench-single-'));
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SESSION_SECRET: sessionSecret, LOG_LEVEL: 'warn', RATE_LIMITS: 'false' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) break;
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) return { url: `http://127.0.0.1:${port}`, child, dataDir };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
  throw new Error('the single process did not come up');
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A demo member's session, written to the database: `sessionid=…` signed with the secret. */
async function memberSession(databaseUrl: string, sessionSecret: string): Promise<{ cookie: string; articlePath: string }> {
  const db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    const member = await db('profiles').where('is_staff', false).orderBy('id').first('id');
    if (!member) throw new Error('the database has no member: seed it (npm run seed)');
    const article = await db('articles').where('status', 'published').where('date_published', '<=', new Date()).orderBy('date_published', 'desc').first('path');
    if (!article) throw new Error('the database has no published article: seed it (npm run seed)');
    const sid = crypto.randomBytes(24).toString('base64url');
    const idleMs = 5 * 24 * 3600 * 1000;
    const expires = new Date(Date.now() + idleMs);
    const sess = { cookie: { originalMaxAge: idleMs, expires: expires.toISOString(), httpOnly: true, path: '/', sameSite: 'lax', secure: true }, passport: { user: member.id } };
    await db('sessions').insert({ sid, sess: JSON.stringify(sess), expired: expires });
    return { cookie: `${RETURNING_GUEST}; sessionid=${encodeURIComponent(`s:${sign(sid, sessionSecret)}`)}`, articlePath: article.path as string };
  } finally {
    await db.destroy();
  }
}

/** The whole run: the reference, then the single process, then the stack, one after another. */
export async function benchStack(opts: StackBenchOptions = {}): Promise<StackBenchResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 5);
  const connections = opts.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 50);
  const databaseUrl = opts.databaseUrl ?? process.env.BENCH_STACK_DATABASE_URL ?? DEFAULT_BENCH_STACK_DATABASE;
  if (!nginxInstalled()) throw new Error(`nginx is not installed at ${NGINX_PATH} (apt-get install -y nginx)`);
  await ensureDatabase(databaseUrl);
  await seedWhenEmpty(databaseUrl);
  const twoWays = opts.twoWays ?? process.env.BENCH_STACK_TWO_WAYS !== '0';
  const sessionSecret = crypto.randomBytes(48).toString('base64url');
  // The pages and visitors of a database: its newest article, a member's session written to it.
  const visitsOf = async (url: string) => {
    const { cookie: memberCookie, articlePath } = await memberSession(url, sessionSecret);
    const pages = [
      { page: 'home', path: '/' },
      { page: 'article', path: articlePath },
      { page: 'hub', path: '/restaurants/' },
    ];
    const who: Array<{ who: StackBenchRow['who']; cookie?: string }> = [
      // Most readers: no cookie at all (a search engine's or a shared link).
      { who: 'first visit' },
      { who: 'guest', cookie: RETURNING_GUEST },
      { who: 'member', cookie: memberCookie },
    ];
    return { pages, who };
  };
  const visits = await visitsOf(databaseUrl);

  const reference = await startReference();
  let referenceFigure: Figure;
  try {
    await load(reference.url, 1, connections);
    referenceFigure = await load(reference.url, seconds, connections);
  } finally {
    await stop(reference.child);
  }
  log(`bare Express, 30 KB from memory: ${referenceFigure.reqPerSec.toFixed(0)} req/s, p99 ${referenceFigure.p99} ms`);

  const rows: StackBenchRow[] = [];
  const measure = async (target: StackBenchRow['target'], base: string, { pages, who } = visits) => {
    for (const p of pages) {
      for (const w of who) {
        const url = base + p.path;
        const check = await load(url, 1, connections, w.cookie); // warm-up: caches filled, pools open
        if (check.failed) throw new Error(`${target} ${p.page} (${w.who}): ${check.failed} failed requests in the warm-up`);
        const figure = await load(url, seconds, connections, w.cookie);
        const row = { target, page: p.page, who: w.who, figure, ratio: figure.reqPerSec / referenceFigure.reqPerSec };
        rows.push(row);
        log(`${target} ${p.page} (${w.who}): ${figure.reqPerSec.toFixed(0)} req/s, p99 ${figure.p99} ms, ${row.ratio.toFixed(2)}x${figure.failed ? `, ${figure.failed} failed` : ''}`);
      }
    }
  };

  const single = await startSingle(databaseUrl, sessionSecret);
  try {
    await measure('single process', single.url);
  } finally {
    await stop(single.child);
    fs.rmSync(single.dataDir, { recursive: true, force: true });
  }
  const stack = await startStack({ databaseUrl, dataDir: stackDataDir(databaseUrl), sessionSecret, env: { RATE_LIMITS: 'false' } });
  try {
    await measure('nginx + 2 processes', stack.url);
  } finally {
    await stack.stop();
  }
  if (twoWays) {
    // Its own primary + standby, seeded (most of its start-up time), and the media copied into s3rver.
    const onBoth = await startStackOn({ s3: true, replica: true, seed: true, sessionSecret, env: { RATE_LIMITS: 'false' }, log });
    try {
      await waitForReplica(onBoth);
      await measure('nginx + 2 processes, S3 + replica', onBoth.url, await visitsOf(onBoth.databaseUrl));
    } finally {
      await onBoth.stop();
    }
  }
  return { reference: referenceFigure, rows, connections, seconds };
}

/** Until /healthz says the processes read the standby (before their first check, reads go to the primary). */
async function waitForReplica(stack: Parameters<typeof stackGet>[0]): Promise<void> {
  const until = Date.now() + 60_000;
  let streaming = 0;
  while (Date.now() < until) {
    const answer = await stackGet(stack, '/healthz').catch(() => null);
    const state = answer?.status === 200 ? (JSON.parse(answer.body) as { replica?: { state: string } }).replica?.state : undefined;
    streaming = state === 'streaming' ? streaming + 1 : 0;
    if (streaming >= 4) return; // a few in a row: both processes
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the stack never reported its replica streaming (/healthz)');
}

/** The result as a Markdown table, pages down, targets across (those measured). */
export function stackBenchTable(result: StackBenchResult): string {
  const targets = STACK_BENCH_TARGETS.filter((t) => result.rows.some((r) => r.target === t));
  const lines = [
    `| page | ${targets.map((t) => `${t}: req/s, p99, ratio`).join(' | ')} |`,
    `|---|${targets.map(() => '---').join('|')}|`,
  ];
  for (const page of ['home', 'article', 'hub']) {
    for (const who of ['first visit', 'guest', 'member'] as const) {
      const cells = targets.map((t) => {
        const row = result.rows.find((r) => r.target === t && r.page === page && r.who === who);
        if (!row) return '–';
        return `${row.figure.reqPerSec.toFixed(0)}, ${row.figure.p99} ms, ${row.ratio.toFixed(2)}x${row.figure.failed ? ` (${row.figure.failed} failed)` : ''}`;
      });
      lines.push(`| ${page} (${who}) | ${cells.join(' | ')} |`);
    }
  }
  lines.push(`| bare Express, 30 KB | ${result.reference.reqPerSec.toFixed(0)} req/s, p99 ${result.reference.p99} ms (1.00x) |${targets.slice(1).map(() => ' |').join('')}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const before = loadAverage();
  const result = await benchStack();
  console.log(`\n${benchClient() === 'wrk' ? `wrk (${WRK_PATH})` : 'autocannon'}, ${result.connections} connections, ${result.seconds} s each, gzip; load average ${before} → ${loadAverage()} on ${os.cpus().length} cores\n`);
  console.log(stackBenchTable(result));
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
