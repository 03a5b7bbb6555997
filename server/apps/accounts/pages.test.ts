import request from 'supertest';
import { Strategy as FacebookStrategy } from 'passport-facebook';
import { createMember, createTestContext, guestAgent, memberAgent, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';

function initialState(html: string): Record<string, unknown> {
  const json = /<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1];
  return JSON.parse(json);
}

describe('account pages', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  describe('/accounts/login without JavaScript', () => {
    test('renders a real form posting with csrfmiddlewaretoken', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.get('/accounts/login?next=/events/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('action="/accounts/login"');
      expect(res.text).toContain(`name="csrfmiddlewaretoken" value="${agent.csrfToken}"`);
      expect(res.text).toContain('name="next" value="/events/"');
    });

    test('a wrong password re-renders the form with the message and the email kept', async () => {
      const m = await createMember(t.ctx);
      const agent = guestAgent(t.app);
      const res = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: 'wrong password', next: '/events/' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('* Unable to log in with provided credentials.');
      expect(res.text).toContain(`value="${m.email}"`);
    });

    test('signs in and goes to next, never off-site or back to the login page', async () => {
      const m = await createMember(t.ctx);
      const go = async (next: string) => {
        const agent = guestAgent(t.app);
        const res = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: m.password, next });
        return { res, agent };
      };
      const { res, agent } = await go('/events/?date=today');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/events/?date=today');
      expect((await agent.get('/api/v2/profiles/hi/')).status).toBe(200);
      expect((await go('https://evil.example/')).res.headers.location).toBe('/');
      expect((await go('/accounts/login')).res.headers.location).toBe('/');
    });

    test.each(['/.//evil.example/phish', '/%2F%2Fevil.example', '/%5Cevil.example', '/\t/evil.example', '/a/..//evil.example'])(
      'a hostile next (%p) is dropped from the form and never followed',
      async (next) => {
        const m = await createMember(t.ctx);
        const agent = guestAgent(t.app);
        const form = await agent.get(`/accounts/login?next=${encodeURIComponent(next)}`);
        expect(form.text).toContain('name="next" value=""');
        const res = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: m.password, next });
        expect(res.status).toBe(302);
        expect(res.headers.location).toBe('/');
        // Signed in now: the login page offers no way to the hostile next.
        const signedIn = await agent.get(`/accounts/login?next=${encodeURIComponent(next)}`);
        expect(signedIn.text).toContain('You are logged in');
        expect(signedIn.text).not.toContain('Continue where you were');
        expect(signedIn.text).toContain('name="next" value="/"');
      },
    );

    test('a form without the CSRF token is refused with an HTML 403', async () => {
      const res = await guestAgent(t.app).post('/accounts/login').type('form').send({ email: 'a@example.com', password: 'x' });
      expect(res.status).toBe(403);
      expect(res.type).toBe('text/html');
    });

    test("a signed-in member (pages cannot say so) is told they are, with the way back, their dashboard and log out", async () => {
      const agent = await memberAgent(t, await createMember(t.ctx, { full_name: 'Mary <Pickford>' }));
      const res = await agent.get('/accounts/login?next=/videos/');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).toContain('Logged in as Mary &lt;Pickford&gt;.');
      expect(res.text).toContain('<a href="/videos/">Continue where you were</a>');
      expect(res.text).toContain('<a href="/accounts/dashboard/">Your dashboard</a>');
      const form = /<form method="post" action="\/profiles\/logout">([\s\S]*?)<\/form>/.exec(res.text)?.[1] ?? '';
      expect(form).toMatch(/name="csrfmiddlewaretoken" value="[A-Za-z0-9_-]{43}"/);
      expect(form).toContain('name="next" value="/videos/"');
      const out = await agent.post('/profiles/logout').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, next: '/videos/' });
      expect(out.headers.location).toBe('/videos/');
      expect((await agent.get('/accounts/login')).text).toContain('action="/accounts/login"');
    });

    test('sign-up by form checks the repeated password, then goes to onboarding', async () => {
      const agent = guestAgent(t.app);
      const mismatch = await agent.post('/accounts/signup').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: 'form-signup@example.com', password: 'maple-streetcar-42', password_confirm: 'other' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.text).toContain("* The two passwords fields didn&#39;t match.");
      const ok = await agent.post('/accounts/signup').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: 'form-signup@example.com', password: 'maple-streetcar-42', password_confirm: 'maple-streetcar-42' });
      expect(ok.status).toBe(302);
      expect(ok.headers.location).toBe('/accounts/onboarding?next=%2Faccounts%2Fdashboard%2F');
    });
  });

  describe('reset password pages', () => {
    test('request a link, follow it, set a new password, log in with it', async () => {
      const m = await createMember(t.ctx);
      const agent = guestAgent(t.app);
      t.mailer.sent.length = 0;
      const sent = await agent.post('/accounts/password-reset/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email });
      expect(sent.text).toContain(`An email has been sent to ${m.email}. Click the link in the email to reset your password.`);
      const link = new URL(/http\S+\/accounts\/reset\/\S+\//.exec(t.mailer.sent[0].text)![0]);
      const form = await agent.get(link.pathname);
      expect(form.status).toBe(200);
      expect(form.headers['referrer-policy']).toBe('same-origin');
      expect(form.text).toContain('name="new_password"');
      const mismatch = await agent.post(link.pathname).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, new_password: 'maple-streetcar-42', new_password_confirm: 'nope' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.text).toContain('* The two password fields didn&#39;t match.');
      const done = await agent.post(link.pathname).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, new_password: 'maple-streetcar-42', new_password_confirm: 'maple-streetcar-42' });
      expect(done.status).toBe(200);
      expect(done.text).toContain('Your password has been set.');
      expect((await agent.get(link.pathname)).status).toBe(400);
      const login = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: 'maple-streetcar-42' });
      expect(login.status).toBe(302);
    });
  });

  describe('member shells', () => {
    test.each(['/accounts/onboarding', '/accounts/dashboard/'])('%s sends guests to the full-page login', async (path) => {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(path)}`);
    });

    test('onboarding and dashboard print their island and its state', async () => {
      const m = await createMember(t.ctx, { full_name: 'Anne Shirley' });
      const agent = await memberAgent(t, m);
      const onboarding = await agent.get('/accounts/onboarding?next=/events/');
      expect(onboarding.text).toContain('data-island="onboarding"');
      expect(initialState(onboarding.text).onboarding).toMatchObject({ profile: { id: m.id }, next: '/events/' });
      const dashboard = await agent.get('/accounts/dashboard/');
      expect(dashboard.text).toContain('data-island="dashboard"');
      expect(initialState(dashboard.text).dashboard).toMatchObject({ profile: { full_name: 'Anne Shirley' }, counts: { favourite_count: 0 } });
    });

    test('/_=_ (the social-login return) goes to the dashboard home', async () => {
      const res = await request(t.app).get('/_=_');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/accounts/dashboard/#/home/');
    });
  });

  describe('the navbar on every page', () => {
    test('everybody sees log in and sign up: the navbar names nobody (the island asks /profiles/hi/)', async () => {
      const guest = await request(t.app).get('/about');
      expect(guest.text).toContain('href="/accounts/login?next=%2Fabout"');
      expect(guest.text).toContain('href="/accounts/login?signup=1&amp;next=%2Fabout"');
      const m = await createMember(t.ctx, { full_name: 'Mary <Pickford>' });
      const page = await (await memberAgent(t, m)).get('/about');
      expect(page.text).toContain('href="/accounts/login?next=%2Fabout"');
      expect(page.text).not.toContain('Pickford');
      expect(page.text).not.toContain(m.email);
      expect(page.text).not.toContain('Logged in as');
      const state = initialState(page.text).navbar as Record<string, unknown>;
      expect(state).toMatchObject({ social: { facebook: false, apple: false } });
      expect(state).not.toHaveProperty('user');
    });

    test('menus list the latest articles, truncated as the spec says', async () => {
      const long = 'A'.repeat(70);
      await createArticle(t.ctx.db, { name: long, type_slug: 'food' });
      const app = t.rebuild(); // a fresh menu cache
      const res = await request(app).get('/about');
      const state = initialState(res.text).navbar as { menus: { latestArticles: Array<{ name: string }>; recentReviews: unknown[] } };
      expect(state.menus.latestArticles[0].name).toBe(`${'A'.repeat(64)} ...`);
      expect(state.menus.recentReviews).toHaveLength(1);
      expect(res.text).toContain('RECENT REVIEWS');
    });

    test('the Places submenu holds the recent reviews beside the listing types (spec 2 §2), the same for everybody', async () => {
      const id = await createArticle(t.ctx.db, { name: 'Review: a new ramen bar on Queen', type_slug: 'food' });
      const { path } = await t.ctx.db('articles').where({ id }).first('path');
      const app = t.rebuild(); // a fresh menu cache
      const places = (html: string) => html.slice(html.indexOf('<a href="/places/">Places</a>'), html.indexOf('</li>\n', html.indexOf('<a href="/places/">Places</a>')));
      const guest = await request(app).get('/about');
      const submenu = places(guest.text);
      expect(submenu).toContain('RECENT REVIEWS');
      expect(submenu).toContain(`<a href="${path}">Review: a new ramen bar on Queen</a>`);
      expect(submenu).toContain('<a href="/places/">All Places</a>');
      const member = await memberAgent({ app, ctx: t.ctx }, await createMember(t.ctx));
      expect(places((await member.get('/about')).text)).toBe(submenu);
    });

    test('news-only mode shows the news sections only', async () => {
      const res = await request(t.rebuild({ FEATURE_NEWS_ONLY: 'true' })).get('/about');
      expect(res.text).toContain('href="/real-estate/">Real Estate</a>');
      expect(res.text).not.toContain('>Restaurants</a>');
    });
  });

  describe('Facebook login', () => {
    test('is absent unless configured', async () => {
      expect((await request(t.app).get('/profiles/facebook-login/?next=/')).status).toBe(404);
      expect((await request(t.app).get('/accounts/login')).text).not.toContain('Log in with Facebook');
    });

    test('when configured, is offered and starts the OAuth round trip', async () => {
      const app = t.rebuild({ FACEBOOK_APP_ID: '1234', FACEBOOK_APP_SECRET: 'secret' });
      expect((await request(app).get('/accounts/login')).text).toContain('Log in with Facebook');
      const res = await request(app).get('/profiles/facebook-login/?next=/events/');
      expect(res.status).toBe(302);
      const url = new URL(res.headers.location);
      expect(url.hostname).toBe('www.facebook.com');
      expect(url.searchParams.get('client_id')).toBe('1234');
      expect(url.searchParams.get('redirect_uri')).toBe(`${t.config.site.url}/profiles/facebook-login/callback/`);
      expect(url.searchParams.get('state')).toBeTruthy();
    });

    test('the return of an account closed for deletion signs nobody in, and the login page says why once', async () => {
      // Facebook's side of the round trip, played here: the code becomes a token, the token a profile.
      const closed = await createMember(t.ctx);
      await t.ctx.db('profiles').where({ id: closed.id }).update({ facebook_id: 'fb-closed', is_active: false });
      const requested = new Date(Date.now() - 2 * 24 * 3600 * 1000);
      await t.ctx.db('account_deletions').insert({ profile_id: closed.id, content: 'remove', requested_at: requested, purge_after: new Date(requested.getTime() + 7 * 24 * 3600 * 1000) });
      // The OAuth client class passport-oauth2 uses, reached through a throwaway strategy.
      const oauthClient = (new FacebookStrategy({ clientID: 'x', clientSecret: 'y', callbackURL: 'http://x/' }, () => undefined) as unknown as { _oauth2: object })._oauth2;
      const tokenSpy = jest.spyOn(Object.getPrototypeOf(oauthClient) as { getOAuthAccessToken(...args: unknown[]): void }, 'getOAuthAccessToken').mockImplementation(function (_code: string, _params: unknown, callback: (err: null, token: string, refresh: string, results: object) => void) {
        callback(null, 'access-token', '', {});
      } as never);
      const profileSpy = jest.spyOn(FacebookStrategy.prototype, 'userProfile').mockImplementation(function (_token: string, done: (err: null, profile: unknown) => void) {
        done(null, { provider: 'facebook', id: 'fb-closed', displayName: 'Closed', emails: [{ value: closed.email }] });
      } as never);
      try {
        const app = t.rebuild({ FACEBOOK_APP_ID: '1234', FACEBOOK_APP_SECRET: 'secret' });
        const agent = request.agent(app);
        const start = await agent.get('/profiles/facebook-login/?next=/events/');
        const state = new URL(start.headers.location).searchParams.get('state');
        const back = await agent.get(`/profiles/facebook-login/callback/?code=the-code&state=${state}`);
        expect(back.status).toBe(302);
        expect(back.headers.location).toBe('/accounts/login?social_error=1');
        expect(tokenSpy).toHaveBeenCalled();
        const page = await agent.get(back.headers.location);
        expect(page.text).toContain('This account is closed: you asked us to delete it');
        expect(page.text).not.toContain("That social login didn't work");
        // Said once: the page again has the generic line only.
        const again = await agent.get(back.headers.location);
        expect(again.text).not.toContain('This account is closed');
        expect(again.text).toContain("That social login didn't work");
        expect((await agent.get('/api/v2/profiles/me/')).status).toBe(401);
        expect(await t.ctx.db('login_history').where({ profile_id: closed.id })).toEqual([]);
      } finally {
        tokenSpy.mockRestore();
        profileSpy.mockRestore();
      }
    });
  });
});
