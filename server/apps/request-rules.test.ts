import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberSessionCookie, type TestContext } from '../testing/test-app';
import { CSRF_COOKIE } from '../http/csrf';
import { appRequestRules } from '.';

// Issue 38: the few routes that body parsing and the CSRF check treat apart are declared by
// their apps, beside their routes; the registry collects them (appRequestRules) and the core
// (app.ts) applies what it is handed and names no app path. Each rule is checked by what it
// does, for every path declared, against a route that has no rule.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const csrfRefusal = /CSRF Failed/;
const setsCsrfCookie = (res: { headers: Record<string, unknown> }) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).some((c) => c.startsWith(`${CSRF_COOKIE}=`));

describe("the registry's request rules", () => {
  test('the apps declare the six routes, and the core names none of them', () => {
    expect(appRequestRules).toEqual({
      readsOwnBody: ['POST /api/v2/photos/', 'PATCH /api/v2/profiles/me/'],
      multipartFirstField: ['/events/add/', '/staff/events/new/', '/staff/events/edit/', '/staff/ads/save/', '/staff/videos/save/', '/staff/contests/save/'],
      csrfExempt: ['/newsletters/unsubscribe/'],
      csrfIssue: ['/api/v2/profiles/hi/'],
    });
    const core = fs.readFileSync(path.join(__dirname, '..', 'app.ts'), 'utf8');
    expect(core).not.toMatch(/\/(api|events|staff|newsletters|accounts|profiles|photos)\//);
    // Every path app.ts spells out is its own (the static files), none an app's.
    const literalPaths = [...core.matchAll(/['"`]((?:[A-Z]+ )?\/[^'"`]*)['"`]/g)].map((m) => m[1]);
    expect(literalPaths.filter((p) => !/^\/static(\/|$)/.test(p))).toEqual([]);
  });

  test("a route that reads its own body gets it unread: more than the core's 1 MB of JSON is not refused 413 before the route", async () => {
    const big = { full_name: 'x'.repeat(1_500_000) };
    const agent = guestAgent(t.app);
    const control = await agent.post('/api/v2/nothing-here/').set('X-CSRFToken', agent.csrfToken).send(big);
    expect(control.status).toBe(413);
    for (const route of appRequestRules.readsOwnBody) {
      const [method, routePath] = route.split(' ');
      const guest = guestAgent(t.app);
      const res = await guest[method.toLowerCase() as 'post' | 'patch'](routePath).set('X-CSRFToken', guest.csrfToken).send(big);
      // The route's own checks answer (a guest: not signed in), not the core's parser.
      expect([route, res.status]).toEqual([route, 401]);
    }
  });

  test('a multipart form whose token is its first field passes the CSRF middleware without the header; another path is refused', async () => {
    const form = (urlPath: string) => {
      const guest = guestAgent(t.app);
      return guest.post(urlPath).set('Accept', 'application/json').field('csrfmiddlewaretoken', guest.csrfToken).field('title', 'Jazz');
    };
    const control = await form('/newsletters/');
    expect(control.status).toBe(403);
    expect(control.text).toMatch(/CSRF Failed: CSRF token missing/);
    for (const urlPath of appRequestRules.multipartFirstField) {
      const res = await form(urlPath);
      // Left to the route, whose member or staff check answers first here.
      expect([urlPath, csrfRefusal.test(res.text), res.status === 404]).toEqual([urlPath, false, false]);
    }
  });

  test('an exempt path takes a POST without cookie, token or Origin; another POST without a token is refused as CSRF', async () => {
    const control = await request(t.app).post('/newsletters/').type('form').send('List-Unsubscribe=One-Click');
    expect(control.status).toBe(403);
    expect(control.text).toMatch(csrfRefusal);
    for (const urlPath of appRequestRules.csrfExempt) {
      const res = await request(t.app).post(urlPath).type('form').send('List-Unsubscribe=One-Click');
      // The route's own answer: the one-click POST without the URL's signed token is a 400.
      expect([urlPath, csrfRefusal.test(res.text), res.status]).toEqual([urlPath, false, 400]);
    }
  });

  test("an issuing path gives a member without a token the CSRF cookie; another member request does not", async () => {
    const session = await memberSessionCookie(t, await createMember(t.ctx));
    const control = await request(t.app).get('/api/v2/profiles/me/').set('Cookie', session);
    expect(control.status).toBe(200);
    expect(setsCsrfCookie(control)).toBe(false);
    for (const urlPath of appRequestRules.csrfIssue) {
      const res = await request(t.app).get(urlPath).set('Cookie', session);
      expect([urlPath, res.status, setsCsrfCookie(res)]).toEqual([urlPath, 200, true]);
    }
  });
});
