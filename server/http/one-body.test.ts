import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../testing/test-app';
import { createArticle, createEvent, createListing, createListingType, createVideo } from '../testing/fixtures';
import { SIGNED_IN_COOKIE } from '../../shared/constants';

/** The accounts app's session cookie (the core imports no app). */
const SESSION_COOKIE = 'sessionid';

// One body for everybody (issue 15): a page's HTML is the same for guests and members (what is
// personal comes through the islands from /profiles/hi/ and the saved-id APIs), so the page
// cache serves members too, and never hands anyone a cookie or token of someone else.

interface Paths {
  home: string;
  article: string;
  hub: string;
  listing: string;
  event: string;
  video: string;
}

async function seed(t: TestContext): Promise<Paths> {
  const db = t.ctx.db;
  const articleId = await createArticle(db, { name: 'A shared story' });
  const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
  const listingId = await createListing(db, { name: 'Pizzeria Libretto', type_id: typeId, latitude: 43.6505, longitude: -79.3902 });
  await createListing(db, { name: 'Bar Raval', type_id: typeId, latitude: 43.6508, longitude: -79.3905 });
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const eventId = await createEvent(db, { title: 'Jazz night', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '19:00', end_time: '21:00' } });
  const videoId = await createVideo(db, { title: 'A patio tour' });
  return {
    home: '/',
    article: (await db('articles').where({ id: articleId }).first('path')).path,
    hub: '/restaurants/',
    listing: `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`,
    event: `/events/jazz-night-${eventId}/`,
    video: `/videos/${(await db('videos').where({ id: videoId }).first('slug')).slug}/`,
  };
}

const setCookies = (res: { headers: Record<string, unknown> }): string[] => (res.headers['set-cookie'] as string[] | undefined) ?? [];
const cookieValue = (agent: Agent, name: string) => agent.jar.getCookie(name, { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;

describe('one body for everybody: fresh renders', () => {
  let t: TestContext;
  let paths: Paths;
  beforeAll(async () => {
    t = await createTestContext(); // no page cache outside production: every answer is a fresh render
    paths = await seed(t);
  });
  afterAll(() => t?.close());

  test('home, article, hub, listing, event and video: byte-identical for a guest and a signed-in member', async () => {
    const member = await createMember(t.ctx, { full_name: 'Jane Jacobs', email: 'jane@example.com' });
    const guest = guestAgent(t.app);
    const signedIn = await memberAgent(t, member);
    for (const [name, path] of Object.entries(paths)) {
      const g = await guest.get(path);
      const m = await signedIn.get(path);
      expect([name, g.status, m.status]).toEqual([name, 200, 200]);
      expect(m.headers['x-guest-cache']).toBeUndefined();
      // Byte-identical, so the strong ETag is too.
      expect([name, m.text === g.text]).toEqual([name, true]);
      expect(m.headers.etag).toBe(g.headers.etag);
      for (const personal of ['Jane Jacobs', 'jane@example.com', signedIn.csrfToken, guest.csrfToken]) expect([name, m.text.includes(personal)]).toEqual([name, false]);
    }
  });
});

describe('one body for everybody: the page cache in production', () => {
  let t: TestContext;
  let paths: Paths;
  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'production', SESSION_SECRET: 'q'.repeat(48) });
    paths = await seed(t);
  });
  afterAll(() => t?.close());

  test("a member is served the guests' cached page, with only their own cookies, never `public`, and stays signed in", async () => {
    const firstGuest = guestAgent(t.app);
    const filled = await firstGuest.get(paths.article);
    expect(filled.status).toBe(200);

    const member = await createMember(t.ctx, { full_name: 'Ada Lovelace' });
    const agent = await memberAgent(t, member);
    const sessionBefore = cookieValue(agent, SESSION_COOKIE);
    const res = await agent.get(paths.article);
    expect(res.headers['x-guest-cache']).toBe('hit');
    expect(res.text).toBe(filled.text);
    // Only the member's own cookies: their rolling session (the same id) and the signed-in cookie.
    const cookies = setCookies(res);
    expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual([SESSION_COOKIE, SIGNED_IN_COOKIE].sort());
    expect(cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toContain(`${SESSION_COOKIE}=${sessionBefore};`);
    expect(cookies.join('\n')).not.toContain(firstGuest.csrfToken);
    // Their answer sets their cookie: a shared cache must not keep it.
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.headers.vary).toMatch(/Cookie/);

    // The session went through the session middleware (renewed): for the next while its hits
    // are served before the session is read, at no query, with no cookie at all (so `public`).
    const next = await agent.get(paths.article);
    expect(next.headers['x-guest-cache']).toBe('hit');
    expect(next.text).toBe(filled.text);
    expect(setCookies(next)).toEqual([]);
    expect(next.headers['cache-control']).toBe('public, max-age=60');
    // Their session is still theirs.
    const hi = await agent.get('/api/v2/profiles/hi/');
    expect(hi.status).toBe(200);
    expect(hi.body).toMatchObject({ id: member.id, full_name: 'Ada Lovelace' });
  });

  test('what a member filled is served to guests without any of the member\'s cookies', async () => {
    const member = await createMember(t.ctx, { full_name: 'Grace Hopper' });
    const agent = await memberAgent(t, member);
    const filled = await agent.get(paths.video);
    expect(filled.headers['x-guest-cache']).toBeUndefined();
    const memberSession = cookieValue(agent, SESSION_COOKIE)!;
    expect(memberSession).toBeTruthy();

    const returning = await guestAgent(t.app).get(paths.video);
    expect(returning.headers['x-guest-cache']).toBe('hit');
    expect(returning.text).toBe(filled.text);
    expect(setCookies(returning)).toEqual([]);
    expect(returning.headers['cache-control']).toBe('public, max-age=60');

    // A first visit gets no cookie at all (no token is printed on the page), so its answer
    // stays public: a shared cache may keep it.
    const first = await request(t.app).get(paths.video);
    expect(first.headers['x-guest-cache']).toBe('hit');
    expect(setCookies(first)).toEqual([]);
    expect(first.text).toBe(filled.text);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
  });

  test('home, hub, listing and event: members are served from the cache too', async () => {
    const agent = await memberAgent(t, await createMember(t.ctx));
    for (const path of [paths.home, paths.hub, paths.listing, paths.event]) {
      const guest = await guestAgent(t.app).get(path);
      const res = await agent.get(path);
      expect([path, res.headers['x-guest-cache']]).toEqual([path, 'hit']);
      expect([path, res.text === guest.text]).toEqual([path, true]);
      // Never `public` with a cookie on it (the hits served before the session carry none).
      if (setCookies(res).length) expect(res.headers['cache-control']).not.toMatch(/public/);
      expect(setCookies(res).every((c) => /^(sessionid|signed_in)=/.test(c))).toBe(true);
    }
  });

  test('a read API whose member answer is their own is never served to a member from the guests\' copy', async () => {
    const url = paths.hub.replace('/restaurants/', '/api/v2/listings/?limit=2');
    await guestAgent(t.app).get(url);
    expect((await guestAgent(t.app).get(url)).headers['x-guest-cache']).toBe('hit');
    const agent = await memberAgent(t, await createMember(t.ctx));
    const mine = await agent.get(url);
    expect(mine.status).toBe(200);
    expect(mine.headers['x-guest-cache']).toBeUndefined();
    expect(mine.headers['cache-control']).toBe('private, no-cache');
  });

  test('the age gate: its answer is part of the key, so the gated copy never reaches one who answered, nor the open copy one who did not', async () => {
    await createArticle(t.ctx.db, { name: 'Edibles explained', type_slug: 'cannabis' });
    const gated = await guestAgent(t.app).get('/cannabis/');
    expect(gated.status).toBe(200);
    expect(gated.text).toContain('age-gate');
    const answered = guestAgent(t.app);
    answered.jar.setCookie('is_user_over_18=true; Path=/');
    const open = await answered.get('/cannabis/');
    expect(open.headers['x-guest-cache']).toBeUndefined();
    expect(open.text).not.toContain('data-island="age-gate"');
    const again = await answered.get('/cannabis/');
    expect(again.headers['x-guest-cache']).toBe('hit');
    expect(again.text).toBe(open.text);
    const notYet = await guestAgent(t.app).get('/cannabis/');
    expect(notYet.headers['x-guest-cache']).toBe('hit');
    expect(notYet.text).toBe(gated.text);
    // A member who declined is sent home, never given a cached copy.
    const declined = await memberAgent(t, await createMember(t.ctx));
    declined.jar.setCookie('is_user_over_18=false; Path=/');
    expect((await declined.get('/cannabis/')).status).toBe(302);
  });

  test('a cookie the cache knows nothing about bypasses it', async () => {
    await guestAgent(t.app).get(paths.home);
    const res = await request(t.app).get(paths.home).set('Cookie', 'csrftoken=' + 'k'.repeat(43) + '; something_else=1');
    expect(res.status).toBe(200);
    expect(res.headers['x-guest-cache']).toBeUndefined();
  });
});

describe('the signed-in cookie tells the islands whether to ask who is signed in', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t?.close());

  test('set while signed in (readable by scripts, no secret), dropped at log out and when the session is gone', async () => {
    const m = await createMember(t.ctx);
    const guest = guestAgent(t.app);
    expect(setCookies(await guest.get('/about')).some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))).toBe(false);

    const login = await guest.post('/api/v2/profiles/email-login/').set('X-CSRFToken', guest.csrfToken).send({ email: m.email, password: m.password });
    expect(login.status).toBe(200);
    const set = setCookies(login).find((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`));
    expect(set).toMatch(new RegExp(`^${SIGNED_IN_COOKIE}=1; Max-Age=\\d+; Path=/;`));
    expect(set).not.toMatch(/HttpOnly/i);
    expect(setCookies(await guest.get('/about')).some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=1`))).toBe(true);

    const out = await guest.post('/profiles/logout').type('form').send({ csrfmiddlewaretoken: guest.csrfToken, next: '/' });
    expect(out.status).toBe(302);
    expect(setCookies(out).find((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))).toMatch(/Expires=Thu, 01 Jan 1970/);

    // A stale one (the session expired elsewhere) is dropped by the next answer, /hi/'s 401 included.
    const stale = await request(t.app).get('/api/v2/profiles/hi/').set('Cookie', `${SIGNED_IN_COOKIE}=1`);
    expect(stale.status).toBe(401);
    expect(setCookies(stale).find((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
