import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type TestContext } from '../../testing/test-app';
import { createArticleType, createListing, createListingType } from '../../testing/fixtures';

// The one page convention, seen from outside: every paged page reads ?page= the same way (one
// message for a bad number; past the last page, an old link, the first page with the other
// parameters kept: spec 2 §4) and every page answers under its cache
// policy, whichever app renders it.

describe('page conventions', () => {
  let t: TestContext;
  let photosPath: string;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    await createArticleType(db, 'food', 'Food');
    const cafes = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    const listingId = await createListing(db, { name: 'Pilot Coffee', type_id: cafes });
    photosPath = `/cafes/pilot-coffee-${listingId}/photos/`;
  });
  afterAll(() => t.close());

  // One list page of each app that pages with ?page=; each has one page of (no) results here.
  const pagedPages = () => ['/food/', '/best-of/', '/archives/2020/01/', '/cafes/', '/events/', '/videos/', photosPath];

  test('a page number past the last goes to the first page, keeping the other parameters, on every paged page', async () => {
    for (const path of pagedPages()) {
      expect([path, (await request(t.app).get(path)).status]).toEqual([path, 200]);
      const past = await request(t.app).get(`${path}?page=9999`);
      expect([path, past.status, past.headers.location]).toEqual([path, 302, path]);
      const withOthers = await request(t.app).get(`${path}?utm_source=mail&page=2&q=a+b`);
      expect([path, withOthers.status, withOthers.headers.location]).toEqual([path, 302, `${path}?utm_source=mail&q=a+b`]);
      expect([path, (await request(t.app).get(withOthers.headers.location)).status]).toEqual([path, 200]);
    }
  });

  test('a bad page number is a 400 with the same message on every paged page', async () => {
    for (const path of pagedPages()) {
      for (const bad of ['abc', '0', '1.5']) {
        const res = await request(t.app).get(`${path}?page=${bad}`);
        expect([path, bad, res.status]).toEqual([path, bad, 400]);
        expect(res.text).toContain('page: A valid page number is required.');
      }
    }
  });

  test('pages the same for everybody are shared; form pages are private; a member is never stored by a shared cache', async () => {
    const guest = guestAgent(t.app);
    // The cannabis hub with its age-gate dialog is the same for every guest who has not answered.
    for (const path of ['/', '/food/', '/about', '/search?q=coffee', '/places/', '/cafes/', '/events/', '/videos/', '/contests/', '/neighbourhoods/', photosPath, '/cannabis/']) {
      const res = await guest.get(path);
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 200, 'public, max-age=60']);
      expect(res.headers.vary).toMatch(/Cookie/);
    }
    for (const path of ['/contact/', '/newsletters/', '/accounts/login', '/accounts/password-reset/', '/age-gate/']) {
      const res = await guest.get(path);
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 200, 'private, no-cache']);
    }
    // A member's answer renews their session cookie: the same page, but only their browser may keep it.
    const member = await memberAgent(t, await createMember(t.ctx));
    for (const path of ['/', '/food/', '/cafes/']) {
      expect([path, (await member.get(path)).headers['cache-control']]).toEqual([path, 'private, max-age=60']);
    }
    // A form page may show the member's own details: kept by nobody.
    expect((await member.get('/contact/')).headers['cache-control']).toBe('private, no-store');
  });
});
