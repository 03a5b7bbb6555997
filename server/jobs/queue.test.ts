import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { DbHandle } from '../db';
import { openTestDatabase } from '../testing/test-db';
import { waitFor } from '../testing/wait-for';
import { loadConfig } from '../config';
import { buildAppContext, droppedMail } from '../app-context';
import { createJobQueue, type JobInfo, type JobPolicy, type JobQueue } from './queue';

// The job queue on this run's database (PGlite by default, PostgreSQL with TEST_DATABASE_URL).
// Each test uses its own queue names; every queue it makes is stopped after it.
let handle: DbHandle;
const queues: JobQueue[] = [];
const others: Knex[] = [];

const queue = (db: Knex = handle.db, names: string[] = [], policy?: JobPolicy): JobQueue => {
  const q = createJobQueue(db, { queues: names.map((name) => ({ name, policy })), pollingIntervalSeconds: 0.5 });
  queues.push(q);
  return q;
};

beforeAll(async () => {
  handle = await openTestDatabase();
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
});

afterAll(async () => {
  await Promise.all(others.map((db) => db.destroy()));
  await handle.close();
});

test('the schema comes from the migrations: the snapshot has pg-boss installed', async () => {
  const { rows } = await handle.db.raw(`SELECT version FROM pgboss.version`);
  expect(rows).toHaveLength(1);
});

test('a job sent with startAfter runs after that time, within a few seconds of it', async () => {
  const q = queue(handle.db, ['later']);
  await q.start();
  let ranAt: number | null = null;
  await q.work('later', async () => {
    ranAt = Date.now();
  });
  const due = new Date(Date.now() + 1500);
  expect(await q.send('later', { n: 1 }, { startAfter: due })).toEqual(expect.any(String));
  await waitFor('the job to run', () => ranAt !== null, 15_000);
  expect(ranAt!).toBeGreaterThanOrEqual(due.getTime());
  expect(ranAt! - due.getTime()).toBeLessThan(3_000);
});

test('two queues working the same queue on one database run each of 20 jobs exactly once', async () => {
  // On PostgreSQL the second queue has its own pool, as another process would; PGlite has one
  // connection for one process, so both share it.
  let db2 = handle.db;
  if (handle.kind === 'postgres') {
    const connection = (handle.db.client.config as Knex.Config).connection;
    db2 = knexFactory({ client: 'pg', connection: connection as Knex.StaticConnectionConfig, pool: { min: 0, max: 3 } });
    others.push(db2);
  }
  const runs = new Map<number, number>();
  const by = { a: 0, b: 0 };
  const handler = (who: 'a' | 'b') => async (data: unknown) => {
    const n = (data as { n: number }).n;
    runs.set(n, (runs.get(n) ?? 0) + 1);
    by[who] += 1;
    await new Promise((resolve) => setImmediate(resolve));
  };
  const a = queue(handle.db, ['once']);
  const b = queue(db2, ['once']);
  await Promise.all([a.start(), b.start()]);
  await a.work('once', handler('a'));
  await b.work('once', handler('b'));
  for (let n = 0; n < 20; n += 1) await (n % 2 ? a : b).send('once', { n });
  await waitFor('20 jobs completed', async () => (await a.counts('once')).completed === 20, 20_000);
  expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  expect([...runs.values()].every((count) => count === 1)).toBe(true);
  expect(by.a + by.b).toBe(20);
});

test('a failing job is retried, with backoff, and then succeeds', async () => {
  const q = queue(handle.db, ['flaky']);
  await q.start();
  const seen: JobInfo[] = [];
  await q.work('flaky', async (_data, job) => {
    seen.push(job);
    if (seen.length < 3) throw new Error(`attempt ${seen.length} fails`);
  });
  const id = await q.send('flaky', {}, { retryDelaySeconds: 1 });
  await waitFor('the third attempt to succeed', async () => (await q.counts('flaky')).completed === 1, 20_000);
  expect(seen.map((j) => j.retryCount)).toEqual([0, 1, 2]);
  expect(seen.every((j) => j.id === id && j.retryLimit === 5)).toBe(true);
});

test('a job failing more than its retryLimit ends failed', async () => {
  const q = queue(handle.db, ['doomed']);
  await q.start();
  let attempts = 0;
  await q.work('doomed', async () => {
    attempts += 1;
    throw new Error('never works');
  });
  await q.send('doomed', {}, { retryLimit: 1, retryDelaySeconds: 1, retryBackoff: false });
  await waitFor('the job to fail for good', async () => (await q.counts('doomed')).failed === 1, 15_000);
  expect(attempts).toBe(2);
});

test('a job sent before any worker started, due while none ran, runs when a worker starts', async () => {
  // Sent by a queue that never starts as a worker (as an HTTP handler or a test does).
  const sender = queue(handle.db);
  const due = new Date(Date.now() + 300);
  expect(await sender.send('late', { hello: 'world' }, { startAfter: due })).toEqual(expect.any(String));
  await waitFor('its time to pass', () => Date.now() > due.getTime() + 200, 5_000);
  expect(await sender.counts('late')).toEqual({ created: 1 });

  const worker = queue(handle.db, ['late']);
  await worker.start();
  const got: unknown[] = [];
  await worker.work('late', async (data) => {
    got.push(data);
  });
  await waitFor('the late job to run', () => got.length === 1, 10_000);
  expect(got).toEqual([{ hello: 'world' }]);
});

test('on a short queue a singletonKey keeps one job waiting per key; a standard queue ignores it', async () => {
  const q = queue(handle.db, ['single'], 'short');
  expect(await q.send('single', {}, { singletonKey: 'story-1' })).toEqual(expect.any(String));
  expect(await q.send('single', {}, { singletonKey: 'story-1' })).toBeNull();
  expect(await q.send('single', {}, { singletonKey: 'story-2' })).toEqual(expect.any(String));
  const plain = queue(handle.db, ['plain']);
  expect(await plain.send('plain', {}, { singletonKey: 'story-1' })).toEqual(expect.any(String));
  expect(await plain.send('plain', {}, { singletonKey: 'story-1' })).toEqual(expect.any(String));
});

test('a job sent in a knex transaction exists only if the transaction commits', async () => {
  const q = queue(handle.db);
  await q.send('in-trx', {}); // creates the queue outside the transactions below
  await handle.db.transaction(async (trx) => {
    await q.send('in-trx', { kept: true }, { trx });
  });
  await handle.db
    .transaction(async (trx) => {
      await q.send('in-trx', { kept: false }, { trx });
      throw new Error('roll back');
    })
    .catch(() => {});
  expect(await q.counts('in-trx')).toEqual({ created: 2 });
});

test('a built context has ctx.jobs; building it takes no connection', async () => {
  const acquire = jest.spyOn(handle.db.client, 'acquireConnection');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-test-'));
  try {
    const ctx = buildAppContext(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), handle, { mailer: droppedMail });
    queues.push(ctx.jobs);
    expect(acquire).not.toHaveBeenCalled();
    expect(await ctx.jobs.send('from-ctx', { ok: 1 })).toEqual(expect.any(String));
    expect(acquire).toHaveBeenCalled();
  } finally {
    acquire.mockRestore();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
