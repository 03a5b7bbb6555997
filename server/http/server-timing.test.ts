import express from 'express';
import request from 'supertest';
import { createTestContext, type TestContext } from '../testing/test-app';
import { loadConfig } from '../config';
import { trackQueries, currentQueryStats, measureQueries } from '../db/query-stats';
import { serverTiming } from './server-timing';

// The Server-Timing `db` entry: its exact shape (scripts/bench/site.ts reads it), and that each
// request counts its own queries only, however requests interleave.

const ENTRY = /^db;desc="(\d+) queries";dur=(\d+\.\d{2})$/;

function entryOf(header: string | undefined): { queries: number; ms: number } {
  const db = (header ?? '').split(/,\s*/).find((e) => e.startsWith('db;'));
  const m = ENTRY.exec(db ?? '');
  if (!m) throw new Error(`no db entry in Server-Timing: ${header}`);
  return { queries: Number(m[1]), ms: Number(m[2]) };
}

describe('Server-Timing db entry', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('pages, APIs and 404s carry it in the exact shape', async () => {
    for (const path of ['/', '/api/v2/articles/', '/no-such-page/']) {
      const res = await request(t.app).get(path);
      const header = res.headers['server-timing'];
      expect(header).toMatch(/(^|, )db;desc="\d+ queries";dur=\d+\.\d{2}(,|$)/);
      expect(entryOf(header).queries).toBeGreaterThanOrEqual(path === '/' ? 1 : 0);
    }
  });

  test('an API answer counts its queries and their time', async () => {
    const res = await request(t.app).get('/api/v2/articles/');
    expect(res.status).toBe(200);
    const { queries, ms } = entryOf(res.headers['server-timing']);
    expect(queries).toBeGreaterThan(0);
    expect(ms).toBeGreaterThan(0);
  });

  test('concurrent requests each report only their own queries', async () => {
    // A bare app on the test database: /run/:n runs n queries, yielding between them so that
    // the requests' queries interleave.
    const app = express();
    trackQueries(t.ctx.db);
    trackQueries(t.ctx.db); // listening twice must not count twice
    app.use(serverTiming());
    app.get('/run/:n', async (req, res) => {
      const n = Number(req.params.n);
      const half = Math.floor(n / 2);
      // Some in parallel, some one after another, some inside a transaction (BEGIN and COMMIT count).
      await Promise.all(Array.from({ length: half }, (_, i) => t.ctx.db.raw('select ?::int as i', [i])));
      for (let i = half; i < n; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        await t.ctx.db.raw('select ?::int as i', [i]);
      }
      res.json({ seen: currentQueryStats()?.queries });
    });
    app.get('/tx', async (_req, res) => {
      await t.ctx.db.transaction(async (trx) => {
        await trx.raw('select 1');
      });
      res.json({});
    });
    const wanted = Array.from({ length: 24 }, (_, i) => (i * 7) % 9);
    const answers = await Promise.all(wanted.map((n) => request(app).get(`/run/${n}`)));
    answers.forEach((res, i) => {
      expect({ n: wanted[i], reported: entryOf(res.headers['server-timing']).queries, seen: res.body.seen }).toEqual({ n: wanted[i], reported: wanted[i], seen: wanted[i] });
    });
    const tx = await request(app).get('/tx');
    // BEGIN, the query, COMMIT.
    expect(entryOf(tx.headers['server-timing']).queries).toBe(3);
  });

  test('a query outside any request counts nowhere', async () => {
    expect(currentQueryStats()).toBeUndefined();
    await t.ctx.db.raw('select 1');
    const inside = await measureQueries(async (stats) => {
      await t.ctx.db.raw('select 1');
      return stats.queries;
    });
    expect(inside).toBe(1);
  });

  test('SERVER_TIMING=false leaves the header out; a value that is not a boolean is refused', async () => {
    const res = await request(t.rebuild({ SERVER_TIMING: 'false' })).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['server-timing']).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'test', SERVER_TIMING: 'maybe' })).toThrow(/SERVER_TIMING must be true or false/);
  });

  test('on by default outside production; in production only when SERVER_TIMING=true', () => {
    const production = { NODE_ENV: 'production' as const, SESSION_SECRET: 's'.repeat(40), DATA_DIR: t.tmpDir };
    expect(loadConfig({ NODE_ENV: 'test' }).serverTiming).toBe(true);
    expect(loadConfig(production).serverTiming).toBe(false);
    expect(loadConfig({ ...production, SERVER_TIMING: 'true' }).serverTiming).toBe(true);
  });
});
