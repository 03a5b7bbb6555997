import request from 'supertest';
import { createTestContext, guestAgent, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';
import { legalAge } from './age-gate';
import { mainOf } from '../../testing/html-test-helpers';

describe('site pages', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await createArticle(t.ctx.db, { name: 'March <story>', date_published: new Date('2025-03-15T12:00:00Z') });
    // 00:30 on April 1 in Toronto is still March 31 in nothing but UTC: it belongs to April.
    await createArticle(t.ctx.db, { name: 'Early April story', date_published: new Date('2025-04-01T04:30:00Z') });
    await createArticle(t.ctx.db, { name: 'Weed shops guide', type_slug: 'cannabis' });
  });
  afterAll(() => t.close());

  test.each([
    ['/about', 'Data credits'],
    ['/jobs', 'Jobs at'],
    ['/privacy/', 'Privacy policy'],
    ['/termsofservice/', 'Terms of service'],
    ['/archives/', 'Archives'],
  ])('%s renders in the site layout with one h1', async (path, text) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    expect(res.text).toContain(text);
    expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(res.text).toContain('<link rel="canonical"');
    expect(res.headers['cache-control']).toMatch(/max-age=60/);
  });

  describe('archives', () => {
    test('the chooser has Month and Year selects and a Search button, and goes to /archives/{year}/{month}/', async () => {
      const page = await request(t.app).get('/archives/');
      expect(page.text).toContain('<label for="archive-month">Month</label>');
      expect(page.text).toContain('<label for="archive-year">Year</label>');
      expect(page.text).toContain('>Search</button>');
      expect(page.text).toContain('<option value="2004"');
      const res = await request(t.app).get('/archives/?month=03&year=2025');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/archives/2025/03/');
      const bad = await request(t.app).get('/archives/?month=13&year=2025');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('month');
    });

    test('a month lists its articles by the city’s calendar', async () => {
      const march = await request(t.app).get('/archives/2025/03/');
      expect(march.status).toBe(200);
      expect(march.text).toContain('March 2025');
      expect(march.text).toContain('March &lt;story&gt;');
      expect(mainOf(march.text)).not.toContain('Early April story');
      const april = await request(t.app).get('/archives/2025/04/');
      expect(april.text).toContain('Early April story');
    });

    test('months that cannot exist are 404s', async () => {
      for (const path of ['/archives/2025/13/', '/archives/1999/01/', '/archives/2999/01/', '/archives/abcd/01/']) {
        expect([path, (await request(t.app).get(path)).status]).toEqual([path, 404]);
      }
    });
  });

  describe('age gate', () => {
    test('the legal age follows the province', () => {
      expect(legalAge('ON')).toBe(19);
      expect(legalAge('QC')).toBe(21);
      expect(legalAge('AB')).toBe(18);
    });

    test('without the cookie the cannabis page carries the gate dialog over its content, and a no-JavaScript way to the gate page', async () => {
      const res = await request(t.app).get('/cannabis/');
      expect(res.status).toBe(200);
      expect(mainOf(res.text)).toContain('Weed shops guide');
      expect(res.text).toContain('data-island="age-gate"');
      expect(res.text).toContain('<noscript><meta http-equiv="refresh" content="0; url=/age-gate/?next=%2Fcannabis%2F"></noscript>');
      expect(res.text).toMatch(/"age-gate":\{"legalAge":19\}/);
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.headers.vary).toMatch(/Cookie/);
    });

    test('the gated page is the same for every reader who has not answered (shareable by caches)', async () => {
      const a = await guestAgent(t.app).get('/cannabis/');
      const b = await guestAgent(t.app).get('/cannabis/');
      expect(a.text).toBe(b.text);
      expect(a.headers['cache-control']).toMatch(/max-age=60/);
    });

    test('a reader who accepted gets the page without the gate', async () => {
      const res = await request(t.app).get('/cannabis/').set('Cookie', 'is_user_over_18=true');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Weed shops guide');
      expect(res.text).not.toContain('data-island="age-gate"');
      expect(res.text).not.toContain('http-equiv="refresh"');
    });

    test('the full gate page (no JavaScript) asks with the province’s age and returns to the page asked for', async () => {
      const res = await request(t.app).get('/age-gate/?next=%2Fcannabis%2F');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Are you 19 or older?');
      expect(res.text).toContain('name="remember"');
      expect(res.text).toContain('name="next" value="/cannabis/"');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      for (const [province, age] of [['QC', 21], ['AB', 18]] as const) {
        const other = await request(t.rebuild({ CITY_PROVINCE: province })).get('/age-gate/');
        expect(other.text).toContain(`Are you ${age} or older?`);
      }
      const gated = await request(t.rebuild({ CITY_PROVINCE: 'QC' })).get('/cannabis/');
      expect(gated.text).toMatch(/"age-gate":\{"legalAge":21\}/);
    });

    test('the gate page sends an answered reader on (yes) or home (no), and never off the site', async () => {
      const yes = await request(t.app).get('/age-gate/?next=%2Fcannabis%2Fsome%2F').set('Cookie', 'is_user_over_18=true');
      expect([yes.status, yes.headers.location]).toEqual([302, '/cannabis/some/']);
      const no = await request(t.app).get('/age-gate/').set('Cookie', 'is_user_over_18=false');
      expect([no.status, no.headers.location]).toEqual([302, '/']);
      const away = await request(t.app).get('/age-gate/?next=https%3A%2F%2Fevil.example%2F');
      expect(away.text).toContain('name="next" value="/cannabis/"');
    });

    test('accepting with remember sets the cookie for 30 days and returns to the page asked for', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/age-gate/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, answer: 'yes', remember: 'on', next: '/cannabis/' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/cannabis/');
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('is_user_over_18=true'));
      expect(cookie).toMatch(/Max-Age=2592000/);
      const hub = await agent.get('/cannabis/');
      expect(hub.text).toContain('Weed shops guide');
    });

    test('accepting without remember keeps the answer for the browser session only', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/age-gate/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, answer: 'yes', next: 'https://evil.example/' });
      expect(res.headers.location).toBe('/cannabis/');
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('is_user_over_18=true'));
      expect(cookie).not.toMatch(/Max-Age|Expires/);
    });

    test('declining goes home, and a stored "false" sends the reader home', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/age-gate/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, answer: 'no' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/');
      const again = await request(t.app).get('/cannabis/').set('Cookie', 'is_user_over_18=false');
      expect(again.status).toBe(302);
      expect(again.headers.location).toBe('/');
    });

    test('a missing answer is a 400 naming it', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/age-gate/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
      expect(res.status).toBe(400);
      expect(res.text).toContain('answer');
    });
  });
});
