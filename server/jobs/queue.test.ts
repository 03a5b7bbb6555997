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

// The embedded database polls every EMBEDDED_POLLING_SECONDS: what this process sends must not
// wait for the next poll. Here a poll every 30 s, and the waits well under it.
describe('a send wakes its worker in this process', () => {
  const slowQueue = (name: string) => {
    const q = createJobQueue(handle.db, { queues: [{ name }], pollingIntervalSeconds: 30 });
    queues.push(q);
    return q;
  };

  test('a job due now runs at once, not at the next poll', async () => {
    const q = slowQueue('woken');
    await q.start();
    const ran: number[] = [];
    await q.work('woken', async (data) => void ran.push((data as { n: number }).n));
    // The first job may be found by the worker's first poll; once it is completed the worker
    // has polled again (at once after a job), found nothing and waits 30 s.
    await q.send('woken', { n: 1 });
    await waitFor('the first job to complete', async () => (await q.counts('woken')).completed === 1, 15_000, { everyMs: 100 });
    const sentAt = Date.now();
    await q.send('woken', { n: 2 });
    await waitFor('the second job to run', () => ran.includes(2), 10_000);
    expect(Date.now() - sentAt).toBeLessThan(10_000);
  });

  test('a job sent with startAfter in the next hour runs at its time, not at the next poll', async () => {
    const q = slowQueue('woken-later');
    await q.start();
    let ranAt: number | null = null;
    await q.work('woken-later', async () => {
      ranAt = Date.now();
    });
    const due = new Date(Date.now() + 1500);
    await q.send('woken-later', {}, { startAfter: due });
    await waitFor('the job to run', () => ranAt !== null, 15_000);
    expect(ranAt!).toBeGreaterThanOrEqual(due.getTime());
    expect(ranAt! - due.getTime()).toBeLessThan(5_000);
  });
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

test('a queue with a cron line is scheduled by the worker and sent its job; one without loses its old schedule', async () => {
  const withCron = createJobQueue(handle.db, { queues: [{ name: 'every-minute', policy: 'stately', cron: '* * * * *' }], pollingIntervalSeconds: 0.5 });
  queues.push(withCron);
  await withCron.start();
  let runs = 0;
  await withCron.work('every-minute', async () => {
    runs += 1;
  });
  const { rows } = await handle.db.raw(`SELECT name, cron, timezone FROM pgboss.schedule WHERE name = 'every-minute'`);
  expect(rows).toEqual([{ name: 'every-minute', cron: '* * * * *', timezone: 'America/Toronto' }]);
  // pg-boss checks the schedules at start and sends the due minute's job through its own queue.
  await waitFor('the scheduled job to run', () => runs > 0, 60_000);
  await withCron.stop();

  const without = queue(handle.db, ['every-minute'], 'stately');
  await without.start();
  const after = await handle.db.raw(`SELECT name FROM pgboss.schedule WHERE name = 'every-minute'`);
  expect(after.rows).toEqual([]);
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

describe("the operator's view: overview, list and retry (the administrators' /staff/jobs/)", () => {
  test('the overview counts each queue’s queued, scheduled, running, failed and late jobs, and list names them', async () => {
    const q = queue(handle.db, ['desk-work']);
    await q.start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await q.work('desk-work', async (data) => {
      const d = data as { fail?: boolean; hold?: boolean };
      if (d.fail) throw new Error('boom <b>');
      if (d.hold) await held;
    });
    try {
      const failedId = await q.send('desk-work', { fail: true }, { retryLimit: 0 });
      await waitFor('the job to fail', async () => (await q.counts('desk-work')).failed === 1, 15_000);
      const heldId = await q.send('desk-work', { hold: true });
      await waitFor('the held job to run', async () => (await q.counts('desk-work')).active === 1, 15_000);
      // Nobody works desk-wait: one job due two minutes ago (late), one due in an hour (scheduled).
      const sender = queue(handle.db);
      const lateId = await sender.send('desk-wait', { n: 1 }, { startAfter: new Date(Date.now() - 120_000) });
      await sender.send('desk-wait', { n: 2 }, { startAfter: new Date(Date.now() + 3_600_000) });

      const byName = async () => Object.fromEntries((await sender.overview()).map(({ name, ...figures }) => [name, figures]));
      const figures = await byName();
      expect(figures['desk-work']).toEqual({ queued: 0, scheduled: 0, running: 1, failed: 1, late: 0 });
      expect(figures['desk-wait']).toEqual({ queued: 2, scheduled: 1, running: 0, failed: 0, late: 1 });

      const failed = await sender.list({ state: 'failed', name: 'desk-work' });
      expect(failed).toEqual([expect.objectContaining({ id: failedId, name: 'desk-work', state: 'failed', data: { fail: true }, retryCount: 0, retryLimit: 0 })]);
      expect(failed[0].output).toMatchObject({ message: 'boom <b>', stack: expect.stringContaining('Error: boom') });
      expect(failed[0].completedOn).toBeInstanceOf(Date);
      expect(failed[0].createdOn.getTime()).toBeGreaterThan(Date.now() - 60_000);
      const running = await sender.list({ state: 'active' });
      expect(running.filter((j) => j.name === 'desk-work').map((j) => j.id)).toEqual([heldId]);
      expect(running.find((j) => j.id === heldId)!.startedOn).toBeInstanceOf(Date);
      const late = await sender.list({ state: 'late', name: 'desk-wait' });
      expect(late.map((j) => j.id)).toEqual([lateId]);
      expect(late[0].overdueSeconds).toBeGreaterThanOrEqual(110);
      expect(late[0].overdueSeconds).toBeLessThan(300);

      // A job active past its expiry (its worker died) is late too.
      await handle.db.raw(`UPDATE pgboss.job SET started_on = now() - interval '1 hour' WHERE id = ?`, [heldId]);
      expect((await byName())['desk-work']).toEqual({ queued: 0, scheduled: 0, running: 1, failed: 1, late: 1 });
      const lateRunning = await sender.list({ state: 'late', name: 'desk-work' });
      expect(lateRunning).toEqual([expect.objectContaining({ id: heldId, state: 'active', expireInSeconds: 15 * 60 })]);
      expect(lateRunning[0].overdueSeconds).toBeGreaterThan(40 * 60);
      expect(await sender.list({ state: 'failed', name: 'desk-work', limit: 0 })).toHaveLength(1); // at least one
    } finally {
      release();
    }
  });

  test('retry puts a failed job back to run: a worker runs it again; a job not failed, or in a rolled-back transaction, stays as it is', async () => {
    const sender = queue(handle.db);
    let attempts = 0;
    const id = (await sender.send('desk-retry', { n: 1 }, { retryLimit: 0 }))!;
    // Failed as a worker would fail it, with no worker yet: an old failure is not late once retried.
    await handle.db.raw(`UPDATE pgboss.job SET state = 'failed', started_on = now() - interval '2 hours', start_after = now() - interval '2 hours', completed_on = now() - interval '2 hours', output = '{"message":"old"}' WHERE id = ?`, [id]);
    await handle.db
      .transaction(async (trx) => {
        expect(await sender.retry('desk-retry', id, { trx })).toBe(1);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await sender.counts('desk-retry')).toEqual({ failed: 1 });

    expect(await sender.retry('desk-retry', id)).toBe(1);
    expect(await sender.counts('desk-retry')).toEqual({ retry: 1 });
    expect(await sender.retry('desk-retry', id)).toBe(0); // no longer failed
    expect(await sender.retry('desk-retry', '00000000-0000-4000-8000-000000000000')).toBe(0);
    expect(await sender.retry('desk-retry', [])).toBe(0);
    const figures = (await sender.overview()).find((o) => o.name === 'desk-retry');
    expect(figures).toEqual({ name: 'desk-retry', queued: 1, scheduled: 0, running: 0, failed: 0, late: 0 });

    const worker = queue(handle.db, ['desk-retry']);
    await worker.start();
    const seen: JobInfo[] = [];
    await worker.work('desk-retry', async (_data, job) => {
      attempts += 1;
      seen.push(job);
    });
    await waitFor('the retried job to complete', async () => (await worker.counts('desk-retry')).completed === 1, 15_000);
    expect(attempts).toBe(1);
    expect(seen).toEqual([{ id, name: 'desk-retry', retryCount: 1, retryLimit: 1 }]);
  });
});
