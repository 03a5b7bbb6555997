import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../app';
import type { DbHandle } from '../db';
import { createMember, memberAgent, type Agent, type TestContext, createTestContext } from '../testing/test-app';
import { openUnreachableDatabase } from '../testing/unreachable-db';

// A process whose database has gone away (a restart, a failover): its member's session cannot
// be read, nor anything else. Every request answers 503 with Retry-After, as JSON under /api/
// and /streams/ and as a page elsewhere: not a 500, not a signed-out member, not a crash.
// (The database that went away is a PostgreSQL nobody answers for, on either test database;
// test/process/postgres-failover.test.ts cuts and restores a real one.)
describe('while the database is unreachable', () => {
  let t: TestContext;
  let away: DbHandle;
  let app: Express;
  let member: Agent;
  beforeAll(async () => {
    t = await createTestContext();
    away = await openUnreachableDatabase();
    app = createApp({ ...t.ctx, db: away.db, dbRead: away.db }, { watchManifest: false });
    // The session row is written to the real database; the app reads from the one that went away.
    member = await memberAgent({ app, ctx: t.ctx }, await createMember(t.ctx));
  });
  afterAll(async () => {
    await away.close();
    await t.close();
  });

  const expectApi503 = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.type).toBe('application/json');
    expect(res.body).toEqual({ detail: expect.stringContaining('temporarily unavailable') });
  };
  const expectPage503 = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('Back in a moment');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  };

  test("a member's API request answers 503 JSON (the session store failed), not 500 or 401", async () => {
    expectApi503(await member.get('/api/v2/profiles/me/'));
    expectApi503(await member.get('/api/v2/favourites/'));
  });

  test("a member's write answers 503", async () => {
    expectApi503(await member.post('/api/v2/favourites/').set('X-CSRFToken', member.csrfToken).send({ listing: 1 }));
  });

  test("a guest's API request answers 503 JSON", async () => {
    expectApi503(await request(app).get('/api/v2/listings/'));
  });

  test('pages answer a 503 page, for members and guests', async () => {
    expectPage503(await member.get('/accounts/dashboard/'));
    expectPage503(await request(app).get('/'));
  });

  test('/healthz answers 503', async () => {
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable' });
  });
});
