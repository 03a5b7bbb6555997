import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createListing, createListingSubType, createListingType, createNeighbourhood, createSubwayStop } from '../../testing/fixtures';
import { EARTH_RADIUS_KM } from '../../../shared/constants';
import { parseListingSearchParams } from './search-params';
import { searchListings } from './queries';
import { smartReviewScore } from './smart-review';

// Every listing filter and ordering of spec 2 §3 against a small, known city.

function haversineKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

type Item = { id: number; name: string; rating: number | null; favourite_count: number; date_published: string; distance?: number; coordinates: { latitude: number; longitude: number } | null };

describe('GET /api/v2/listings/', () => {
  let t: TestContext;
  let restaurants: number;
  let shops: number;
  let pizza: number;
  let annex: number;
  let union: number;
  const ids: Record<string, number> = {};
  const CENTRE = { latitude: 43.6532, longitude: -79.3832 };

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    shops = await createListingType(db, { name: 'Shops', slug: 'shops' });
    pizza = await createListingSubType(db, restaurants, { name: 'Pizza', slug: 'pizza' });
    await createListingSubType(db, shops, { name: 'Pizza Ovens', slug: 'pizza' }); // same slug, other type
    annex = await createNeighbourhood(db, { id: 95, name: 'Annex' });
    union = await createSubwayStop(db, { name: 'Union', latitude: 43.6453, longitude: -79.3806 });
    await createSubwayStop(db, { name: 'Finch', latitude: 43.7806, longitude: -79.4148 });
    const [patio] = await db('features').insert({ name: 'Patio', slug: 'patio' }).returning('id');
    const [wifi] = await db('features').insert({ name: 'Wi-Fi', slug: 'wifi' }).returning('id');
    const [delivery] = await db('services').insert({ name: 'Delivery', slug: 'delivery' }).returning('id');

    // A grid of places radiating from the centre, with varied ratings and dates.
    const specs: Array<[string, number, number, Partial<Record<string, unknown>>]> = [
      ['Pizzeria Libretto', 0.001, 0.001, { sub_type_id: pizza, rating: 4.5, favourite_count: 30, smart_review_score: 4.4, appears_in_best_of_lists: true, neighbourhood_id: annex }],
      ['Pizza Pizza', 0.01, -0.01, { sub_type_id: pizza, rating: 2.1, favourite_count: 2, smart_review_score: 2.5 }],
      ['Libretto Pizza Bar', 0.02, 0.02, { sub_type_id: pizza, rating: null, favourite_count: 0, smart_review_score: 0 }],
      ['Alo', -0.008, 0.003, { rating: 4.9, rating_count: 22, favourite_count: 50, smart_review_score: 4.7, appears_in_best_of_lists: true }],
      ['Bar Raval', 0.03, -0.03, { rating: 4.6, favourite_count: 12, smart_review_score: 4.5, neighbourhood_id: annex }],
      ['Canoe', -0.004, -0.001, { rating: 4.2, favourite_count: 12, smart_review_score: 4.1 }],
      ['Far Away Diner', 0.5, 0.5, { rating: 3.0, favourite_count: 1, smart_review_score: 3.0 }],
      ['Finch Noodle', 0.127, -0.031, { rating: 3.8, favourite_count: 4, smart_review_score: 3.7 }],
      ['Union Chicken', -0.0075, 0.0024, { rating: 4.0, favourite_count: 9, smart_review_score: 3.9 }],
      ['Nowhere Cafe', NaN, NaN, { rating: 4.1, favourite_count: 3, smart_review_score: 4.0 }],
      ['100% Pure_Juice', 0.005, 0.005, { rating: 3.3, favourite_count: 5, smart_review_score: 3.2 }],
    ];
    let day = 0;
    for (const [name, dLat, dLng, extra] of specs) {
      day += 1;
      ids[name] = await createListing(db, {
        name,
        type_id: restaurants,
        latitude: Number.isNaN(dLat) ? null : CENTRE.latitude + dLat,
        longitude: Number.isNaN(dLng) ? null : CENTRE.longitude + dLng,
        date_published: new Date(Date.UTC(2026, 0, day * 3 % 11 + 1)),
        ...extra,
      });
    }
    ids['Pizza Oven Store'] = await createListing(db, { name: 'Pizza Oven Store', type_id: shops, sub_type_id: (await db('listing_sub_types').where({ type_id: shops }).first('id')).id });
    await db('listing_features').insert([
      { listing_id: ids['Pizzeria Libretto'], feature_id: patio.id },
      { listing_id: ids['Pizzeria Libretto'], feature_id: wifi.id },
      { listing_id: ids['Alo'], feature_id: patio.id },
      { listing_id: ids['Canoe'], feature_id: wifi.id },
    ]);
    await db('listing_services').insert([{ listing_id: ids['Pizza Pizza'], service_id: delivery.id }]);
  });
  afterAll(() => t.close());

  const get = async (qs: string) => {
    const res = await request(t.app).get(`/api/v2/listings/?${qs}`);
    return res;
  };
  const names = (res: request.Response) => (res.body.results as Item[]).map((r) => r.name);

  test('answers the paginated list, 40 per page by default, ordered by name', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(12);
    expect(res.body.next).toBeNull();
    const list = names(res);
    expect(list).toEqual([...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const first = res.body.results[0];
    expect(first).toMatchObject({ share_url: expect.stringMatching(/^http.*\/restaurants\/.+-\d+\/$/), type: { slug: 'restaurants' }, user_rating: null });
  });

  test('pages are disjoint and together cover every listing in every ordering', async () => {
    for (const ordering of ['name', '-rating', '-favourite_count', '-date_published', 'smart_review']) {
      const seen: number[] = [];
      for (let offset = 0; offset < 12; offset += 5) {
        const res = await get(`ordering=${ordering}&limit=5&offset=${offset}`);
        expect(res.status).toBe(200);
        seen.push(...(res.body.results as Item[]).map((r) => r.id));
      }
      expect(seen).toHaveLength(12);
      expect(new Set(seen).size).toBe(12);
    }
  });

  test('orders by rating, favourites and date, highest first; unrated last', async () => {
    const byRating = (await get('ordering=-rating')).body.results as Item[];
    const ratings = byRating.map((r) => r.rating);
    expect(ratings.slice(0, 3)).toEqual([4.9, 4.6, 4.5]);
    expect(ratings[ratings.length - 1]).toBeNull();
    const favs = ((await get('ordering=-favourite_count')).body.results as Item[]).map((r) => r.favourite_count);
    expect(favs).toEqual([...favs].sort((a, b) => b - a));
    const dates = ((await get('ordering=-date_published')).body.results as Item[]).map((r) => r.date_published);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test('smart_review orders by the Bayesian score column', async () => {
    const list = names(await get('ordering=smart_review&limit=3'));
    expect(list).toEqual(['Alo', 'Bar Raval', 'Pizzeria Libretto']);
    // The formula: one 5-star rating does not beat forty ratings averaging 4.6.
    const one = smartReviewScore({ n: 1, sum: 5, recent: 0 });
    const forty = smartReviewScore({ n: 40, sum: 184, recent: 0 });
    expect(forty).toBeGreaterThan(one);
    expect(smartReviewScore({ n: 0, sum: 0, recent: 0 })).toBe(0);
  });

  test('keywords match names by prefix first, then substring, case-insensitively', async () => {
    const res = await get('keywords=PIZZ');
    expect(names(res)).toEqual(['Pizza Oven Store', 'Pizza Pizza', 'Pizzeria Libretto', 'Libretto Pizza Bar']);
    expect(names(await get('keywords=libretto'))).toEqual(['Libretto Pizza Bar', 'Pizzeria Libretto']);
  });

  test('one or two letters match only the start of names', async () => {
    expect(names(await get('keywords=pi'))).toEqual(['Pizza Oven Store', 'Pizza Pizza', 'Pizzeria Libretto']);
  });

  test('keywords treat % and _ literally', async () => {
    expect(names(await get(`keywords=${encodeURIComponent('100%')}`))).toEqual(['100% Pure_Juice']);
    expect(names(await get('keywords=00%25'))).toEqual(['100% Pure_Juice']);
    expect(names(await get('keywords=e_j'))).toEqual(['100% Pure_Juice']);
    expect((await get('keywords=%25')).body.count).toBe(0);
  });

  test('type and sub_type filter by id or slug; a sub-type slug stays within its type', async () => {
    expect((await get('type=shops')).body.count).toBe(1);
    expect((await get(`type=${shops}`)).body.count).toBe(1);
    expect((await get(`sub_type=${pizza}`)).body.count).toBe(3);
    expect((await get('type=restaurants&sub_type=pizza')).body.count).toBe(3);
    expect((await get('sub_type=pizza')).body.count).toBe(4);
    expect((await get('type=no-such-type')).body).toMatchObject({ count: 0, results: [] });
  });

  test('default_neighborhood, best-of, service and features (all must match) filter', async () => {
    expect(names(await get(`default_neighborhood=${annex}`)).sort()).toEqual(['Bar Raval', 'Pizzeria Libretto']);
    expect(names(await get('appears_in_best_of_lists=1')).sort()).toEqual(['Alo', 'Pizzeria Libretto']);
    expect((await get('appears_in_best_of_lists=false')).body.count).toBe(10);
    expect(names(await get('service=delivery'))).toEqual(['Pizza Pizza']);
    expect(names(await get('features=patio'))).toEqual(['Alo', 'Pizzeria Libretto']);
    expect(names(await get('features=patio,wifi'))).toEqual(['Pizzeria Libretto']);
    expect(names(await get('features=wifi'))).toEqual(['Canoe', 'Pizzeria Libretto']);
    expect((await get('features=patio,unknown')).body.count).toBe(0);
  });

  test('latitude/longitude answer distance in km with 2 decimals, nearest first, across pages', async () => {
    const all: Item[] = [];
    for (let offset = 0; offset < 12; offset += 4) {
      const res = await get(`latitude=${CENTRE.latitude}&longitude=${CENTRE.longitude}&limit=4&offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(12);
      all.push(...res.body.results);
    }
    expect(new Set(all.map((r) => r.id)).size).toBe(12);
    const withCoords = all.filter((r) => r.coordinates);
    const distances = withCoords.map((r) => r.distance!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const r of withCoords) {
      expect(r.distance).toBeCloseTo(haversineKm(CENTRE, r.coordinates!), 2);
      expect(String(r.distance)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    // A place without coordinates comes last; the far one just before it.
    expect(all[all.length - 1].name).toBe('Nowhere Cafe');
    expect(all[all.length - 2].name).toBe('Far Away Diner');
    expect(all[0].name).toBe('Pizzeria Libretto');
  });

  test('ordering=distance needs coordinates or a subway stop', async () => {
    const res = await get('ordering=distance');
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty('ordering');
  });

  test('a radius limits a point search', async () => {
    const res = await get(`latitude=${CENTRE.latitude}&longitude=${CENTRE.longitude}&radius=1`);
    expect(res.body.count).toBeGreaterThan(0);
    for (const r of res.body.results as Item[]) expect(r.distance!).toBeLessThanOrEqual(1);
    expect(res.body.count).toBe((res.body.results as Item[]).length);
  });

  test('a subway stop answers listings near the station, nearest first', async () => {
    const stop = { latitude: 43.6453, longitude: -79.3806 };
    for (const param of ['subway_stop', 'subwayStopId']) {
      const res = await get(`${param}=${union}`);
      expect(res.status).toBe(200);
      const items = res.body.results as Item[];
      expect(items.length).toBeGreaterThan(0);
      expect(items.slice(0, 2).map((r) => r.name)).toEqual(['Alo', 'Union Chicken']);
      for (const r of items) expect(haversineKm(stop, r.coordinates!)).toBeLessThanOrEqual(1);
      const d = items.map((r) => r.distance!);
      expect(d).toEqual([...d].sort((a, b) => a - b));
    }
    expect((await get('subway_stop=999999')).body.count).toBe(0);
  });

  test('bbox answers only listings inside the box', async () => {
    const box = [CENTRE.longitude - 0.005, CENTRE.latitude - 0.005, CENTRE.longitude + 0.005, CENTRE.latitude + 0.005];
    const res = await get(`bbox=${box.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(2);
    for (const r of res.body.results as Item[]) {
      expect(r.coordinates!.longitude).toBeGreaterThanOrEqual(box[0]);
      expect(r.coordinates!.latitude).toBeGreaterThanOrEqual(box[1]);
      expect(r.coordinates!.longitude).toBeLessThanOrEqual(box[2]);
      expect(r.coordinates!.latitude).toBeLessThanOrEqual(box[3]);
    }
    expect(names(res)).not.toContain('Bar Raval');
  });

  test('bundle_type chooses the field set', async () => {
    const simple = (await get('bundle_type=simple&limit=1')).body.results[0];
    expect(Object.keys(simple).sort()).toEqual(['address', 'appears_in_best_of_lists', 'coordinates', 'id', 'name', 'rating', 'rating_count', 'share_url']);
    const medium = (await get('limit=1')).body.results[0];
    expect(medium).toHaveProperty('sub_type');
    expect(medium).not.toHaveProperty('description');
    const large = (await get('bundle_type=large&limit=1')).body.results[0];
    expect(large).toHaveProperty('description');
    expect(large).toHaveProperty('rating_count');
  });

  test('list items carry rating_count as the detail does (the RATING order needs it to be read)', async () => {
    for (const bundle of ['simple', 'medium', 'large']) {
      const res = await get(`bundle_type=${bundle}&keyword=Alo`);
      const alo = (res.body.results as Array<Item & { rating_count: number }>).find((r) => r.name === 'Alo');
      expect(alo).toMatchObject({ rating: 4.9, rating_count: 22 });
    }
    const unrated = (await get('keyword=Libretto Pizza Bar')).body.results.find((r: Item) => r.name === 'Libretto Pizza Bar');
    expect(unrated).toMatchObject({ rating: null, rating_count: 0 });
    const detail = await request(t.app).get(`/api/v2/listings/${ids['Alo']}/`);
    expect(detail.body.rating_count).toBe(22);
  });

  test.each([
    ['ordering=-bogus', 'ordering'],
    ['bbox=1,2,3', 'bbox'],
    ['bbox=a,b,c,d', 'bbox'],
    ['bbox=10,10,5,5', 'bbox'],
    ['bbox=-200,0,0,10', 'bbox'],
    ['latitude=91&longitude=0', 'latitude'],
    ['latitude=43.6', 'longitude'],
    ['latitude=abc&longitude=1', 'latitude'],
    ['limit=10000', 'limit'],
    ['limit=0', 'limit'],
    ['offset=-3', 'offset'],
    ['bundle_type=huge', 'bundle_type'],
    ['appears_in_best_of_lists=maybe', 'appears_in_best_of_lists'],
    ['default_neighborhood=abc', 'default_neighborhood'],
    ['features=patio,%27%3B%20drop%20table%20listings', 'features'],
    ['type=%27%20or%201%3D1', 'type'],
    ['type[a]=1', 'type'],
    ['radius=5', 'radius'],
    // Ids no integer column holds, and text PostgreSQL cannot hold (it used to answer 500).
    ['type=12345678901234567890', 'type'],
    ['sub_type=12345678901234567890', 'sub_type'],
    ['type=2147483648', 'type'],
    ['keywords=pizza%00', 'keywords'],
    ['keywords=%00', 'keywords'],
  ])('bad input %s is a 400 naming %s', async (qs, field) => {
    const res = await get(qs);
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty(field);
  });

  test('a NUL in keywords gets DRF\'s message under the field', async () => {
    expect((await get('keywords=pi%00zza')).body).toEqual({ keywords: ['Null characters are not allowed.'] });
  });

  test('SQL in keywords is only text', async () => {
    const res = await get(`keywords=${encodeURIComponent("'; drop table listings; --")}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
    expect((await get('')).body.count).toBe(12);
  });

  test('the service can be called with parsed params (the hub pages do)', async () => {
    const params = parseListingSearchParams({ type: 'restaurants', ordering: '-rating', limit: '2' });
    const page = await searchListings(t.ctx.db, params, { siteUrl: 'https://example.test' });
    expect(page.count).toBe(11);
    expect(page.results.map((r) => r.name)).toEqual(['Alo', 'Bar Raval']);
    expect(() => parseListingSearchParams({ ordering: 'nope' })).toThrow();
  });
});

describe('GET /api/v2/listings/{id}/ and the option lists', () => {
  let t: TestContext;
  let listingId: number;
  beforeAll(async () => {
    t = await createTestContext();
    const type = await createListingType(t.ctx.db, { name: 'Bars', slug: 'bars' });
    await createListingSubType(t.ctx.db, type, { name: 'Wine Bars', slug: 'wine-bars' });
    await createListingSubType(t.ctx.db, type, { name: 'Dive Bars', slug: 'dive-bars' });
    listingId = await createListing(t.ctx.db, { name: 'Bar Isabel', type_id: type, description: 'Tapas.' });
    await t.ctx.db('features').insert([{ name: 'Patio', slug: 'patio' }, { name: 'Brunch', slug: 'brunch' }]);
    await t.ctx.db('services').insert([{ name: 'Takeout', slug: 'takeout' }]);
  });
  afterAll(() => t.close());

  test('a listing answers every field; a signed-in member sees their rating', async () => {
    const guest = await request(t.app).get(`/api/v2/listings/${listingId}/`);
    expect(guest.status).toBe(200);
    expect(guest.body).toMatchObject({ id: listingId, name: 'Bar Isabel', description: 'Tapas.', user_rating: null });
    const member = await createMember(t.ctx);
    const [rating] = await t.ctx.db('ratings').insert({ profile_id: member.id, listing_id: listingId, rating: 4 }).returning('id');
    const agent = await memberAgent(t, member);
    const mine = await agent.get(`/api/v2/listings/${listingId}/`);
    expect(mine.body.user_rating).toEqual({ id: rating.id, rating: 4 });
    const list = await agent.get('/api/v2/listings/');
    expect(list.body.results[0].user_rating).toEqual({ id: rating.id, rating: 4 });
    const other = await memberAgent(t, await createMember(t.ctx));
    expect((await other.get(`/api/v2/listings/${listingId}/`)).body.user_rating).toBeNull();
  });

  test('an unknown listing is a 404, and so is an id that is not one or that no integer column holds', async () => {
    for (const id of ['999999', '2147480000', '2147483647', '2147483648', '123456789012345678901', 'abc', '0', '-1', '1e309']) {
      const res = await request(t.app).get(`/api/v2/listings/${id}/`);
      expect([id, res.status, res.body]).toEqual([id, 404, { detail: 'Not found.' }]);
    }
  });

  test('services and features answer name and slug options', async () => {
    const features = await request(t.app).get('/api/v2/listings/features/');
    expect(features.body.results.map((f: { slug: string }) => f.slug)).toEqual(['brunch', 'patio']);
    expect(features.body.results[0]).toEqual({ id: expect.any(Number), name: 'Brunch', slug: 'brunch' });
    const services = await request(t.app).get('/api/v2/listings/services/');
    expect(services.body).toMatchObject({ count: 1, results: [{ name: 'Takeout', slug: 'takeout' }] });
  });

  test('listing types answer with their sub-types and indexes', async () => {
    const res = await request(t.app).get('/api/v2/listing-types/');
    expect(res.status).toBe(200);
    const bars = res.body.results.find((x: { slug: string }) => x.slug === 'bars');
    expect(bars.sub_types.map((s: { slug: string; index: number }) => [s.slug, s.index])).toEqual([['wine-bars', 0], ['dive-bars', 1]]);
    expect(bars.sub_types[0].share_url).toMatch(/\/bars\/wine-bars\/$/);
  });
});
