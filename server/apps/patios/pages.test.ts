import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';
import { patioSeasonStart } from './queries';

// The Patio Guide (/patios/): places with the patio feature in a list and on the map island,
// the season's patio stories, both flag states, and the empty state.

describe('Patio Guide', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const [patio] = await db('features').insert({ name: 'Patio', slug: 'patio' }).returning('id');
    const [wifi] = await db('features').insert({ name: 'Wi-Fi', slug: 'wi-fi' }).returning('id');
    const typeId = await createListingType(db, { name: 'Bars', slug: 'bars' });
    const withPatio = [
      await createListing(db, { name: 'Bar Raval', type_id: typeId, latitude: 43.6556, longitude: -79.4113 }),
      await createListing(db, { name: 'The Rooftop <Terrace>', type_id: typeId, latitude: 43.6452, longitude: -79.3806 }),
      await createListing(db, { name: 'Backyard Cafe', type_id: typeId, latitude: null, longitude: null }),
    ];
    const without = await createListing(db, { name: 'Basement Pub', type_id: typeId });
    await db('listing_features').insert([
      ...withPatio.map((id) => ({ listing_id: id, feature_id: patio.id })),
      { listing_id: without, feature_id: wifi.id },
    ]);
    await createArticle(db, { name: 'The best new patios in Toronto this season', type_slug: 'food', date_published: new Date() });
    await createArticle(db, { name: 'Patio season 2019 opens early', type_slug: 'food', date_published: new Date(Date.UTC(2019, 4, 2)) });
    await createArticle(db, { name: 'A story about brunch', type_slug: 'food', body: 'They plan to add a patio next summer.', date_published: new Date() });
  });
  afterAll(() => t.close());

  test('lists every place with a patio, and only those, with the map island for the mapped ones', async () => {
    const res = await request(t.app).get('/patios/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Patio Guide');
    expect(res.text).toContain('Bar Raval');
    expect(res.text).toContain('The Rooftop &lt;Terrace&gt;');
    expect(res.text).toContain('Backyard Cafe');
    expect(res.text).not.toContain('Basement Pub');
    expect(res.text).toContain('3 places with a patio');
    expect(res.text).toContain('data-island="patio-map"');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1]);
    expect(state['patio-map'].listings.map((l: { name: string }) => l.name).sort()).toEqual(['Bar Raval', 'The Rooftop <Terrace>']);
    expect(res.text).toContain('<link rel="canonical" href="http://localhost:3000/patios/">');
  });

  test('shows this season’s patio stories and earlier ones, by headline only', async () => {
    const res = await request(t.app).get('/patios/');
    const season = patioSeasonStart(new Date(), t.config.city.timeZone).getFullYear();
    expect(res.text).toContain(`Patio season ${season}`);
    expect(res.text).toContain('The best new patios in Toronto this season');
    expect(res.text).toContain('From earlier patio seasons');
    expect(res.text).toContain('Patio season 2019 opens early');
    // (the navbar's latest stories may name it; the page's cards do not)
    expect(res.text).not.toMatch(/card__title[^>]*>A story about brunch/);
  });

  test('the patio season starts in April in the city’s time zone', () => {
    const tz = 'Canada/Eastern';
    expect(patioSeasonStart(new Date('2026-03-31T12:00:00Z'), tz).toISOString()).toBe('2025-04-01T04:00:00.000Z');
    expect(patioSeasonStart(new Date('2026-04-01T04:00:00Z'), tz).toISOString()).toBe('2026-04-01T04:00:00.000Z');
    expect(patioSeasonStart(new Date('2026-11-24T12:00:00Z'), tz).toISOString()).toBe('2026-04-01T04:00:00.000Z');
  });

  test('a bad page answers 400 naming page, one past the end goes to the first page; no trailing slash redirects', async () => {
    const bad = await request(t.app).get('/patios/?page=x');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('page');
    const past = await request(t.app).get('/patios/?page=2');
    expect([past.status, past.headers.location]).toEqual([302, '/patios/']);
    const moved = await request(t.app).get('/patios');
    expect([moved.status, moved.headers.location]).toEqual([301, '/patios/']);
  });

  test('with the flag off (or listings off) the link is gone and /patios/ is a 404', async () => {
    for (const env of [{ FEATURE_PATIO_GUIDE: 'false' }, { FEATURE_LISTINGS: 'false' }]) {
      const app = t.rebuild(env);
      expect((await request(app).get('/patios/')).status).toBe(404);
      expect((await request(app).get('/')).text).not.toContain('href="/patios/"');
      expect((await request(app).get('/sitemaps/pages.xml')).text).not.toContain('/patios/');
    }
    expect((await request(t.app).get('/')).text).toContain('href="/patios/"');
    expect((await request(t.app).get('/sitemaps/pages.xml')).text).toContain('<loc>http://localhost:3000/patios/</loc>');
  });

  test('with no place with a patio the page says so (never a 404)', async () => {
    await t.ctx.db('listing_features').delete();
    const res = await request(t.app).get('/patios/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('No places with a patio are listed yet.');
    expect(res.text).not.toContain('data-island="patio-map"');
  });
});
