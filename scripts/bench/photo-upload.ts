// Time and memory to accept a 6 MB JPEG through POST /api/v2/photos/ (base64 JSON, as the
// uploader sends it): the whole path of JSON parsing, decoding, EXIF stripping, storing and
// renditions. Runs the real app on port 3330 (BENCH_PORT) with a DATA_DIR under /tmp, on an
// in-memory PGlite (or DATABASE_URL). Peak RSS is sampled every 2 ms during each request.
//
//   node --expose-gc --import tsx scripts/bench/photo-upload.ts [runs=5] [megabytes=6]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Server } from 'node:http';
import { sign } from 'cookie-signature';
import { loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { openDatabase } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../../server/apps/accounts/session';
import { noiseJpeg } from '../../server/apps/media/test-images';
import { buildAppContext, droppedMail } from '../../server/app-context';

const runs = Number(process.argv[2] ?? 5);
const megabytes = Number(process.argv[3] ?? 6);
const port = Number(process.env.BENCH_PORT ?? 3330);
const gc = (globalThis as { gc?: () => void }).gc;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-photo-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
  const handle = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { inMemory: true });
  await migrateLatest(handle.db);
  const ctx = buildAppContext(config, handle, { mailer: droppedMail });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(ctx, { watchManifest: false }).listen(port, '127.0.0.1', () => resolve(s));
  });

  // A member with a session, as memberAgent makes one in the tests.
  const [member] = await handle.db('profiles').insert({ email: `bench-${Date.now()}@example.com`, full_name: 'Bench' }).returning('id');
  const [type] = await handle.db('listing_types').insert({ name: 'Bench type', slug: `bench-${Date.now()}`, position: 1 }).returning('id');
  const [listing] = await handle.db('listings').insert({ name: 'Bench place', slug: 'bench-place', type_id: type.id, address: '1 Yonge St' }).returning('id');
  const sid = crypto.randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + SESSION_IDLE_MS);
  await handle.db('sessions').insert({ sid, sess: JSON.stringify({ cookie: { originalMaxAge: SESSION_IDLE_MS, expires, httpOnly: true, path: '/' }, passport: { user: member.id } }), expired: expires });
  const csrf = crypto.randomBytes(32).toString('base64url');
  const cookie = `${SESSION_COOKIE}=${encodeURIComponent(`s:${sign(sid, config.sessionSecret)}`)}; csrftoken=${csrf}`;

  const jpeg = await noiseJpeg(megabytes * 1024 * 1024 - 20_000);
  const body = JSON.stringify({ image: `data:image/jpeg;base64,${jpeg.toString('base64')}`, title: 'Bench', description: '', listing: listing.id });
  console.log(`JPEG ${(jpeg.length / 1048576).toFixed(2)} MB, request body ${(body.length / 1048576).toFixed(2)} MB, ${runs} runs, database ${handle.kind}`);

  const times: number[] = [];
  const deltas: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v2/photos/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRFToken': csrf },
      body,
    });
    await res.text();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    // The first run warms up sharp and the JIT, and grows the heap and malloc arenas that later
    // runs reuse: it is reported on its own (the cold figure), not counted in the medians.
    if (i === 0) {
      console.log(`cold first upload: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, peak RSS +${((peak - baseline) / 1048576).toFixed(0)} MB`);
      continue;
    }
    times.push(ms);
    cpus.push(cpuMs);
    deltas.push((peak - baseline) / 1048576);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`time ms: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)}, min ${sorted[0].toFixed(0)}, max ${sorted[sorted.length - 1].toFixed(0)}`);
  console.log(`CPU ms (user+system, all threads): median ${[...cpus].sort((a, b) => a - b)[Math.floor(cpus.length / 2)].toFixed(0)}`);
  console.log(`load average: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
  console.log(`peak RSS delta MB: median ${[...deltas].sort((a, b) => a - b)[Math.floor(deltas.length / 2)].toFixed(0)}, max ${Math.max(...deltas).toFixed(0)}`);
  console.log(`RSS after: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);

  await new Promise((resolve) => server.close(resolve));
  await handle.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
