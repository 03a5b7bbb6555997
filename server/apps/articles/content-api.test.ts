import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createNeighbourhood, createSubwayStop, createVideo } from '../../testing/fixtures';

// The public lists beside listings and events: articles, contests, videos, neighbourhoods and
// subway stops. Default page sizes from the specs, orderings sorted, pages disjoint.

describe('public content lists', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    for (let i = 0; i < 15; i += 1) {
      await createArticle(db, { name: `${String.fromCharCode(90 - i)} news story`, type_slug: i % 3 === 0 ? 'food' : 'news', date_published: new Date(Date.UTC(2026, 0, 1 + i)) });
    }
    await createArticle(db, { name: 'Draft story', status: 'draft' });
    await createArticle(db, { name: 'Scheduled story', date_published: new Date(Date.now() + 86400_000) });
    for (let i = 0; i < 40; i += 1) await createVideo(db, { title: `Video ${i}`, category: i % 2 ? 'Food' : 'City Life', date_published: new Date(Date.UTC(2025, 0, 1 + i)) });
    await createContest(db, { title: 'Open contest', end_date: new Date(Date.now() + 86400_000), date_published: new Date(Date.now() - 3 * 86400_000) });
    await createContest(db, { title: 'Closed contest', end_date: new Date(Date.now() - 86400_000), date_published: new Date(Date.now() - 5 * 86400_000) });
    await createNeighbourhood(db, { id: 1, name: 'West Humber-Clairville' });
    await createNeighbourhood(db, { id: 95, name: 'Annex' });
    await createSubwayStop(db, { name: 'Bloor-Yonge' });
    await db('subway_stops').insert({ slug: 'st-george', name: 'St George', lines: '1;2', latitude: 43.668, longitude: -79.3997 });
  });
  afterAll(() => t.close());

  describe('GET /api/v2/articles/', () => {
    test('answers 12 published articles, newest first, by default', async () => {
      const res = await request(t.app).get('/api/v2/articles/');
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(15);
      expect(res.body.results).toHaveLength(12);
      const dates = res.body.results.map((a: { date_published: string }) => a.date_published);
      expect(dates).toEqual([...dates].sort().reverse());
      const names = res.body.results.map((a: { name: string }) => a.name);
      expect(names).not.toContain('Draft story');
      expect(names).not.toContain('Scheduled story');
    });

    test('filters by type slug and orders by name', async () => {
      const res = await request(t.app).get('/api/v2/articles/?type=food&ordering=name');
      expect(res.body.count).toBe(5);
      const names = res.body.results.map((a: { name: string }) => a.name);
      expect(names).toEqual([...names].sort());
      expect(res.body.results[0].type.share_url).toMatch(/\/food\/$/);
      expect((await request(t.app).get('/api/v2/articles/?type=nope')).body.count).toBe(0);
    });

    test('pages are disjoint; bundle_type picks the fields', async () => {
      const a = (await request(t.app).get('/api/v2/articles/?limit=8')).body.results;
      const b = (await request(t.app).get('/api/v2/articles/?limit=8&offset=8')).body.results;
      expect(new Set([...a, ...b].map((x: { id: number }) => x.id)).size).toBe(15);
      const simple = (await request(t.app).get('/api/v2/articles/?bundle_type=simple&limit=1')).body.results[0];
      expect(simple).not.toHaveProperty('excerpt');
      const large = (await request(t.app).get('/api/v2/articles/?bundle_type=large&limit=1')).body.results[0];
      expect(large).toHaveProperty('author_name');
    });

    test.each([['ordering=-name', 'ordering'], ['limit=10000', 'limit'], ['type=%3Cscript%3E', 'type'], ['bundle_type=x', 'bundle_type']])('bad input %s is a 400 naming %s', async (qs, field) => {
      const res = await request(t.app).get(`/api/v2/articles/?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty(field);
    });
  });

  describe('GET /api/v2/videos/', () => {
    test('answers 36 to a page, newest first, optionally one category', async () => {
      const res = await request(t.app).get('/api/v2/videos/');
      expect(res.body.count).toBe(40);
      expect(res.body.results).toHaveLength(36);
      expect(res.body.results[0].title).toBe('Video 39');
      const food = await request(t.app).get('/api/v2/videos/?category=food');
      expect(food.body.count).toBe(20);
      expect(food.body.results.every((v: { category: { name: string } }) => v.category.name === 'Food')).toBe(true);
      expect((await request(t.app).get('/api/v2/videos/?ordering=sideways')).status).toBe(400);
    });
  });

  describe('GET /api/v2/contests/', () => {
    test('derives is_expired and filters on it', async () => {
      const all = await request(t.app).get('/api/v2/contests/');
      expect(all.body.results.map((c: { title: string; is_expired: boolean }) => [c.title, c.is_expired])).toEqual([
        ['Open contest', false],
        ['Closed contest', true],
      ]);
      expect((await request(t.app).get('/api/v2/contests/?expired=1')).body.results.map((c: { title: string }) => c.title)).toEqual(['Closed contest']);
      expect((await request(t.app).get('/api/v2/contests/?expired=0')).body.results.map((c: { title: string }) => c.title)).toEqual(['Open contest']);
      expect((await request(t.app).get('/api/v2/contests/?ordering=end_date')).body.results[0].title).toBe('Closed contest');
      expect((await request(t.app).get('/api/v2/contests/?expired=maybe')).status).toBe(400);
    });
  });

  describe('GET /api/v2/neighbourhoods/ and /api/v2/subway-stops/', () => {
    test('neighbourhoods by name; boundaries only on request', async () => {
      const res = await request(t.app).get('/api/v2/neighbourhoods/');
      expect(res.body.count).toBe(2);
      expect(res.body.results[0]).toMatchObject({ id: 95, name: 'Annex', url: expect.stringMatching(/\/neighbourhoods\/annex\/$/) });
      expect(res.body.results[0]).not.toHaveProperty('boundaries');
      const withBoundaries = await request(t.app).get('/api/v2/neighbourhoods/?boundaries=1');
      expect(withBoundaries.body.results[0].boundaries).toMatchObject({ type: 'MultiPolygon', coordinates: expect.any(Array) });
      expect((await request(t.app).get('/api/v2/neighbourhoods/?boundaries=yes')).status).toBe(400);
    });

    test('subway stops with coordinates and lines', async () => {
      const res = await request(t.app).get('/api/v2/subway-stops/');
      expect(res.body.count).toBe(2);
      expect(res.body.results[1]).toEqual({ id: expect.any(Number), name: 'St George', slug: 'st-george', lines: ['1', '2'], coordinates: { latitude: 43.668, longitude: -79.3997 } });
    });
  });
});
