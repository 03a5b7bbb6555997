import type { Request } from 'express';
import { createMember, createTestContext, guestAgent, type TestContext } from '../../testing/test-app';
import { LOGIN_HISTORY_KEEP, LOGIN_HISTORY_MAX_AGE_DAYS, recordSignIn } from './login-history-queries';

// The login history keeps the newest LOGIN_HISTORY_KEEP sign-ins of the past year per member.

const fakeRequest = (ip: string, userAgent: string) => ({ ip, get: (h: string) => (h.toLowerCase() === 'user-agent' ? userAgent : undefined) }) as unknown as Request;

describe('login history', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('keeps the newest sign-ins of the past year, per member', async () => {
    const db = t.ctx.db;
    const member = await createMember(t.ctx);
    const other = await createMember(t.ctx);
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await db('login_history').insert({ profile_id: member.id, logged_in_at: ago(LOGIN_HISTORY_MAX_AGE_DAYS + 1), method: 'password' });
    await db('login_history').insert(Array.from({ length: LOGIN_HISTORY_KEEP + 5 }, (_, i) => ({ profile_id: member.id, logged_in_at: ago(200 - i), method: 'apple' })));
    await db('login_history').insert({ profile_id: other.id, logged_in_at: ago(LOGIN_HISTORY_MAX_AGE_DAYS + 30), method: 'facebook' });

    await recordSignIn(db, member.id, fakeRequest('203.0.113.9', 'x'.repeat(600)), 'password', now);

    const rows = await db('login_history').where({ profile_id: member.id }).orderBy('logged_in_at', 'desc').select('logged_in_at', 'ip', 'user_agent', 'method');
    expect(rows).toHaveLength(LOGIN_HISTORY_KEEP);
    expect(rows[0]).toMatchObject({ ip: '203.0.113.9', method: 'password' });
    expect(rows[0].user_agent).toHaveLength(512);
    // The oldest that remain are the newest of the older ones; the year-old row is gone.
    expect(new Date(rows.at(-1).logged_in_at).getTime()).toBe(ago(200 - 6).getTime());
    // Another member's history is theirs to trim, at their own sign-in.
    expect(Number((await db('login_history').where({ profile_id: other.id }).count({ n: '*' }).first())?.n)).toBe(1);
  });

  test('the login page and the API write one row per successful sign-in, none for a failed one', async () => {
    const member = await createMember(t.ctx);
    const api = guestAgent(t.app);
    expect((await api.post('/api/v2/profiles/email-login/').set('X-CSRFToken', api.csrfToken).send({ email: member.email, password: 'wrong password here' })).status).toBe(400);
    expect((await api.post('/api/v2/profiles/email-login/').set('X-CSRFToken', api.csrfToken).set('User-Agent', 'ApiAgent').send({ email: member.email, password: member.password })).status).toBe(200);
    const page = guestAgent(t.app);
    const form = await page.post('/accounts/login').type('form').set('User-Agent', 'FormAgent').send({ email: member.email, password: member.password, csrfmiddlewaretoken: page.csrfToken });
    expect(form.status).toBe(302);
    const rows = await t.ctx.db('login_history').where({ profile_id: member.id }).orderBy('id').select('method', 'user_agent');
    expect(rows).toEqual([
      { method: 'password', user_agent: 'ApiAgent' },
      { method: 'password', user_agent: 'FormAgent' },
    ]);
  });
});
