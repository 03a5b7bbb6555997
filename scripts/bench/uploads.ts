// Do other requests keep answering while members upload large listing photos? Runs the real app
// in a child process (production mode, an in-memory PGlite or DATABASE_URL, a DATA_DIR under
// /tmp), then runs autocannon against the listings API twice: idle, and while UPLOADERS
// clients post 48-megapixel JPEGs of just under BENCH_PHOTO_MB (6, the limit) to
// POST /api/v2/photos/ back to back. Reports p50/p99 of both runs, their ratio (the goal: under
// 2x), uploads answered, and the server's memory: RSS before the runs (idle, after one warm-up
// upload), its peak sampled every 20 ms from /proc and the peak over idle (the goal: under
// +250 MB), and the peaks of V8's heap and of Buffer memory the server saw itself.
//
// The server runs as the deployment runs it: with jemalloc preloaded when it is installed
// (scripts/jemalloc.ts); MALLOC=system runs it on glibc's malloc.
//
//   tsx scripts/bench/uploads.ts [seconds=10] [uploaders=20]
//   MALLOC=system tsx scripts/bench/uploads.ts        (glibc's malloc, as before jemalloc)
//   BENCH_PHOTO_MB=3 tsx scripts/bench/uploads.ts     (smaller photos)
//   BENCH_UNCACHED=1 tsx scripts/bench/uploads.ts     (listings requests past the guest cache)
//   BENCH_UPLOADS_ONLY=1 tsx scripts/bench/uploads.ts  (no listings requests beside the uploads)
//   BENCH_CPU_PROF=DIR …                               (a CPU profile of the server in DIR)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { sign } from 'cookie-signature';
import { loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { buildAppContext, droppedMail } from '../../server/app-context';
import { openDatabase } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { createLocalStorage } from '../../server/storage/storage';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../../server/apps/accounts/session';
import { JEMALLOC_PATH, withJemalloc } from '../jemalloc';

const seconds = Number(process.argv[2] ?? 10);
const uploaders = Number(process.argv[3] ?? 20);
const port = Number(process.env.BENCH_PORT ?? 3331);
const base = `http://127.0.0.1:${port}`;
const LISTINGS = '/api/v2/listings/?limit=20';
const photoMb = Number(process.env.BENCH_PHOTO_MB ?? 6);

interface Ready {
  cookie: string;
  csrf: string;
  listingId: number;
}

/** What the server saw of its own memory, in MB. */
interface Memory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}
/** Its memory at the last 'reset' (idle) and the peaks since. */
interface MemoryPeaks {
  idle: Memory;
  peak: Memory;
}

// ## The server (child process)
async function serve(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-uploads-'));
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), SITE_URL: base, LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-secret-'.padEnd(40, 'x'), RATE_LIMITS: 'false' });
  const handle = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { inMemory: true });
  await migrateLatest(handle.db);
  const db = handle.db;
  const stamp = Date.now();
  const [member] = await db('profiles').insert({ email: `bench-${stamp}@example.com`, full_name: 'Bench' }).returning('id');
  const [type] = await db('listing_types').insert({ name: 'Bench type', slug: `bench-${stamp}`, position: 1 }).returning('id');
  const rows = Array.from({ length: 200 }, (_, i) => ({ name: `Bench place ${i}`, slug: `bench-place-${i}`, type_id: type.id, address: `${i} Yonge St`, latitude: 43.65, longitude: -79.38 }));
  const [listing] = await db('listings').insert(rows).returning('id');
  const sid = crypto.randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + SESSION_IDLE_MS);
  await db('sessions').insert({ sid, sess: JSON.stringify({ cookie: { originalMaxAge: SESSION_IDLE_MS, expires, httpOnly: true, path: '/' }, passport: { user: member.id } }), expired: expires });
  const csrf = crypto.randomBytes(32).toString('base64url');
  const cookie = `${SESSION_COOKIE}=${encodeURIComponent(`s:${sign(sid, config.sessionSecret)}`)}; csrftoken=${csrf}`;
  const ctx = buildAppContext(config, handle, { mailer: droppedMail, storage: createLocalStorage(config.mediaDir) });
  const server = createApp(ctx, { watchManifest: false }).listen(port, '127.0.0.1', () => process.send?.({ cookie, csrf, listingId: listing.id } satisfies Ready));
  const now = (): Memory => {
    const m = process.memoryUsage();
    return { heapUsed: m.heapUsed / 1048576, heapTotal: m.heapTotal / 1048576, external: m.external / 1048576, arrayBuffers: m.arrayBuffers / 1048576 };
  };
  let idle = now();
  let peak = idle;
  setInterval(() => {
    const m = now();
    peak = { heapUsed: Math.max(peak.heapUsed, m.heapUsed), heapTotal: Math.max(peak.heapTotal, m.heapTotal), external: Math.max(peak.external, m.external), arrayBuffers: Math.max(peak.arrayBuffers, m.arrayBuffers) };
  }, 20).unref();
  process.on('message', (m) => {
    if (m === 'reset') peak = idle = now();
    if (m === 'peaks') process.send?.({ idle, peak } satisfies MemoryPeaks);
  });
  process.on('disconnect', () => {
    server.close();
    void handle.close().finally(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

// ## The clients (this process)
function rssOf(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

// BENCH_UNCACHED=1: the listings requests carry a cookie, which bypasses the guest response
// cache, so every one runs its handler and queries (as a member's would).
const uncached = Boolean(process.env.BENCH_UNCACHED);
const uploadsOnly = Boolean(process.env.BENCH_UPLOADS_ONLY);

function cannon(): Promise<autocannon.Result> {
  return autocannon({ url: `${base}${LISTINGS}`, connections: 10, duration: seconds, pipelining: 1, headers: uncached ? { cookie: 'bench_uncached=1' } : undefined });
}

async function main(): Promise<void> {
  const env = withJemalloc(process.env);
  const child: ChildProcess = fork(__filename, ['--serve'], { env, execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CPU_PROF] : [])], stdio: 'inherit' });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const pid = child.pid!;

  const jpeg = await benchPhoto(photoMb * 1048576);
  const body = JSON.stringify({ image: `data:image/jpeg;base64,${jpeg.toString('base64')}`, title: 'Bench', description: '', listing: ready.listingId });
  const meta = await sharp(jpeg).metadata();
  const malloc = env.LD_PRELOAD?.includes(JEMALLOC_PATH) ? 'jemalloc' : `glibc${env.MALLOC_ARENA_MAX ? ` MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX}` : ''}`;
  console.log(`photo ${meta.width}x${meta.height} (${((meta.width! * meta.height!) / 1e6).toFixed(0)} MP), JPEG ${(jpeg.length / 1048576).toFixed(2)} MB, body ${(body.length / 1048576).toFixed(2)} MB; ${uploaders} uploaders; autocannon 10 connections ${seconds} s on ${LISTINGS}${uncached ? " (past the guest cache)" : ""}; ${os.availableParallelism()} CPUs, database ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}, malloc ${malloc}`);

  // Warm up: one upload (sharp, JIT) and a short run of the listings API.
  const one = async () => {
    const res = await fetch(`${base}/api/v2/photos/`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: ready.cookie, 'X-CSRFToken': ready.csrf }, body });
    await res.arrayBuffer();
    return res.status;
  };
  if ((await one()) !== 201) throw new Error('warm-up upload failed');
  await autocannon({ url: `${base}${LISTINGS}`, connections: 10, duration: 2 });

  const peaks = () =>
    new Promise<MemoryPeaks>((resolve) => {
      child.once('message', (m) => resolve(m as MemoryPeaks));
      child.send('peaks');
    });
  // RSS from /proc every 20 ms: its peak since the last reset.
  let sampled = 0;
  const sampler = setInterval(() => (sampled = Math.max(sampled, rssOf(pid).rss)), 20);
  const reset = () => {
    child.send('reset');
    sampled = rssOf(pid).rss;
  };

  const before = rssOf(pid);
  reset();
  const idle = await cannon();
  const idleSeen = await peaks();
  const idlePeak = sampled;

  reset();
  let running = true;
  const statuses: number[] = [];
  const workers = Array.from({ length: uploaders }, async () => {
    while (running) statuses.push(await one());
  });
  // BENCH_UPLOADS_ONLY=1: the uploads alone for as long, no listings requests beside them.
  const loaded = uploadsOnly ? await new Promise<null>((resolve) => setTimeout(() => resolve(null), seconds * 1000)) : await cannon();
  running = false;
  await Promise.all(workers);
  clearInterval(sampler);
  const peak = sampled;
  const after = rssOf(pid);
  const seen = await peaks();

  const ok = statuses.filter((s) => s === 201).length;
  const line = (name: string, r: autocannon.Result) =>
    console.log(`${name.padEnd(14)} ${String(r.requests.total).padStart(6)} req  ${r.requests.average.toFixed(0).padStart(5)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  errors ${r.errors + r.non2xx}`);
  line('idle', idle);
  if (loaded) {
    line('under upload', loaded);
    console.log(`p99 ratio under upload / idle: ${(loaded.latency.p99 / Math.max(1, idle.latency.p99)).toFixed(2)}x`);
  }
  console.log(`uploads answered: ${statuses.length} (${ok} x 201${statuses.length > ok ? `, others: ${[...new Set(statuses.filter((s) => s !== 201))].join(', ')}` : ''})`);
  const rise = (m: MemoryPeaks, name: keyof Memory) => `${m.idle[name].toFixed(0)} -> ${m.peak[name].toFixed(0)}`;
  const own = (m: MemoryPeaks) => `V8 heap used ${rise(m, 'heapUsed')} MB (total ${rise(m, 'heapTotal')}), external ${rise(m, 'external')} MB, of which Buffers ${rise(m, 'arrayBuffers')} MB`;
  console.log(`server RSS: ${before.rss.toFixed(0)} MB before, peak ${idlePeak.toFixed(0)} MB in the idle run; peak ${peak.toFixed(0)} MB under upload, ${after.rss.toFixed(0)} MB after, high-water ${after.hwm.toFixed(0)} MB`);
  console.log(`server's own view, start -> peak: idle run ${own(idleSeen)}; upload run ${own(seen)}`);
  console.log(`peak RSS over idle: +${(peak - before.rss).toFixed(0)} MB`);
  child.disconnect();
}

/**
 * A 48-megapixel JPEG (8000x6000), what a phone or camera sends, of just under `maxBytes`: a
 * colour plus gaussian noise, whose strength sets the size (searched for, as noise is random).
 */
async function benchPhoto(maxBytes: number): Promise<Buffer> {
  const encode = (sigma: number) =>
    sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#6a8caf', noise: { type: 'gaussian', mean: 128, sigma } } }).jpeg({ quality: 70 }).toBuffer();
  const target = maxBytes * 0.97;
  let best = await encode(6);
  // The size grows about linearly with sigma: a few secant steps land within 3% under the limit.
  let [s0, b0, s1] = [6, best.length, 13 * (target / (5.6 * 1048576))];
  for (let i = 0; i < 8; i++) {
    const out = await encode(s1);
    if (out.length <= maxBytes && out.length > best.length) best = out;
    if (out.length <= maxBytes && out.length >= target) break;
    const next = s1 + ((target - out.length) * (s1 - s0)) / (out.length - b0 || 1);
    [s0, b0, s1] = [s1, out.length, Math.max(0.5, next)];
  }
  return best;
}

if (process.argv.includes('--serve')) {
  serve().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
