import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingSubType, createListingType, createNeighbourhood, createPhoto, createSubwayStop } from '../../testing/fixtures';

// The places pages, server-rendered: /places/, listing detail and its photos. The hubs have
// their own file (hub-page.test.ts).

describe('places pages', () => {
  let t: TestContext;
  let typeId: number;
  let listingId: number;
  let plainId: number;
  let neighbourhoodId: number;
  const XSS = '<script>alert(1)</script> & Sons';

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const subTypeId = await createListingSubType(db, typeId, { name: 'Pizza', slug: 'pizza' });
    neighbourhoodId = await createNeighbourhood(db, { name: 'Kensington-Chinatown' });
    const stationId = await createSubwayStop(db, { name: 'St Patrick', latitude: 43.6548, longitude: -79.3883 });
    listingId = await createListing(db, {
      name: 'Pizzeria Libretto',
      type_id: typeId,
      sub_type_id: subTypeId,
      neighbourhood_id: neighbourhoodId,
      nearest_subway_stop_id: stationId,
      address: '221 Ossington Ave',
      phone: '(416) 532-8000',
      website: 'https://pizzerialibretto.com',
      rating: 4.256,
      rating_count: 12,
      appears_in_best_of_lists: true,
      dinesafe_establishment_id: 10456789,
      latitude: 43.6505,
      longitude: -79.3902,
    });
    await db('listings').where({ id: listingId }).update({ hours: JSON.stringify({ mon: '11:00-22:00', tue: '11:30-23:00' }) });
    plainId = await createListing(db, { name: XSS, type_id: typeId, website: 'javascript:alert(1)', latitude: 43.6509, longitude: -79.3899 });
    const listId = (await db('best_of_lists').insert({ title: 'Best Pizza in Toronto', slug: 'best-pizza-toronto' }).returning('id'))[0].id;
    await db('best_of_list_items').insert({ list_id: listId, listing_id: listingId, position: 1 });
    for (let i = 0; i < 3; i++) await createPhoto(db, { listing_id: listingId, title: `Margherita ${i}` });
  });
  afterAll(() => t.close());

  test('/places/ lists each listing type with its count and the recent places', async () => {
    const res = await request(t.app).get('/places/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">All Places</h1>');
    expect(res.text).toMatch(/href="\/restaurants\/"><span class="type-tile__name">Restaurants<\/span> <span class="type-tile__count">2 places/);
    expect(res.text).toContain('Pizzeria Libretto');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Sons');
    expect(res.text).not.toContain('<script>alert(1)</script>');
  });

  test('a listing page shows its address, phone link, website, hours, rating with 2 decimals and best-of lists', async () => {
    const res = await request(t.app).get(`/restaurants/pizzeria-libretto-${listingId}/`);
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toContain('221 Ossington Ave');
    expect(res.text).toContain('href="tel:4165328000"');
    expect(res.text).toContain('href="https://pizzerialibretto.com/"');
    expect(res.text).toMatch(/Rating <strong>4\.26<\/strong>/);
    expect(res.text).toContain('<th scope="row">Monday</th><td>11 am – 10 pm</td>');
    expect(res.text).toContain('<th scope="row">Wednesday</th><td>Closed</td>');
    expect(res.text).toContain('class="best-of-sticker"');
    expect(res.text).toContain('href="/best-of/best-pizza-toronto/">Best Pizza in Toronto</a>');
    expect(res.text).toContain(`href="/restaurants/n/${neighbourhoodId}/kensington-chinatown/"`);
  });

  test('a listing page links its DineSafe inspections with the establishment id', async () => {
    const res = await request(t.app).get(`/restaurants/pizzeria-libretto-${listingId}/`);
    expect(res.text).toContain('https://www.toronto.ca/community-people/health-wellness-care/health-programs-advice/food-safety/dinesafe/');
    expect(res.text).toContain('establishment 10456789');
    const plain = await request(t.app).get(`/restaurants/script-alert-1-script-and-sons-${plainId}/`);
    expect(plain.status).toBe(200);
    expect(plain.text).not.toContain('DineSafe');
  });

  test('a listing page has a static map image, the listing-map mount point, the nearest station and places nearby', async () => {
    const res = await request(t.app).get(`/restaurants/pizzeria-libretto-${listingId}/`);
    expect(res.text).toContain('<div data-island="listing-map" id="listing-map">');
    expect(res.text).toMatch(new RegExp(`<img class="static-map static-map--image" src="/static-maps/listings/${listingId}\\.png" width="1080" height="300"[^>]*alt="Street map around Pizzeria Libretto`));
    expect(res.text).toContain('openstreetmap.org/?mlat=43.6505&amp;mlon=-79.3902');
    expect(res.text).toMatch(/St Patrick station, 0\.\d\d km/);
    expect(res.text).toContain('Other places nearby');
    expect(res.text).toContain(`/restaurants/script-alert-1-script-and-sons-${plainId}/`);
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1]);
    expect(state['listing-map'].coordinates).toEqual({ latitude: 43.6505, longitude: -79.3902 });
  });

  test('a listing page has Restaurant JSON-LD with an aggregateRating when rated', async () => {
    const res = await request(t.app).get(`/restaurants/pizzeria-libretto-${listingId}/`);
    const blocks = [...res.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
    const place = blocks.find((b) => b['@type'] === 'Restaurant');
    expect(place).toMatchObject({ name: 'Pizzeria Libretto', servesCuisine: 'Pizza', aggregateRating: { ratingValue: '4.26', ratingCount: 12 } });
    const plain = await request(t.app).get(`/restaurants/script-alert-1-script-and-sons-${plainId}/`);
    const plainLd = [...plain.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
    expect(plainLd.find((b) => b['@type'] === 'Restaurant').aggregateRating).toBeUndefined();
  });

  test('user-supplied text is escaped and a javascript: website never becomes a link', async () => {
    const res = await request(t.app).get(`/restaurants/script-alert-1-script-and-sons-${plainId}/`);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).not.toMatch(/href="javascript:/i);
    expect(res.text).toContain('Rating <strong>-</strong>');
  });

  test('a stale slug or another type in the path is a 301 to the canonical listing path, keeping the query', async () => {
    const res = await request(t.app).get(`/restaurants/old-name-${listingId}/?ref=x`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`/restaurants/pizzeria-libretto-${listingId}/?ref=x`);
    const otherType = await createListingType(t.ctx.db, { name: 'Bars', slug: 'bars' });
    expect(otherType).toBeGreaterThan(0);
    const wrongType = await request(t.app).get(`/bars/pizzeria-libretto-${listingId}/`);
    expect(wrongType.status).toBe(301);
    expect(wrongType.headers.location).toBe(`/restaurants/pizzeria-libretto-${listingId}/`);
  });

  test('unknown types, sub-types and listing ids answer the HTML 404 page', async () => {
    for (const path of ['/no-such-type/', '/restaurants/no-such-sub-type/', '/restaurants/gone-999999/', '/no-such-type/x-1/']) {
      const res = await request(t.app).get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).toContain('Page not found');
    }
  });

  test('with listings off, the places pages are 404', async () => {
    const app = t.rebuild({ FEATURE_LISTINGS: 'false' });
    for (const path of ['/places/', '/restaurants/', `/restaurants/pizzeria-libretto-${listingId}/`, `/restaurants/pizzeria-libretto-${listingId}/photos/`]) {
      const res = await request(app).get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
