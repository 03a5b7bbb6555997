// Live co-editing's figures (issue 42), on PostgreSQL with two server processes on one database,
// as a deployment runs them behind its balancer. Each server is this script in a child process
// (BENCH_LIVE_ROLE=server: the real startServer, production mode, node --expose-gc), which
// answers its own heap, RSS and CPU time (process.memoryUsage, process.cpuUsage) over IPC. The
// editors are Hocuspocus providers in this process (server/apps/co-editing/test-live-client.ts),
// each with its own websocket, signed in as the newsroom's administrator.
//
// - keystroke to remote paint: an editor on process A inserts one character into a 1,000-word
//   story; the time until an editor on process B has it (its Y.Doc integrates the update: what
//   the editor's binding paints from). BENCH_KEYS (500) keystrokes at BENCH_KEY_RATE (10) a
//   second, open loop; then the same with both editors on process A;
// - memory per open document: process A's heap and RSS (after a full GC) before and after
//   BENCH_DOCS (50) stories, each with a 1,000-word body, are opened by one editor each;
// - BENCH_EDITORS (20) editors in one story (half on each process), each typing into its own
//   paragraph at ~5 keys a second for BENCH_TYPING_S (30) seconds: the remote latency (every
//   keystroke as seen by each of the 19 others), both servers' CPU over the typing, and whether
//   all the documents converge (same body, every key typed) afterwards.
//
//   npm run bench:live
//   BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test BENCH_KEYS=200 npm run bench:live
//
// A scratch database `bench_live_<pid>` is made on BENCH_DATABASE_URL's server and dropped at
// the end. The load average is printed with each figure: the editors, both servers and
// PostgreSQL share this machine's cores.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { z } from 'zod';
import { LIVE_BODY_FIELD, LIVE_EDITING } from '../../shared/newsroom';
import { bodyText, connectLive, type LiveClient } from '../../server/apps/co-editing/test-live-client';
import { freePortOutsideEphemeral } from '../../server/testing/free-port';
import { startServer } from '../../server/index';
import { loadAverage, ROOT, table } from './measure';
import { longStoryDoc, percentile, scratchDatabase, seedDatabase, seedNewsroom, staffClient, type StaffClient } from './newsroom-bench';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const KEYS = Number(process.env.BENCH_KEYS ?? 500);
const KEY_RATE = Number(process.env.BENCH_KEY_RATE ?? 10);
const DOCS = Number(process.env.BENCH_DOCS ?? 50);
const WORDS = Number(process.env.BENCH_WORDS ?? 1000);
const EDITORS = Number(process.env.BENCH_EDITORS ?? 20);
const TYPING_S = Number(process.env.BENCH_TYPING_S ?? 30);
const EDITOR_KEY_RATE = 5;

// ---- the server side: one child process per server ----

/** Heap and RSS now, CPU time so far, and the event loop's delay (ms) since the previous report. */
const Usage = z.object({ heapUsed: z.number(), rss: z.number(), cpuUs: z.number(), loopP99: z.number(), loopMax: z.number() });
type Usage = z.infer<typeof Usage>;
const Reply = z.discriminatedUnion('type', [z.object({ type: z.literal('ready') }), z.object({ type: z.literal('usage'), usage: Usage })]);

async function serve(): Promise<void> {
  const { stop } = await startServer();
  const gc = (globalThis as { gc?: () => void }).gc;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (m: { type: string }) => {
    if (m.type === 'usage') {
      // Twice: what the first frees (weak references, finalizers) is collected by the second.
      gc?.();
      gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      const { user, system } = process.cpuUsage();
      process.send!({ type: 'usage', usage: { heapUsed, rss, cpuUs: user + system, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 } });
      loop.reset();
    }
    if (m.type === 'stop') void stop().then(() => process.exit(0));
  });
  process.send!({ type: 'ready' });
}

interface BenchServer {
  name: string;
  base: string;
  wsUrl: string;
  child: ChildProcess;
  usage(): Promise<Usage>;
  stop(): Promise<void>;
}

async function startBenchServer(name: string, port: number, env: Record<string, string>): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', __filename], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_OPTIONS: '', BENCH_LIVE_ROLE: 'server', NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SLOW_QUERY_MS: '500', RATE_LIMITS: 'false', DATA_DIR: `/tmp/guide-bench-live-${port}` },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: Array<(r: z.infer<typeof Reply>) => void> = [];
  child.on('message', (m) => replies.shift()?.(Reply.parse(m)));
  const next = () => new Promise<z.infer<typeof Reply>>((resolve) => replies.push(resolve));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`server ${name} exited with ${code}`))));
  exited.catch(() => undefined);
  await Promise.race([next(), exited]);
  const base = `http://127.0.0.1:${port}`;
  return {
    name,
    base,
    wsUrl: `ws://127.0.0.1:${port}${LIVE_EDITING.path}`,
    child,
    async usage() {
      const reply = next();
      child.send({ type: 'usage' });
      const r = await Promise.race([reply, exited]);
      if (r.type !== 'usage') throw new Error(`server ${name} answered ${r.type}`);
      return r.usage;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

// ---- the editors ----

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => boolean, ms: number): Promise<number> {
  const t0 = performance.now();
  while (!done()) {
    if (performance.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
  return performance.now() - t0;
}

/**
 * Remote latency: each keystroke an editor makes is noted with the editor's clock after it; a
 * receiving document has it once its state for that editor reaches that clock (checked on each
 * update it integrates). Every (keystroke, receiver) pair is one sample.
 */
function arrivals(docs: Y.Doc[], serverOf: (doc: Y.Doc) => string = () => '') {
  const sent = new Map<number, Array<{ clock: number; t0: number }>>();
  const samples: number[] = [];
  /** The samples split by whether sender and receiver are on the same server. */
  const same: number[] = [];
  const cross: number[] = [];
  const serverOfClient = new Map(docs.map((d) => [d.clientID, serverOf(d)]));
  for (const receiver of docs) {
    const seen = new Map<number, number>();
    receiver.on('update', (update: Uint8Array) => {
      const now = performance.now();
      for (const client of Y.parseUpdateMeta(update).to.keys()) {
        if (client === receiver.clientID) continue;
        const keys = sent.get(client);
        if (!keys) continue;
        const state = Y.getState(receiver.store, client);
        let i = seen.get(client) ?? 0;
        const split = serverOfClient.get(client) === serverOfClient.get(receiver.clientID) ? same : cross;
        for (; i < keys.length && keys[i].clock <= state; i++) {
          samples.push(now - keys[i].t0);
          split.push(now - keys[i].t0);
        }
        seen.set(client, i);
      }
    });
  }
  return {
    samples,
    same,
    cross,
    /** One character typed at the end of `text` (its editor's document). */
    type(doc: Y.Doc, text: Y.XmlText, ch: string) {
      const t0 = performance.now();
      text.insert(text.length, ch);
      const keys = sent.get(doc.clientID) ?? [];
      keys.push({ clock: Y.getState(doc.store, doc.clientID), t0 });
      sent.set(doc.clientID, keys);
    },
  };
}

/** A new paragraph at the end of the body, its text for the editor to type into. */
function ownParagraph(doc: Y.Doc, text: string): Y.XmlText {
  const p = new Y.XmlElement('paragraph');
  const t = new Y.XmlText(text);
  p.insert(0, [t]);
  const body = doc.getXmlFragment(LIVE_BODY_FIELD);
  body.insert(body.length, [p]);
  return t;
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kb = (bytes: number) => (bytes / 1024).toFixed(0);

async function main(): Promise<void> {
  const started = Date.now();
  const loads: string[] = [];
  const loadTimer = setInterval(() => loads.push(loadAverage()), 5_000);
  const target = await scratchDatabase('bench_live', DATABASE_URL);
  const servers: BenchServer[] = [];
  const clients: LiveClient[] = [];
  const connect = (s: BenchServer, storyId: number, cookie: string, origin: string) => {
    const c = connectLive(s.wsUrl, storyId, { cookie, origin });
    clients.push(c);
    return c;
  };
  const closeAll = (cs: LiveClient[]) => {
    for (const c of cs) {
      c.destroy();
      clients.splice(clients.indexOf(c), 1);
    }
  };
  try {
    const typeId = await seedDatabase(target, (db) => seedNewsroom(db));
    // One session secret (a cookie from one process is read by the other); A's origin trusted by both.
    const [aPort, bPort] = [await freePortOutsideEphemeral(), await freePortOutsideEphemeral()];
    const shared = { DATABASE_URL: target.databaseUrl!, SESSION_SECRET: crypto.randomBytes(48).toString('base64url'), CSRF_TRUSTED_ORIGINS: `http://127.0.0.1:${aPort}` };
    const [a, b] = await Promise.all([startBenchServer('A', aPort, shared), startBenchServer('B', bPort, shared)]);
    servers.push(a, b);
    const origin = new URL(a.base).origin;
    const admin: StaffClient = await staffClient(a.base);
    const newStory = async (name: string, words: number) =>
      (await admin.call<{ id: number }>('POST', 'stories/', { fields: { name, type_id: typeId, doc: longStoryDoc(words).doc, excerpt: 'A dek.' } })).id;
    console.log(`database: ${target.label}; servers A ${a.base}, B ${b.base}; load ${loadAverage()}`);
    const rows: string[][] = [];

    // Memory per open document, on A (the first thing A does with live editing).
    const storyIds: number[] = [];
    for (let i = 0; i < DOCS; i++) storyIds.push(await newStory(`Memory story ${i + 1}`, WORDS));
    const before = await a.usage();
    const opened = storyIds.map((id) => connect(a, id, admin.cookie, origin));
    await until(`${DOCS} documents synced`, () => opened.every((c) => c.synced), 120_000);
    await sleep(1_000); // the loads' own writes settled
    const after = await a.usage();
    const memLoad = loadAverage();
    rows.push([
      `memory per open document (${DOCS} stories of ${WORDS} words, one editor each, server A after GC)`,
      `heap ${kb((after.heapUsed - before.heapUsed) / DOCS)} KB, RSS ${kb((after.rss - before.rss) / DOCS)} KB`,
      `heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB, RSS ${mb(before.rss)} → ${mb(after.rss)} MB`,
      memLoad,
    ]);
    closeAll(opened);

    // Keystroke to remote paint: across processes, then within one.
    for (const [label, receiverServer] of [
      ['A → B (two processes, via PostgreSQL NOTIFY)', b],
      ['A → A (one process)', a],
    ] as const) {
      const storyId = await newStory(`Latency ${label}`, WORDS);
      const typist = connect(a, storyId, admin.cookie, origin);
      const reader = connect(receiverServer, storyId, admin.cookie, origin);
      await until('both synced', () => typist.synced && reader.synced, 30_000);
      const text = ownParagraph(typist.doc, 'Typed: ');
      await until('the paragraph reached the reader', () => bodyText(reader.doc).length === bodyText(typist.doc).length, 30_000);
      const track = arrivals([reader.doc]);
      const t0 = performance.now();
      for (let k = 0; k < KEYS; k++) {
        // Open loop: each key at its time, whether the last one arrived or not.
        const due = t0 + (k * 1000) / KEY_RATE;
        await sleep(Math.max(0, due - performance.now()));
        track.type(typist.doc, text, 'abcdefghijklmnopqrstuvwxyz '[k % 27]);
      }
      await until('every key arrived', () => track.samples.length === KEYS, 30_000).catch(() => undefined);
      rows.push([
        `keystroke to remote paint, ${label}, ${KEYS} keys at ${KEY_RATE}/s`,
        `p50 ${ms(percentile(track.samples, 50))} ms, p99 ${ms(percentile(track.samples, 99))} ms`,
        `max ${ms(Math.max(...track.samples))} ms, ${track.samples.length}/${KEYS} arrived`,
        loadAverage(),
      ]);
      closeAll([typist, reader]);
    }

    // EDITORS editors in one story, half on each process.
    const storyId = await newStory('Twenty editors', WORDS);
    const editors = Array.from({ length: EDITORS }, (_, i) => connect(i % 2 ? b : a, storyId, admin.cookie, origin));
    await until('all editors synced', () => editors.every((c) => c.synced), 60_000);
    const texts = editors.map((c, i) => ownParagraph(c.doc, `Editor ${i + 1}: `));
    await until('every editor sees every paragraph', () => editors.every((c) => bodyText(c.doc).length === bodyText(editors[0].doc).length && bodyText(c.doc).length >= texts.length), 60_000);
    const track = arrivals(
      editors.map((c) => c.doc),
      (d) => (editors.findIndex((c) => c.doc === d) % 2 ? 'B' : 'A'),
    );
    const typed = editors.map(() => 0);
    const [cpuA0, cpuB0] = [(await a.usage()).cpuUs, (await b.usage()).cpuUs];
    const ownCpu0 = process.cpuUsage();
    const tStart = performance.now();
    await Promise.all(
      editors.map(async (c, i) => {
        await sleep(Math.random() * 200);
        while (performance.now() - tStart < TYPING_S * 1000) {
          track.type(c.doc, texts[i], 'abcdefghijklmnopqrstuvwxyz '[typed[i] % 27]);
          typed[i] += 1;
          // ~5 keys a second, not in lockstep with the others.
          await sleep(1000 / EDITOR_KEY_RATE / 2 + (Math.random() * 1000) / EDITOR_KEY_RATE);
        }
      }),
    );
    const wall = performance.now() - tStart;
    const [usageA, usageB] = [await a.usage(), await b.usage()];
    const [cpuA1, cpuB1] = [usageA.cpuUs, usageB.cpuUs];
    const ownCpu = process.cpuUsage(ownCpu0);
    const typingLoad = loadAverage();
    const keys = typed.reduce((x, y) => x + y, 0);
    const complete = (c: LiveClient) => {
      const body = bodyText(c.doc);
      return texts.every((_, i) => body.some((p) => p.startsWith(`Editor ${i + 1}: `) && p.length === `Editor ${i + 1}: `.length + typed[i]));
    };
    const converged = await until('all editors converged', () => editors.every(complete) && editors.every((c) => JSON.stringify(bodyText(c.doc)) === JSON.stringify(bodyText(editors[0].doc))), 60_000).then(
      (t) => `yes, ${(t / 1000).toFixed(1)} s after the typing ended`,
      () => `NO: ${editors.filter(complete).length}/${EDITORS} complete after 60 s`,
    );
    const pct = (us: number) => `${((us / 1000 / wall) * 100).toFixed(0)}%`;
    rows.push([
      `${EDITORS} editors in one story (${EDITORS / 2} on A, ${EDITORS / 2} on B), ~${EDITOR_KEY_RATE} keys/s each for ${TYPING_S} s: remote latency`,
      `p50 ${ms(percentile(track.samples, 50))} ms, p99 ${ms(percentile(track.samples, 99))} ms`,
      `${keys} keys, ${track.samples.length} arrivals (of ${keys * (EDITORS - 1)}), max ${ms(Math.max(...track.samples))} ms`,
      typingLoad,
    ]);
    rows.push([`  of which editor and reader on the same server`, `p50 ${ms(percentile(track.same, 50))} ms, p99 ${ms(percentile(track.same, 99))} ms`, `${track.same.length} arrivals`, typingLoad]);
    rows.push([`  of which on different servers`, `p50 ${ms(percentile(track.cross, 50))} ms, p99 ${ms(percentile(track.cross, 99))} ms`, `${track.cross.length} arrivals`, typingLoad]);
    rows.push([`  server CPU over the typing (one core = 100%)`, `A ${pct(cpuA1 - cpuA0)}, B ${pct(cpuB1 - cpuB0)}`, `the ${EDITORS} editors (this process): ${pct(ownCpu.user + ownCpu.system)}`, typingLoad]);
    rows.push([`  server event loop delay over the typing`, `p99 A ${ms(usageA.loopP99)} ms, B ${ms(usageB.loopP99)} ms`, `max A ${ms(usageA.loopMax)} ms, B ${ms(usageB.loopMax)} ms`, typingLoad]);
    rows.push([`  all documents converge`, converged, '', loadAverage()]);
    closeAll(editors);

    console.log(`\n${table(['figure', 'result', 'detail', 'load average'], rows)}`);
    console.log(`\nload average every 5 s: ${loads.map((l) => l.split(' ')[0]).join(', ')}`);
    console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    clearInterval(loadTimer);
    closeAll([...clients]);
    await Promise.all(servers.map((s) => s.stop()));
    await target.drop();
  }
}

if (process.env.BENCH_LIVE_ROLE === 'server') {
  void serve();
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
