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

    test('without the cookie the cannabis section shows the gate form instead of its content', async () => {
      const res = await request(t.app).get('/cannabis/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Are you 19 or older?');
      expect(res.text).toContain('name="remember"');
      expect(mainOf(res.text)).not.toContain('Weed shops guide');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers.vary).toMatch(/Cookie/);
    });

    test('the gate is the province’s age', async () => {
      const res = await request(t.rebuild({ CITY_PROVINCE: 'QC' })).get('/cannabis/');
      expect(res.text).toContain('Are you 21 or older?');
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
