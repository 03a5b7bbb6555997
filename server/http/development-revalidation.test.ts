import request from 'supertest';
import { createApp } from '../app';
import { createMember, createTestContext, guestAgent, memberSessionCookie, type TestContext } from '../testing/test-app';
import { createArticle } from '../testing/fixtures';
import { SIGNED_IN_COOKIE } from '../../shared/constants';
import { AGE_GATE_COOKIE } from '../../shared/age-gate';

// Issue 23 item 6: one body for everybody, and so a 304 for a returning visitor, in development
// as in production. Development has no page cache (app.ts), re-reads templates and the
// islands' manifest when it changes: none of it may make an article page differ between requests or visitors, or Express's strong ETag would
// never match the copy a returning guest holds.

describe('development mode: an article page revalidates to a 304', () => {
  let t: TestContext;
  let app: ReturnType<typeof createApp>;
  let path: string;

  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'development' });
    // As `npm run dev` builds it (scripts/dev-server.ts), but for the live-reload route, whose
    // folder watchers would outlive the test (its script tag is the same on every page).
    app = createApp(t.ctx, { watchManifest: true });
    const id = await createArticle(t.ctx.db, { name: 'A story told twice' });
    path = (await t.ctx.db('articles').where({ id }).first('path')).path;
  });
  afterAll(() => t?.close());

  const browser = { Accept: 'text/html,application/xhtml+xml', 'Accept-Encoding': 'gzip, deflate, br' };

  test("a returning guest's If-None-Match answers 304, whichever cookies the site gave them", async () => {
    expect(t.ctx.config.env).toBe('development');
    const first = await request(app).get(path).set(browser);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60'); // no cookie set: the page prints no token
    expect(first.headers['set-cookie']).toBeUndefined();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/); // strong

    const guest = guestAgent(app);
    for (const cookies of [[], [`${AGE_GATE_COOKIE}=true`], [`${SIGNED_IN_COOKIE}=1`], ['newsletter_prompt_daily=1']]) {
      const again = await guest.get(path).set(browser).set('Cookie', [`csrftoken=${guest.csrfToken}`, ...cookies].join('; ')).set('If-None-Match', etag);
      expect([cookies.join(), again.status]).toEqual([cookies.join(), 304]);
      expect(again.headers.etag).toBe(etag);
    }
    // The same, from a HEAD and from a reload (max-age=0).
    expect((await request(app).head(path).set('If-None-Match', etag)).status).toBe(304);
    expect((await request(app).get(path).set(browser).set('Cache-Control', 'max-age=0').set('If-None-Match', etag)).status).toBe(304);
  });

  test("a member's page is the guest's, byte for byte, so the member's copy revalidates too", async () => {
    const guest = await request(app).get(path);
    const member = await createMember(t.ctx, { full_name: 'Jane Jacobs' });
    const cookie = await memberSessionCookie(t, member);
    const mine = await request(app).get(path).set('Cookie', cookie);
    expect(mine.status).toBe(200);
    expect(mine.text).toBe(guest.text);
    expect(mine.headers.etag).toBe(guest.headers.etag);
    expect((await request(app).get(path).set('Cookie', cookie).set('If-None-Match', String(guest.headers.etag))).status).toBe(304);
  });
});
