import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createVideo } from '../../testing/fixtures';
import { passwordMessages } from './password-validation';
import { messages } from './service';

const STRONG = 'maple-streetcar-42';

function cookieNamed(res: request.Response, name: string): string | undefined {
  return ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((c) => c.startsWith(`${name}=`));
}

function post(agent: Agent, path: string, body: object) {
  return agent.post(path).set('X-CSRFToken', agent.csrfToken).send(body);
}

describe('accounts API', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  describe('POST /api/v2/profiles/email-registration/', () => {
    test('creates the member, signs them in and answers the profile', async () => {
      const agent = guestAgent(t.app);
      const res = await post(agent, '/api/v2/profiles/email-registration/', { email: '  New.Member@Example.com ', password: STRONG });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ email: 'new.member@example.com', full_name: '', sync_bookmarked_events_to_google_calendar: null });
      expect(res.body.password_hash).toBeUndefined();
      const cookie = cookieNamed(res, 'sessionid');
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      const hi = await agent.get('/api/v2/profiles/hi/');
      expect(hi.status).toBe(200);
      expect(hi.body.email).toBe('new.member@example.com');
      const row = await t.ctx.db('profiles').where({ email: 'new.member@example.com' }).first('password_hash');
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
    });

    test('refuses a duplicate email, whatever its case', async () => {
      const m = await createMember(t.ctx);
      const res = await post(guestAgent(t.app), '/api/v2/profiles/email-registration/', { email: m.email.toUpperCase(), password: STRONG });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ email: [messages.emailTaken] });
    });

    test('sign-ups racing for one email: one account, the others a 400 email error', async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => post(guestAgent(t.app), '/api/v2/profiles/email-registration/', { email: i % 2 ? 'Racing@Example.com' : 'racing@example.com', password: STRONG })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
      for (const r of answers.filter((x) => x.status === 400)) expect(r.body).toEqual({ email: [messages.emailTaken] });
      expect(await t.ctx.db('profiles').whereRaw('lower(email) = ?', ['racing@example.com']).select('id')).toHaveLength(1);
    });

    test.each([
      ['not-an-email', { email: ['Enter a valid email address.'] }],
      ['', { email: ['This field may not be blank.'] }],
      [`${'a'.repeat(250)}@example.com`, { email: ['Ensure this field has no more than 255 characters.'] }],
    ])('refuses the malformed email %p', async (email, body) => {
      const res = await post(guestAgent(t.app), '/api/v2/profiles/email-registration/', { email, password: STRONG });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });

    test.each([
      ['short', 'Ab3$xyz', passwordMessages.tooShort],
      ['numeric', '4815162342', passwordMessages.numeric],
      ['common', 'password123', passwordMessages.common],
      ['similar to the email', 'jennifer.wong', passwordMessages.similar],
    ])('refuses a %s password', async (_label, password, message) => {
      const res = await post(guestAgent(t.app), '/api/v2/profiles/email-registration/', { email: 'jennifer.wong@example.com', password });
      expect(res.status).toBe(400);
      expect(res.body.password).toContain(message);
      expect(await t.ctx.db('profiles').where({ email: 'jennifer.wong@example.com' }).first()).toBeUndefined();
    });

    test('requires both fields and the CSRF token', async () => {
      const missing = await post(guestAgent(t.app), '/api/v2/profiles/email-registration/', {});
      expect(missing.body).toEqual({ email: ['This field is required.'], password: ['This field is required.'] });
      const noCsrf = await guestAgent(t.app).post('/api/v2/profiles/email-registration/').send({ email: 'x@example.com', password: STRONG });
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body.detail).toMatch(/^CSRF Failed/);
    });
  });

  describe('POST /api/v2/profiles/email-login/', () => {
    test('signs in with a new session id and answers the profile', async () => {
      const m = await createMember(t.ctx, { full_name: 'Jane Jacobs' });
      // A session that existed before sign-in (a planted or guest one) must not survive it.
      const agent = await memberAgent(t, await createMember(t.ctx));
      const before = (await t.ctx.db('sessions').select('sid')).map((r) => r.sid);
      const res = await post(agent, '/api/v2/profiles/email-login/', { email: m.email.toUpperCase(), password: m.password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: m.id, email: m.email, full_name: 'Jane Jacobs' });
      const sid = decodeURIComponent(cookieNamed(res, 'sessionid')!.split(';')[0].split('=')[1]).slice(2).split('.')[0];
      expect(before).not.toContain(sid);
      expect((await agent.get('/api/v2/profiles/hi/')).body.id).toBe(m.id);
      const row = await t.ctx.db('profiles').where({ id: m.id }).first('last_login');
      expect(row.last_login).not.toBeNull();
    });

    test('wrong password and unknown email answer the same non_field_errors', async () => {
      const m = await createMember(t.ctx);
      const wrong = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: 'not the password' });
      const unknown = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: 'nobody@example.com', password: 'whatever-it-is' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ non_field_errors: [messages.badCredentials] });
      expect(unknown.body).toEqual(wrong.body);
      expect(cookieNamed(wrong, 'sessionid')).toBeUndefined();
    });

    test('an inactive member cannot sign in', async () => {
      const m = await createMember(t.ctx);
      await t.ctx.db('profiles').where({ id: m.id }).update({ is_active: false });
      const res = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password });
      expect(res.status).toBe(400);
    });

    test('requires email and password', async () => {
      const res = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: 'a@example.com' });
      expect(res.body).toEqual({ password: ['This field is required.'] });
    });

    test('carries out a remembered favourite once, however often it is repeated', async () => {
      const m = await createMember(t.ctx);
      const listing = await createListing(t.ctx.db);
      for (let i = 0; i < 2; i++) {
        const res = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'add-favourite', object_id: listing });
        expect(res.status).toBe(200);
      }
      expect(await t.ctx.db('favourites').where({ profile_id: m.id, listing_id: listing }).count<{ n: number }[]>({ n: '*' })).toEqual([{ n: 1 }]);
      const l = await t.ctx.db('listings').where({ id: listing }).first('favourite_count');
      expect(l.favourite_count).toBe(1);
      const p = await t.ctx.db('profiles').where({ id: m.id }).first('last_updates');
      expect(p.last_updates.favourites).toMatch(/^\d{4}-/);
    });

    test('takes the action from the query string: a rating is saved, then updated', async () => {
      const m = await createMember(t.ctx);
      const listing = await createListing(t.ctx.db);
      const login = (rating: number) =>
        guestAgent(t.app)
          .post(`/api/v2/profiles/email-login/?post_authenticate_action=add-rating&object_id=${listing}&rating=${rating}`)
          .set('X-CSRFToken', '')
          .send({ email: m.email, password: m.password });
      const agent = guestAgent(t.app);
      const first = await agent
        .post(`/api/v2/profiles/email-login/?post_authenticate_action=add-rating&object_id=${listing}&rating=4`)
        .set('X-CSRFToken', agent.csrfToken)
        .send({ email: m.email, password: m.password });
      expect(first.status).toBe(200);
      const again = guestAgent(t.app);
      await again
        .post(`/api/v2/profiles/email-login/?post_authenticate_action=add-rating&object_id=${listing}&rating=2`)
        .set('X-CSRFToken', again.csrfToken)
        .send({ email: m.email, password: m.password });
      expect(await t.ctx.db('ratings').where({ profile_id: m.id }).select('rating')).toEqual([{ rating: 2 }]);
      const l = await t.ctx.db('listings').where({ id: listing }).first('rating', 'rating_count');
      expect([Number(l.rating), l.rating_count]).toEqual([2, 1]);
      expect((await login(3)).status).toBe(403); // and the CSRF check still applies
    });

    test('bookmarks articles and videos, and signs in even when the object is gone', async () => {
      const m = await createMember(t.ctx);
      const article = await createArticle(t.ctx.db);
      const video = await createVideo(t.ctx.db);
      await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'add-article-bookmark', object_id: article });
      await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'add-video-bookmark', object_id: String(video) });
      const missing = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'add-todo', object_id: 999999 });
      expect(missing.status).toBe(200);
      expect(await t.ctx.db('article_bookmarks').where({ profile_id: m.id }).pluck('article_id')).toEqual([article]);
      expect(await t.ctx.db('video_bookmarks').where({ profile_id: m.id }).pluck('video_id')).toEqual([video]);
      expect(await t.ctx.db('todos').where({ profile_id: m.id })).toEqual([]);
      const p = await t.ctx.db('profiles').where({ id: m.id }).first('last_updates');
      expect(Object.keys(p.last_updates).sort()).toEqual(['article-bookmarks', 'video-bookmarks']);
    });

    test('refuses an unknown action or an out-of-range rating', async () => {
      const m = await createMember(t.ctx);
      const bad = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'delete-everything', object_id: 1 });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['post_authenticate_action']);
      const rating = await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password, post_authenticate_action: 'add-rating', object_id: 1, rating: 9 });
      expect(rating.body.rating[0]).toMatch(/less than or equal to 5/);
    });
  });

  describe('logout', () => {
    const signedIn = async (agent: Agent) => (await agent.get('/api/v2/profiles/hi/')).status === 200;
    const logout = (agent: Agent, next: string) => agent.post('/profiles/logout').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, next });

    test('GET does not sign out: it asks, with a form that posts the token and a safe next', async () => {
      const agent = await memberAgent(t, await createMember(t.ctx, { full_name: 'Leaving Member' }));
      const res = await agent.get('/profiles/logout?next=/news/?page=2');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<form method="post" action="/profiles/logout">');
      expect(res.text).toContain(`name="csrfmiddlewaretoken" value="${agent.csrfToken}"`);
      expect(res.text).toContain('name="next" value="/news/?page=2"');
      expect(await signedIn(agent)).toBe(true);
      const hostile = await agent.get(`/profiles/logout?next=${encodeURIComponent('/.//evil.example/phish')}`);
      const confirm = /<section class="auth-card"[\s\S]*?<\/section>/.exec(hostile.text)?.[0] ?? '';
      expect(confirm).toContain('name="next" value="/"');
      expect(confirm).not.toContain('evil.example');
    });

    test('GET by a guest goes on to the safe next', async () => {
      const res = await request(t.app).get(`/profiles/logout?next=${encodeURIComponent('/.//evil.example/phish')}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/');
      expect((await request(t.app).get('/profiles/logout?next=/events/')).headers.location).toBe('/events/');
    });

    test('POST without the CSRF token, or from another site, is refused and signs nobody out', async () => {
      const agent = await memberAgent(t, await createMember(t.ctx));
      const noToken = await agent.post('/profiles/logout').type('form').send({ next: '/' });
      expect(noToken.status).toBe(403);
      const otherSite = await agent.post('/profiles/logout').set('Origin', 'https://evil.example').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, next: '/' });
      expect(otherSite.status).toBe(403);
      expect(await signedIn(agent)).toBe(true);
    });

    test('POST with the token signs out and goes to a local next', async () => {
      const agent = await memberAgent(t, await createMember(t.ctx));
      const res = await logout(agent, '/news/?page=2');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/news/?page=2');
      expect(await signedIn(agent)).toBe(false);
    });

    test.each(['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/.//evil.example/phish', '/%2F%2Fevil.example', '/%5Cevil.example'])(
      'never redirects off-site (next=%p)',
      async (next) => {
        const agent = await memberAgent(t, await createMember(t.ctx));
        const res = await logout(agent, next);
        expect(res.headers.location).toBe('/');
        expect(await signedIn(agent)).toBe(false);
      },
    );
  });

  describe('password reset', () => {
    const linkIn = (text: string) => /\/accounts\/reset\/([A-Za-z0-9_-]{43})\//.exec(text)?.[1];

    test('answers the same whether or not the email has an account', async () => {
      const m = await createMember(t.ctx);
      t.mailer.sent.length = 0;
      const known = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: m.email });
      const unknown = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: 'nobody-here@example.com' });
      expect([known.status, unknown.status]).toEqual([200, 200]);
      expect(known.body).toEqual(unknown.body);
      expect(t.mailer.sent.map((s) => s.to)).toEqual([m.email]);
      const bad = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: 'nope' });
      expect(bad.body).toEqual({ email: ['Enter a valid email address.'] });
    });

    test('the mailed link sets a new password once; only its hash is stored', async () => {
      const m = await createMember(t.ctx);
      t.mailer.sent.length = 0;
      await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: m.email });
      const token = linkIn(t.mailer.sent[0].text)!;
      expect(t.mailer.sent[0].text).toContain(`${t.config.site.url}/accounts/reset/${token}/`);
      const stored = await t.ctx.db('password_reset_tokens').where({ profile_id: m.id }).first('token_hash');
      expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.token_hash).not.toContain(token);

      const signedIn = await memberAgent(t, m);
      const weak = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token, new_password: '12345678' });
      expect(weak.status).toBe(400);
      expect(weak.body.new_password).toContain(passwordMessages.numeric);
      const ok = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token, new_password: STRONG });
      expect(ok.status).toBe(200);
      const reused = await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token, new_password: 'another-fine-pass' });
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({ non_field_errors: [messages.badResetLink] });
      // Old password gone, new one works, and sessions elsewhere are signed out.
      expect((await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: m.password })).status).toBe(400);
      expect((await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: STRONG })).status).toBe(200);
      expect((await signedIn.get('/api/v2/profiles/hi/')).status).toBe(401);
    });

    test('an expired link and a superseded link do not work', async () => {
      const m = await createMember(t.ctx);
      t.mailer.sent.length = 0;
      await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: m.email });
      await post(guestAgent(t.app), '/api/v2/profiles/reset-password/', { email: m.email });
      const [first, second] = t.mailer.sent.map((s) => linkIn(s.text)!);
      expect((await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token: first, new_password: STRONG })).status).toBe(400);
      await t.ctx.db('password_reset_tokens').where({ profile_id: m.id }).update({ expires_at: new Date(Date.now() - 1000) });
      expect((await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token: second, new_password: STRONG })).status).toBe(400);
      expect((await post(guestAgent(t.app), '/api/v2/profiles/reset-password/confirm/', { token: 'garbage', new_password: STRONG })).status).toBe(400);
    });
  });

  describe('POST /api/v2/profiles/me/password/', () => {
    test('guests get 401', async () => {
      const res = await post(guestAgent(t.app), '/api/v2/profiles/me/password/', { current_password: 'x', new_password: STRONG });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    });

    test('checks the current password and the new one, then changes it and signs out other sessions', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      const other = await memberAgent(t, m);
      const wrong = await post(agent, '/api/v2/profiles/me/password/', { current_password: 'nope nope', new_password: STRONG });
      expect(wrong.body).toEqual({ current_password: [messages.wrongCurrentPassword] });
      const weak = await post(agent, '/api/v2/profiles/me/password/', { current_password: m.password, new_password: 'qwertyuiop' });
      expect(weak.body.new_password).toContain(passwordMessages.common);
      const missing = await post(agent, '/api/v2/profiles/me/password/', { current_password: m.password });
      expect(missing.body).toEqual({ new_password: ['This field is required.'] });
      const ok = await post(agent, '/api/v2/profiles/me/password/', { current_password: m.password, new_password: STRONG });
      expect(ok.status).toBe(200);
      expect((await agent.get('/api/v2/profiles/hi/')).status).toBe(200);
      expect((await other.get('/api/v2/profiles/hi/')).status).toBe(401);
      expect((await post(guestAgent(t.app), '/api/v2/profiles/email-login/', { email: m.email, password: STRONG })).status).toBe(200);
    });
  });

  describe('sessions', () => {
    test('a session idle for more than 5 days counts as signed out', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      expect((await agent.get('/api/v2/profiles/hi/')).status).toBe(200);
      await t.ctx.db('sessions').whereRaw("(sess::jsonb -> 'passport' ->> 'user') = ?", [String(m.id)]).update({ expired: new Date(Date.now() - 1000) });
      expect((await agent.get('/api/v2/profiles/hi/')).status).toBe(401);
    });

    test('each request of a member renews the 5-day window', async () => {
      const m = await createMember(t.ctx);
      const agent = await memberAgent(t, m);
      const res = await agent.get('/api/v2/profiles/hi/');
      const cookie = cookieNamed(res, 'sessionid')!;
      const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]).getTime();
      expect(Math.abs(expires - (Date.now() + 5 * 86400_000))).toBeLessThan(60_000);
    });

    test('the session cookie is Secure in production', async () => {
      const app = t.rebuild({ SITE_URL: 'https://guide.example' }, { isProduction: true, trustProxy: 'loopback' });
      const m = await createMember(t.ctx);
      const agent = guestAgent(app);
      const res = await agent
        .post('/api/v2/profiles/email-login/')
        .set('X-Forwarded-Proto', 'https')
        .set('Origin', 'https://guide.example') // over HTTPS the request must say where it comes from
        .set('X-CSRFToken', agent.csrfToken)
        .send({ email: m.email, password: m.password });
      expect(res.status).toBe(200);
      expect(cookieNamed(res, 'sessionid')).toMatch(/;\s*Secure/i);
    });
  });
});
