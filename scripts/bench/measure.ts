// What `npm run bench` (scripts/bench/site.ts) is made of, exported so that another script can add
// rows measured the same way — the nginx stack's guest and member pages, for one: start the
// stack, sign in with signIn(base), then measure(base, path, cookie, PAGE_CONNECTIONS) beside
// the same run's bare-Express reference, and push pageRow(...)s into the table that
// printTable() prints. (scripts/bench/site.ts also takes BENCH_STACK_URL: the page rows of a stack
// already running there are measured in the same run.)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(__dirname, '../..');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** The issue's figures for pages are at 50 connections, the APIs' at 20. */
export const PAGE_CONNECTIONS = Number(process.env.BENCH_PAGE_CONNECTIONS ?? 50);
export const API_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Browsers and their fetch() ask for compressed answers; BENCH_GZIP=0 asks for them as they are. */
export const ACCEPT_ENCODING = process.env.BENCH_GZIP === '0' ? 'identity' : 'gzip, deflate, br';

// The targets of issue 15, printed beside the figures.
export const TARGETS = {
  guestPageRatio: 0.5,
  memberPageRatio: 0.3,
  memberPageP99Ms: 100,
  uncachedPageQueries: 4,
  uncachedPageDbMs: 5,
  apiP99Ms: 50,
} as const;

/** A returning guest: only the csrftoken cookie of an earlier visit (the guest response cache may answer). */
export const CSRF = 'b'.repeat(43);
export const RETURNING_GUEST = `csrftoken=${CSRF}`;
/** Any other cookie bypasses the guest response cache: the handler, its queries and serialisation run every time. */
export const UNCACHED = `${RETURNING_GUEST}; bench_uncached=1`;

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export interface Measured {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  failed: number;
  load: string;
  /** CPU time per request of the server's processes and of its database backends (see CpuMeter), when measured. */
  cpuMsPerRequest?: { server: number; db: number };
  /**
   * The load generator's own CPU over the run, as a share of one core (autocannon runs in this
   * process, on one thread): near 100%, the row measures the client, not the server.
   */
  clientBusy?: number;
}

// CPU time is what a busy machine cannot inflate: latency under a load average of 20 says
// more about the neighbours than about us, milliseconds of CPU per request do not.
const TICK_MS = 10; // USER_HZ is 100 on Linux

function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  } catch {
    return 0; // gone, or not Linux
  }
}

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // not Linux
  }
  return [pid, ...children.flatMap(descendants)];
}

/** Cumulative CPU milliseconds: the server's process tree, and the database backends serving it. */
export interface CpuMeter {
  sample(): Promise<{ server: number; db: Map<number, number> }>;
}

/** A meter for the process `pid` and (PostgreSQL on this machine) the backends listed by `backendPids`. */
export function cpuMeter(pid: number, backendPids: () => Promise<number[]>): CpuMeter {
  return {
    async sample() {
      const server = descendants(pid).reduce((sum, p) => sum + processCpuMs(p), 0);
      const db = new Map((await backendPids()).map((p) => [p, processCpuMs(p)]));
      return { server, db };
    },
  };
}

/** autocannon against base + path (or each of `paths` in turn), after a one-second warm-up. */
export async function measure(base: string, urlPath: string, cookie: string, connections: number, paths?: string[], cpu?: CpuMeter): Promise<Measured> {
  const headers = { cookie, 'accept-encoding': ACCEPT_ENCODING };
  const run = (duration: number, list: string[] | undefined) => {
    if (!list?.length) return autocannon({ url: base + urlPath, connections, duration, pipelining: 1, headers });
    let i = 0;
    return autocannon({ url: base + urlPath, connections, duration, pipelining: 1, headers, requests: [{ setupRequest: (req) => ({ ...req, path: list[i++ % list.length] }) }] });
  };
  // Warm-up: plans cached, pool open, pages in memory. Distinct paths keep their own for it.
  await run(1, paths?.slice(-200));
  const before = loadAverage().split(' ')[0];
  const cpuBefore = await cpu?.sample();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const r = await run(SECONDS, paths?.slice(0, -200));
  const client = process.cpuUsage(clientBefore);
  const clientBusy = (client.user + client.system) / 1000 / (performance.now() - started);
  const cpuAfter = await cpu?.sample();
  const m: Measured = { reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts, load: `${before}→${loadAverage().split(' ')[0]}`, clientBusy };
  if (cpuBefore && cpuAfter && r.requests.total > 0) {
    // A backend opened during the run counts from zero.
    const db = [...cpuAfter.db].reduce((sum, [p, ms]) => sum + ms - (cpuBefore.db.get(p) ?? 0), 0);
    m.cpuMsPerRequest = { server: (cpuAfter.server - cpuBefore.server) / r.requests.total, db: db / r.requests.total };
  }
  return m;
}

/** Starts a process and resolves once GET base/healthz answers. */
export async function startProcess(args: string[], env: NodeJS.ProcessEnv, base: string, cwd = ROOT, timeoutMs = 60_000): Promise<ChildProcess> {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGTERM');
  throw new Error(`${base} did not become healthy`);
}

/** The bare Express reference (reference-server.ts) in its own process on `port`. */
export function startReference(port: number): Promise<ChildProcess> {
  return startProcess(['scripts/bench/reference-server.ts', String(port)], { ...process.env, NODE_ENV: 'production' }, `http://127.0.0.1:${port}`);
}

/**
 * Signs a member in through the real login API and answers the Cookie header its pages are
 * requested with (csrftoken and the session).
 */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/v2/profiles/email-login/`, {
    method: 'POST',
    // As nginx forwards a browser's HTTPS request: the session cookie is Secure in production.
    headers: { 'content-type': 'application/json', cookie: RETURNING_GUEST, 'x-csrftoken': CSRF, origin: base, 'x-forwarded-proto': 'https' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`signing in ${email} at ${base}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.startsWith('csrftoken='));
  if (!session.length) throw new Error(`signing in ${email} at ${base}: no session cookie in the answer`);
  const cookie = [RETURNING_GUEST, ...session].join('; ');
  const me = await fetch(`${base}/api/v2/profiles/me/`, { headers: { cookie } });
  if (!me.ok) throw new Error(`the session of ${email} is not accepted by ${base}/api/v2/profiles/me/: ${me.status}`);
  return cookie;
}

export interface RenderCost {
  queries: number;
  dbMs: number;
}

/** The `db;desc="<N> queries";dur=<ms>` metric of a Server-Timing header, or null. */
export function parseServerTiming(header: string | null | undefined): RenderCost | null {
  const m = /(?:^|,)\s*db;desc="(\d+) queries";dur=([\d.]+)\s*(?:,|$)/.exec(header ?? '');
  return m ? { queries: Number(m[1]), dbMs: Number(m[2]) } : null;
}

/**
 * The query count and database time of an uncached render, from the page's Server-Timing
 * header (`db;desc="<N> queries";dur=<ms>`); the median of a few renders, or null when the
 * server does not send it.
 */
export async function renderCost(base: string, urlPath: string, renders = 5): Promise<RenderCost | null> {
  const costs: RenderCost[] = [];
  for (let i = 0; i < renders; i++) {
    const res = await fetch(base + urlPath, { headers: { cookie: UNCACHED } });
    await res.arrayBuffer();
    const cost = parseServerTiming(res.headers.get('server-timing'));
    if (!cost) return null;
    costs.push(cost);
  }
  costs.sort((a, b) => a.dbMs - b.dbMs);
  return costs[Math.floor(costs.length / 2)];
}

export interface Row {
  name: string;
  connections: number;
  m: Measured;
  /** req/s over the bare-Express reference's at the same number of connections. */
  ratio: number;
  /** What the row must meet, as printed; empty when nothing. */
  target: string;
  /** null: the target could not be checked (n/a). */
  ok: boolean | null;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** A page row: its ratio to the reference and, for members, the p99 too. */
export function pageRow(name: string, m: Measured, reference: Measured, connections: number, member: boolean): Row {
  const ratio = m.reqPerSec / reference.reqPerSec;
  const min = member ? TARGETS.memberPageRatio : TARGETS.guestPageRatio;
  const ok = !m.failed && ratio >= min && (!member || m.p99 < TARGETS.memberPageP99Ms);
  return { name, connections, m, ratio, target: member ? `≥ ${min.toFixed(2)}x, p99 < ${TARGETS.memberPageP99Ms} ms` : `≥ ${min.toFixed(2)}x`, ok };
}

/** An API row: the p99 budget. */
export function apiRow(name: string, m: Measured, reference: Measured, connections: number): Row {
  return { name, connections, m, ratio: m.reqPerSec / reference.reqPerSec, target: `p99 < ${TARGETS.apiP99Ms} ms`, ok: !m.failed && m.p99 < TARGETS.apiP99Ms };
}

const mark = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'pass' : 'FAIL');

/** A markdown table (it goes into docs/performance.md as printed). */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

export function rowsTable(rows: Row[]): string {
  return table(
    ['row', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs bare Express', 'CPU ms/req node + db', 'client CPU', 'target', ''],
    rows.map((r) => [
      r.name,
      String(r.connections),
      fmt(r.m.reqPerSec),
      String(r.m.p50),
      `${r.m.p99}${r.m.failed ? ` (${r.m.failed} failed)` : ''}`,
      `${fmt(r.ratio, 2)}x`,
      r.m.cpuMsPerRequest ? `${fmt(r.m.cpuMsPerRequest.server, 2)} + ${fmt(r.m.cpuMsPerRequest.db, 2)}` : '',
      r.m.clientBusy === undefined ? '' : `${fmt(r.m.clientBusy * 100)}%`,
      r.target,
      mark(r.ok),
    ]),
  );
}

export interface CostRow {
  page: string;
  cost: RenderCost | null;
}

export function costOk(cost: RenderCost | null): boolean | null {
  if (!cost) return null;
  return cost.queries <= TARGETS.uncachedPageQueries && cost.dbMs <= TARGETS.uncachedPageDbMs;
}

export function costTable(rows: CostRow[]): string {
  return table(
    ['uncached render', 'queries', 'db ms', 'target', ''],
    rows.map((r) => [
      r.page,
      r.cost ? String(r.cost.queries) : 'n/a',
      r.cost ? fmt(r.cost.dbMs, 1) : 'n/a',
      `≤ ${TARGETS.uncachedPageQueries} queries, ≤ ${TARGETS.uncachedPageDbMs} ms`,
      mark(costOk(r.cost)),
    ]),
  );
}

/** A fresh secret for a server the bench starts (sessions need one in production). */
export const sessionSecret = () => crypto.randomBytes(32).toString('hex');
