import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingType, createNeighbourhood } from '../../testing/fixtures';

describe('neighbourhood pages', () => {
  let t: TestContext;
  let annexId: number;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    annexId = await createNeighbourhood(db, { name: 'Annex' });
    await createNeighbourhood(db, { name: 'Corso <b>Italia</b>' });
    await db('neighbourhoods').where({ id: annexId }).update({
      blurb: 'Annex is home to 30,526 people.',
      census: JSON.stringify({ population_2021: 30526, area_km2: 2.8, median_household_income_2020_cad: 65000, renter_households_pct: 70.1, source: 'Statistics Canada, Census 2021' }),
    });
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const bars = await createListingType(db, { name: 'Bars', slug: 'bars' });
    for (let i = 0; i < 8; i++) await createListing(db, { name: `Annex Eatery ${i}`, type_id: restaurants, neighbourhood_id: annexId, smart_review_score: i });
    await createListing(db, { name: 'Annex Bar', type_id: bars, neighbourhood_id: annexId });
  });
  afterAll(() => t.close());

  test('the landing has a GET chooser whose first entry is "Choose a Neighbourhood..." and an SVG of every boundary, each a link', async () => {
    const res = await request(t.app).get('/neighbourhoods/');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<form class="inline-form chooser" action="\/neighbourhoods\/" method="get">/);
    expect(res.text).toMatch(/<select id="neighbourhood-chooser" name="neighbourhood"[^>]*>\s*<option value="">Choose a Neighbourhood...<\/option>\s*<option value="annex">Annex<\/option>/);
    expect(res.text).toContain('<div data-island="neighbourhoods-index-map" id="neighbourhoods-index-map">');
    expect(res.text.match(/<a href="\/neighbourhoods\/[a-z-]+\/" aria-label="[^"]+"><path class="city-map__shape" d="M/g)).toHaveLength(2);
    expect(res.text).toContain('Corso &lt;b&gt;Italia&lt;/b&gt;');
    expect(res.text).not.toContain('<b>Italia</b>');
  });

  test('choosing a neighbourhood without JavaScript redirects to its page; an unknown one is a 404', async () => {
    const res = await request(t.app).get('/neighbourhoods/?neighbourhood=annex');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/neighbourhoods/annex/');
    expect((await request(t.app).get('/neighbourhoods/?neighbourhood=nowhere')).status).toBe(404);
    expect((await request(t.app).get('/neighbourhoods/?neighbourhood=')).status).toBe(200);
  });

  test('a neighbourhood page shows its boundary, blurb, census facts and its places by type with links to the type hubs', async () => {
    const res = await request(t.app).get('/neighbourhoods/annex/');
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toMatch(/<svg class="boundary-map"[^>]*role="img" aria-label="Boundary of Annex">\s*<path class="boundary-map__shape" d="M/);
    expect(res.text).toContain('Annex is home to 30,526 people.');
    expect(res.text).toContain('<dt>Population (2021)</dt><dd>30,526</dd>');
    expect(res.text).toContain('<dt>Median household income (2020)</dt><dd>$65,000</dd>');
    expect(res.text).toContain('Restaurants <span class="muted">(8)</span>');
    expect(res.text.match(/Annex Eatery \d/g)).toHaveLength(6);
    expect(res.text).toContain('Annex Eatery 7'); // the best by smart review come first
    expect(res.text).not.toContain('Annex Eatery 0');
    expect(res.text).toContain(`href="/restaurants/n/${annexId}/annex/">All 8 restaurants in Annex</a>`);
    expect(res.text).toContain(`href="/bars/n/${annexId}/annex/"`);
  });

  test('an unknown neighbourhood is the HTML 404 page, and with listings off every neighbourhood page is 404', async () => {
    const missing = await request(t.app).get('/neighbourhoods/nowhere/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found');
    const app = t.rebuild({ FEATURE_LISTINGS: 'false' });
    expect((await request(app).get('/neighbourhoods/')).status).toBe(404);
    expect((await request(app).get('/neighbourhoods/annex/')).status).toBe(404);
  });
});
