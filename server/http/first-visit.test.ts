import moment from 'moment-timezone';
import request from 'supertest';
import { createMember, createTestContext, memberSessionCookie, type TestContext } from '../testing/test-app';
import { createArticle, createEvent, createListing, createListingType } from '../testing/fixtures';
import { SIGNED_IN_COOKIE } from '../../shared/constants';

// Issue 24 goal 1: a first visit (no cookie) to a content page is answered as any shared cache
// may keep it (no Set-Cookie, `public, max-age`) and from the page cache; the CSRF token is
// issued only where it is used (a page holding a form, the islands' member request,
// GET /api/v2/csrf/), and an unsafe request still needs the cookie and the same token.
// Production mode, as the page cache runs: cookies are Secure, so each request names the
// cookies a browser would send (supertest's jar keeps Secure cookies off plain HTTP).

jest.setTimeout(60_000);

const setCookies = (res: { headers: Record<string, unknown> }): string[] => (res.headers['set-cookie'] as string[] | undefined) ?? [];
/** `csrftoken=<value>` from an answer's Set-Cookie, as the browser will send it back. */
function csrfCookie(res: { headers: Record<string, unknown> }): string {
  const cookie = setCookies(res).find((c) => c.startsWith('csrftoken='));
  if (!cookie) throw new Error('no csrftoken cookie set');
  return cookie.split(';')[0];
}
const tokenOf = (cookie: string) => cookie.slice('csrftoken='.length);
const formToken = (html: string) => /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)?.[1];
/**
 * Whether an answer signed someone in: it sets the signed-in cookie (the Secure session cookie
 * itself is not sent over plain HTTP in production).
 */
const signedIn = (res: { headers: Record<string, unknown> }) => setCookies(res).some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=1`));

describe('a first visit, in production', () => {
  let t: TestContext;
  let clockOffset = 0;
  const pages: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'production', SESSION_SECRET: 'f'.repeat(48), RATE_LIMITS: 'false' });
    t.ctx.now = () => new Date(Date.now() + clockOffset);
    const db = t.ctx.db;
    const articleId = await createArticle(db, { name: 'A story for newcomers' });
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const listingId = await createListing(db, { name: 'Pizzeria Libretto', type_id: typeId, latitude: 43.6505, longitude: -79.3902 });
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await createEvent(db, { title: 'Jazz night', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '19:00', end_time: '21:00' } });
    Object.assign(pages, {
      home: '/',
      article: (await db('articles').where({ id: articleId }).first('path')).path,
      hub: '/restaurants/',
      listing: `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`,
      events: '/events/',
    });
  });
  afterAll(() => t?.close());

  test('home, an article, a hub, a listing page and the events hub: no cookie, public, then from the page cache', async () => {
    for (const [name, path] of Object.entries(pages)) {
      const first = await request(t.app).get(path);
      expect([name, first.status, setCookies(first)]).toEqual([name, 200, []]);
      expect([name, first.headers['cache-control']]).toEqual([name, expect.stringMatching(/^public, max-age=\d+$/)]);
      expect(first.text).not.toContain('csrfmiddlewaretoken');
      const again = await request(t.app).get(path);
      expect([name, again.headers['x-guest-cache'], setCookies(again)]).toEqual([name, 'hit', []]);
      expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      expect(again.text).toBe(first.text);
    }
  });

  test('the login page sets the token its forms carry, and both forms post without JavaScript', async () => {
    const member = await createMember(t.ctx);
    const page = await request(t.app).get('/accounts/login');
    expect(page.status).toBe(200);
    const cookie = csrfCookie(page);
    expect(page.headers['cache-control']).toMatch(/^private/);
    expect(formToken(page.text)).toBe(tokenOf(cookie));
    const login = await request(t.app).post('/accounts/login').set('Cookie', cookie).type('form').send({ csrfmiddlewaretoken: tokenOf(cookie), email: member.email, password: member.password, next: '/' });
    expect(login.status).toBe(302);
    expect(signedIn(login)).toBe(true);

    const again = await request(t.app).get('/accounts/login');
    const signupCookie = csrfCookie(again);
    const signup = await request(t.app)
      .post('/accounts/signup')
      .set('Cookie', signupCookie)
      .type('form')
      .send({ csrfmiddlewaretoken: formToken(again.text), email: 'first-visit@example.com', password: 'maple-streetcar-42', password_confirm: 'maple-streetcar-42' });
    expect(signup.status).toBe(302);
    expect(signup.headers.location).toMatch(/^\/accounts\/onboarding/);
  });

  test('the contact page sets its token and its form posts without JavaScript', async () => {
    clockOffset = 0;
    const page = await request(t.app).get('/contact/');
    const cookie = csrfCookie(page);
    expect(formToken(page.text)).toBe(tokenOf(cookie));
    const key = /name="captcha_key" value="([^"]+)"/.exec(page.text)![1];
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const [, a, b] = /alt="What is (\w+) plus (\w+)\?"/.exec(page.text)!;
    clockOffset = 10_000; // the reader takes a few seconds
    const res = await request(t.app)
      .post('/contact/')
      .set('Cookie', cookie)
      .type('form')
      .send({ csrfmiddlewaretoken: tokenOf(cookie), question_category: 'general', name: 'Jo Reader', email: 'jo@example.com', confirm_email: 'jo@example.com', comment: 'First time here.', captcha_key: key, captcha: String(words.indexOf(a) + words.indexOf(b)) });
    clockOffset = 0;
    expect(res.status).toBe(303);
    expect(await t.ctx.db('contact_messages').where({ comment: 'First time here.' }).first()).toBeDefined();
  });

  test("the add-event page gives a member without the cookie a token, and its multipart form posts without JavaScript", async () => {
    const session = await memberSessionCookie(t, await createMember(t.ctx));
    const page = await request(t.app).get('/events/add/').set('Cookie', session);
    expect(page.status).toBe(200);
    const cookie = csrfCookie(page);
    expect(formToken(page.text)).toBe(tokenOf(cookie));
    const date = moment.tz('Canada/Eastern').add(10, 'days').format('YYYY-MM-DD');
    const fields: Record<string, string> = {
      csrfmiddlewaretoken: tokenOf(cookie), // first, as the form prints it
      title: 'First-visit jazz',
      description: 'Free concert.',
      venue_name: 'Trinity Bellwoods Park',
      address: '790 Queen St W',
      schedule_type: 'single_day',
      'single_day-date': date,
      'single_day-start_time': '7:00 PM',
      'single_day-end_time': '21:30',
    };
    let post = request(t.app).post('/events/add/').set('Cookie', `${session}; ${cookie}`);
    for (const [k, v] of Object.entries(fields)) post = post.field(k, v);
    const res = await post;
    expect(res.status).toBe(303);
    expect(await t.ctx.db('events').where({ title: 'First-visit jazz' }).first()).toBeDefined();
  });

  test("islands: a member's request (GET /api/v2/profiles/hi/) hands out the token their unsafe calls send", async () => {
    const session = await memberSessionCookie(t, await createMember(t.ctx));
    const hi = await request(t.app).get('/api/v2/profiles/hi/').set('Cookie', session);
    expect(hi.status).toBe(200);
    const cookie = csrfCookie(hi);
    const patch = await request(t.app).patch('/api/v2/profiles/me/').set('Cookie', `${session}; ${cookie}`).set('X-CSRFToken', tokenOf(cookie)).send({ full_name: 'First Visit' });
    expect(patch.status).toBe(200);
    expect(patch.body.full_name).toBe('First Visit');
  });

  test('islands: a guest without the cookie asks GET /api/v2/csrf/, then signs in with it', async () => {
    const member = await createMember(t.ctx);
    const token = await request(t.app).get('/api/v2/csrf/');
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('private, no-store');
    const cookie = csrfCookie(token);
    expect(token.body).toEqual({ csrftoken: tokenOf(cookie) });
    // Never shared: the next visitor gets their own.
    expect(csrfCookie(await request(t.app).get('/api/v2/csrf/'))).not.toBe(cookie);
    const login = await request(t.app).post('/api/v2/profiles/email-login/').set('Cookie', cookie).set('X-CSRFToken', token.body.csrftoken).send({ email: member.email, password: member.password });
    expect(login.status).toBe(200);
    expect(signedIn(login)).toBe(true);
  });

  test("the footer's newsletter form without JavaScript: its GET reaches the newsletter page, whose form carries the token", async () => {
    // The footer's form is a GET form to /newsletters/ carrying no token.
    const home = await request(t.app).get('/');
    expect(home.text).toMatch(/<form class="newsletter-panel__form" action="\/newsletters\/" method="get"/);
    const page = await request(t.app).get('/newsletters/?news=on&email=footer%40example.com');
    expect(page.status).toBe(200);
    const cookie = csrfCookie(page);
    expect(formToken(page.text)).toBe(tokenOf(cookie));
    const res = await request(t.app).post('/newsletters/').set('Cookie', cookie).type('form').send({ csrfmiddlewaretoken: tokenOf(cookie), email: 'footer@example.com', news: 'on' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Thanks for signing up to our newsletter');
    expect(await t.ctx.db('guest_newsletter_subscriptions').where({ email: 'footer@example.com' }).first()).toMatchObject({ news: true });
  });

  test("the footer's newsletter form with JavaScript: a token from GET /api/v2/csrf/, then the API", async () => {
    const token = await request(t.app).get('/api/v2/csrf/');
    const cookie = csrfCookie(token);
    const res = await request(t.app).post('/api/v2/profiles/guest-newsletters/').set('Cookie', cookie).set('X-CSRFToken', token.body.csrftoken).send({ email: 'footer-js@example.com', news: true });
    expect(res.status).toBe(201);
  });

  test('an unsafe request without a valid token is still a 403', async () => {
    const body = { email: 'nobody@example.com', news: true };
    const url = '/api/v2/profiles/guest-newsletters/';
    const noCookie = await request(t.app).post(url).send(body);
    expect(noCookie.status).toBe(403);
    expect(noCookie.body).toEqual({ detail: 'CSRF Failed: CSRF cookie not set.' });
    expect(setCookies(noCookie)).toEqual([]);
    // A token handed to another browser does not match this one's cookie.
    const mine = csrfCookie(await request(t.app).get('/api/v2/csrf/'));
    const theirs = (await request(t.app).get('/api/v2/csrf/')).body.csrftoken as string;
    const wrong = await request(t.app).post(url).set('Cookie', mine).set('X-CSRFToken', theirs).send(body);
    expect(wrong.body).toEqual({ detail: 'CSRF Failed: CSRF token incorrect.' });
    const missing = await request(t.app).post(url).set('Cookie', mine).send(body);
    expect(missing.body).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
    // The header alone, with no cookie, proves nothing.
    const headerOnly = await request(t.app).post(url).set('X-CSRFToken', tokenOf(mine)).send(body);
    expect(headerOnly.status).toBe(403);
    // And a form from another site is refused even with the pair.
    const foreign = await request(t.app).post(url).set('Cookie', mine).set('X-CSRFToken', tokenOf(mine)).set('Origin', 'https://evil.example').send(body);
    expect(foreign.body.detail).toMatch(/^CSRF Failed: Origin checking failed/);
    expect(await t.ctx.db('guest_newsletter_subscriptions').where({ email: 'nobody@example.com' }).first()).toBeUndefined();
  });
});
