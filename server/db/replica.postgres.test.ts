import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import pg from 'pg';
import request from 'supertest';
import { loadConfig } from '../config';
import { createApp } from '../app';
import { buildAppContext, droppedMail } from '../app-context';
import type { AppContext } from '../context';
import { createLocalStorage } from '../storage/storage';
import { createListing } from '../testing/fixtures';
import { createMember, memberAgent } from '../testing/test-app';
import { waitFor } from '../testing/wait-for';
import { scratchClusterUnavailable, startReplicatedClusters } from '../testing/postgres-cluster';
import { openDatabase, type DbHandle } from './index';
import { migrateLatest } from './migrate';
import { READ_YOUR_WRITES_COOKIE } from './read-your-writes';

// DATABASE_REPLICA_URL against a real primary and hot standby of the test's own (initdb and
// pg_basebackup -R as the postgres user, on free ports; removed afterwards, also on failure).
// Which server answered is proved by what only one of them has: with the standby's replay
// paused, a row written on the primary is on the primary only.

jest.setTimeout(240_000);

/** The lag bound here: long enough that the steps checked under a paused replica finish well inside it. */
const MAX_LAG_MS = 8_000;
const CHECK_MS = 100;
const WAIT_MS = 60_000;

const unavailable = scratchClusterUnavailable();

function describeWithClusters(name: string, fn: () => void): void {
  if (!unavailable) return describe(name, fn);
  describe(name, () => {
    test.skip(`SKIPPED: cannot make PostgreSQL clusters of its own: ${unavailable}`, () => {});
  });
  console.warn(`replica test SKIPPED: ${unavailable}`);
}

const quiet = { warn() {}, error() {}, debug() {} };

describeWithClusters('reads from a streaming replica (DATABASE_REPLICA_URL)', () => {
  let clusters: Awaited<ReturnType<typeof startReplicatedClusters>> | undefined;
  let handle: DbHandle | undefined;
  let ctx: AppContext;
  let app: Express;
  let tmpDir: string;

  const replica = () => handle!.replica!;
  const caughtUp = () =>
    waitFor('the replica to replay all the primary has', async () => {
      const s = await replica().check();
      return s.state === 'streaming' && s.lagBytes === 0;
    }, WAIT_MS);
  const favouriteCount = async (agent: { get(url: string): request.Test }, id: number) => {
    const res = await agent.get(`/api/v2/listings/${id}/`);
    expect(res.status).toBe(200);
    return res.body.favourite_count as number;
  };
  const healthz = async () => {
    const res = await request(app).get('/healthz');
    return { status: res.status, body: res.body as { status: string; replica: { state: string; lag_seconds: number | null; lag_bytes: number | null } } };
  };

  beforeAll(async () => {
    clusters = await startReplicatedClusters();
    await clusters.primary.createDatabase('guide');
    const primaryUrl = clusters.primary.url('guide');
    const replicaUrl = clusters.standby.url('guide');
    handle = await openDatabase({ databaseUrl: primaryUrl, replicaUrl, replicaMaxLagMs: MAX_LAG_MS, replicaCheckMs: CHECK_MS, poolMax: 5, logger: quiet });
    await migrateLatest(handle.db);
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-replica-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: tmpDir,
      RATE_LIMITS: 'false',
      DATABASE_URL: primaryUrl,
      DATABASE_REPLICA_URL: replicaUrl,
      DATABASE_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_MS / 1000),
    });
    ctx = buildAppContext(config, handle, { mailer: droppedMail, storage: createLocalStorage(path.join(tmpDir, 'media')) });
    app = createApp(ctx, { watchManifest: false });
    await caughtUp();
  });

  afterAll(async () => {
    await clusters?.standby.resumeReplay().catch(() => {});
    await handle?.close();
    await clusters?.dispose();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  test('public reads are answered by the replica; writes and transactions by the primary', async () => {
    const inRecovery = async (db: { raw: AppContext['db']['raw'] }) => (await db.raw('select pg_is_in_recovery() as r')).rows[0].r as boolean;
    expect(await inRecovery(ctx.dbRead)).toBe(true);
    expect(await inRecovery(ctx.db)).toBe(false);
    expect(await ctx.dbRead.transaction((trx) => inRecovery(trx))).toBe(false);
    // A write sent to the reader by mistake is refused by the replica and made on the primary;
    // the replica stays in use.
    const [written] = await ctx.dbRead('listing_types').insert({ name: 'Sent to the reader', slug: 'sent-to-the-reader', position: 99 }).returning('id');
    expect(await ctx.db('listing_types').where({ id: written.id }).first('slug')).toEqual({ slug: 'sent-to-the-reader' });
    expect(replica().status().state).toBe('streaming');

    await clusters!.standby.pauseReplay();
    try {
      const id = await createListing(ctx.db, { name: 'Only on the primary' });
      // The replica does not have it yet: the public API's 404 is the replica's answer, and
      // the search page, like the search API, does not find it.
      expect((await request(app).get(`/api/v2/listings/${id}/`)).status).toBe(404);
      for (const path of ['/search/?q=only+on+the+primary', '/api/search/?q=only+on+the+primary']) {
        const res = await request(app).get(path);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('Only on the primary');
      }
      expect(replica().status().state).toBe('streaming');
      await clusters!.standby.resumeReplay();
      await caughtUp();
      expect((await request(app).get(`/api/v2/listings/${id}/`)).status).toBe(200);
      // Another query (the first one's answer is kept for a few seconds): found now.
      for (const path of ['/search/?q=primary+only+on+the', '/api/search/?q=primary+only+on+the']) expect((await request(app).get(path)).text).toContain('Only on the primary');
    } finally {
      await clusters!.standby.resumeReplay();
    }
  });

  test('read-your-writes: a member who just saved a favourite reads it back while the replica lags, and the replica again once it has replayed it', async () => {
    const id = await createListing(ctx.db, { name: 'Favourite place' });
    const other = await createListing(ctx.db, { name: 'Renamed place' });
    const agent = await memberAgent({ app, ctx }, await createMember(ctx));
    await caughtUp();
    await clusters!.standby.pauseReplay();
    try {
      const saved = await agent.post('/api/v2/favourites/').set('X-CSRFToken', agent.csrfToken).send({ listing: id });
      expect(saved.status).toBe(201);
      const savedAt = Date.now();
      expect(String(saved.headers['set-cookie'])).toContain(`${READ_YOUR_WRITES_COOKIE}=`);

      // The member, carrying the marker, reads from the primary; a guest, from the replica,
      // which has not replayed the favourite: without the marker it would have vanished.
      expect(await favouriteCount(agent, id)).toBe(1);
      expect(await favouriteCount(request(app), id)).toBe(0);
      expect(replica().status().state).toBe('streaming');

      await clusters!.standby.resumeReplay();
      await caughtUp();
      // The replica has the favourite: the member's reads go to it again, marker or not. A
      // change written on the primary while replay is paused once more shows which answered.
      await clusters!.standby.pauseReplay();
      await ctx.db('listings').where({ id: other }).update({ favourite_count: 41 });
      expect(await favouriteCount(agent, other)).toBe(0);
      expect(await favouriteCount(agent, id)).toBe(1);
      expect(Date.now() - savedAt).toBeLessThan(MAX_LAG_MS); // the marker had not expired: the replay position let it go
    } finally {
      await clusters!.standby.resumeReplay();
    }
  });

  test('a replica lagging past the bound is not read, and /healthz reports the lag', async () => {
    // The answer that saw the replica caught up is the one checked: the primary may write a few
    // bytes of its own (autovacuum) between two answers.
    let ok: Awaited<ReturnType<typeof healthz>> | undefined;
    await waitFor('/healthz to see the replica caught up', async () => {
      const h = await healthz();
      if (h.body.replica?.state === 'streaming' && h.body.replica.lag_bytes === 0) ok = h;
      return ok !== undefined;
    }, WAIT_MS);
    expect(ok).toEqual({ status: 200, body: { status: 'ok', database: 'ok', replica: { state: 'streaming', lag_seconds: 0, lag_bytes: 0, max_lag_seconds: MAX_LAG_MS / 1000 } } });

    await clusters!.standby.pauseReplay();
    try {
      const id = await createListing(ctx.db, { name: 'Written while the replica lags' });
      expect((await request(app).get(`/api/v2/listings/${id}/`)).status).toBe(404); // under the bound: the replica
      await waitFor('/healthz to report the replica lagging', async () => (await healthz()).body.replica.state === 'lagging', WAIT_MS);
      const lagging = await healthz();
      expect(lagging.status).toBe(200); // the site still works: reads go to the primary
      expect(lagging.body.replica.lag_seconds).toBeGreaterThan(MAX_LAG_MS / 1000);
      expect(lagging.body.replica.lag_bytes).toBeGreaterThan(0);
      expect((await request(app).get(`/api/v2/listings/${id}/`)).status).toBe(200); // past it: the primary
    } finally {
      await clusters!.standby.resumeReplay();
    }
    await caughtUp();
    expect((await healthz()).body.replica).toMatchObject({ state: 'streaming', lag_seconds: 0 });
  });

  test('the replica going away costs no request: reads in flight and after go to the primary', async () => {
    const id = await createListing(ctx.db, { name: 'Read through the stop' });
    await caughtUp();
    const statuses: (number | string)[] = [];
    let stopped = false;
    let afterStop = 0;
    const paths = [`/api/v2/listings/${id}/`, '/api/v2/listings/?ordering=name', '/api/search/?q=place'];
    const worker = async (i: number) => {
      for (let n = 0; afterStop < 200 && n < 20_000; n++) {
        const answer = await request(app)
          .get(paths[(i + n) % paths.length])
          .then((r) => r.status, (err: Error) => err.message);
        statuses.push(answer);
        if (stopped) afterStop++;
      }
    };
    const workers = Promise.all([0, 1, 2, 3].map(worker));
    await waitFor('some reads answered by the replica', () => statuses.length >= 40, WAIT_MS);
    // And one read surely on the replica when it stops: asked again of the primary.
    const slowRead = ctx.dbRead.raw("select pg_sleep(1), 'answered' as answer").then((r: { rows: { answer: string }[] }) => r); // sent now
    const standby = new pg.Client({ connectionString: clusters!.standby.url('guide') });
    await standby.connect();
    try {
      await waitFor('the slow read to run on the replica', async () => (await standby.query("select 1 from pg_stat_activity where query like '%pg_sleep(1)%' and pid <> pg_backend_pid()")).rowCount === 1, WAIT_MS);
    } finally {
      await standby.end();
    }
    await clusters!.standby.stop();
    stopped = true;
    await workers;
    expect((await slowRead).rows[0]?.answer).toBe('answered');

    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(afterStop).toBeGreaterThanOrEqual(200);
    const health = await healthz();
    expect(health.status).toBe(200);
    expect(health.body.replica.state).toBe('down');
  });
});
