import request from 'supertest';
import { createMember, createTestContext, memberSessionCookie, type TestContext } from '../../testing/test-app';

// A signed-in member's request reads the session and the member in one statement
// (session-store-queries.ts JOINED_MEMBER): counted from the Server-Timing header, as the page budget is.

function queries(header: string | undefined): number {
  const m = /db;desc="(\d+) queries"/.exec(header ?? '');
  if (!m) throw new Error(`no db entry in Server-Timing: ${header}`);
  return Number(m[1]);
}

describe('the session and its member, one query', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test("a member's auth check costs one query: the session with the member", async () => {
    const member = await createMember(t.ctx, { full_name: 'Ada Joined' });
    const cookie = await memberSessionCookie(t, member);
    const res = await request(t.app).get('/api/v2/profiles/hi/').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, full_name: 'Ada Joined' });
    expect(queries(res.headers['server-timing'])).toBe(1);
  });

  test('a member deactivated since signing in is signed out by that same query', async () => {
    const member = await createMember(t.ctx);
    const cookie = await memberSessionCookie(t, member);
    await t.ctx.db('profiles').where({ id: member.id }).update({ is_active: false });
    const res = await request(t.app).get('/api/v2/profiles/hi/').set('Cookie', cookie);
    expect(res.status).toBe(401);
    expect(queries(res.headers['server-timing'])).toBe(1);
  });

  test('a name changed since signing in shows at once (the member is read with every request)', async () => {
    const member = await createMember(t.ctx, { full_name: 'Before' });
    const cookie = await memberSessionCookie(t, member);
    await t.ctx.db('profiles').where({ id: member.id }).update({ full_name: 'After' });
    expect((await request(t.app).get('/api/v2/profiles/hi/').set('Cookie', cookie)).body.full_name).toBe('After');
  });
});
