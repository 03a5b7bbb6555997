import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createListing, createListingSubType, createListingType, createNeighbourhood, createSubwayStop } from '../../testing/fixtures';

// The listing hubs: server-rendered first page, filters as a plain GET form, sort tabs,
// pagination and the listing-search island's initial state.

const initialState = (html: string) => JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]);
const names = (html: string) => [...html.matchAll(/<h3 class="place-card__name">([^<]*)<\/h3>/g)].map((m) => m[1]);

describe('listing hubs', () => {
  let t: TestContext;
  let annex: number;
  let stationId: number;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListingType(db, { name: 'Bars', slug: 'bars' });
    const pizza = await createListingSubType(db, restaurants, { name: 'Pizza', slug: 'pizza' });
    await createListingSubType(db, restaurants, { name: 'Thai', slug: 'thai' });
    annex = await createNeighbourhood(db, { name: 'Annex' });
    stationId = await createSubwayStop(db, { name: 'Spadina', latitude: 43.6672, longitude: -79.4037 });
    const [patio] = await db('features').insert({ name: 'Patio', slug: 'patio' }).returning('id');
    const [delivery] = await db('services').insert({ name: 'Delivery', slug: 'delivery' }).returning('id');
    // 42 restaurants: names sort as Place 00 … Place 41; 3 are pizza places in the Annex near Spadina.
    for (let i = 0; i < 42; i++) {
      const isPizza = i < 3;
      const id = await createListing(db, {
        name: `Place ${String(i).padStart(2, '0')}`,
        type_id: restaurants,
        sub_type_id: isPizza ? pizza : null,
        neighbourhood_id: isPizza ? annex : null,
        rating: i === 5 ? 4.9 : 3,
        favourite_count: i === 7 ? 500 : 0,
        smart_review_score: i === 2 ? 10 : 0,
        appears_in_best_of_lists: i === 1,
        latitude: isPizza ? 43.6675 : 43.7,
        longitude: isPizza ? -79.404 : -79.5,
        date_published: new Date(Date.UTC(2026, 0, 1 + i)),
      });
      if (i === 0) {
        await db('listing_features').insert({ listing_id: id, feature_id: patio.id ?? patio });
        await db('listing_services').insert({ listing_id: id, service_id: delivery.id ?? delivery });
      }
    }
    await createListing(db, { name: '<img src=x onerror=alert(1)>', type_id: restaurants, sub_type_id: pizza, date_published: new Date('2020-01-01') });
  });
  afterAll(() => t.close());

  test('a type hub renders the first 40 results A–Z, the count, pagination and the island state', async () => {
    const res = await request(t.app).get('/restaurants/');
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toContain('<h2 id="results-title" class="hub-results__count">43 found</h2>');
    const shown = names(res.text);
    expect(shown).toHaveLength(40);
    expect(shown[0]).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(shown[1]).toBe('Place 00');
    expect(res.text).toContain('<a class="tabs__link" href="/restaurants/?ordering=name" aria-current="true">A–Z</a>');
    expect(res.text).toContain('href="/restaurants/?ordering=-date_published">MOST RECENT</a>');
    expect(res.text).toMatch(/rel="next" href="\/restaurants\/\?page=2"/);
    expect(res.text).toContain('<div data-island="listing-search" id="listing-search">');
    const state = initialState(res.text)['listing-search'];
    expect(state.results.count).toBe(43);
    // The cards are in the HTML once: the state names them by id, in the printed order, and
    // carries none of their fields.
    expect(state.results.results).toBeUndefined();
    expect(state.results.ids).toHaveLength(40);
    const printedIds = [...res.text.matchAll(/data-save="listing-compact" data-object-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(state.results.ids).toEqual(printedIds);
    expect(state.results.next).toMatch(/\/api\/v2\/listings\/\?.*offset=40/);
    expect(state.params).toMatchObject({ category: 'restaurants', subcategory: null, ordering: 'name', page: 1 });
    // The filter options are not printed: the island fetches them from the URL it is given.
    expect(state.options).toBeUndefined();
    expect(state.optionsUrl).toMatch(/^\/api\/v2\/listings\/hub-options\/\?v=[\w-]{16}$/);
    const options = await request(t.app).get(state.optionsUrl);
    expect(options.body.types.map((o: { slug: string }) => o.slug)).toEqual(expect.arrayContaining(['restaurants', 'bars']));
  });

  test("the island's filter options: the same for everybody, kept a year at their version, a minute at any other", async () => {
    const { optionsUrl } = initialState((await request(t.app).get('/restaurants/')).text)['listing-search'];
    // A returning guest (a first visit is given its CSRF cookie: that answer is private).
    const guest = 'csrftoken=' + 'g'.repeat(43);
    const res = await request(t.app).get(optionsUrl).set('Cookie', guest);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Paths are built in the browser from slugs: no absolute URL, nothing per visitor.
    expect(res.body).toEqual({
      types: [
        {
          id: expect.any(Number),
          name: 'Restaurants',
          slug: 'restaurants',
          sub_types: [
            { id: expect.any(Number), name: 'Pizza', slug: 'pizza', index: 0 },
            { id: expect.any(Number), name: 'Thai', slug: 'thai', index: 1 },
          ],
        },
        { id: expect.any(Number), name: 'Bars', slug: 'bars', sub_types: [] },
      ],
      neighbourhoods: [{ id: annex, name: 'Annex', slug: 'annex' }],
      subwayStops: [{ id: stationId, name: 'Spadina' }],
      features: [{ id: expect.any(Number), name: 'Patio', slug: 'patio' }],
      services: [{ id: expect.any(Number), name: 'Delivery', slug: 'delivery' }],
    });
    expect(res.text).not.toContain('http');
    // A member gets the same bytes (the island's answer carries nothing of theirs).
    const member = await memberAgent(t, await createMember(t.ctx));
    const theirs = await member.get(optionsUrl);
    expect([theirs.status, theirs.text, theirs.headers.etag]).toEqual([200, res.text, res.headers.etag]);
    // An older page's version, or none: the current options, which shared caches keep a minute.
    for (const url of ['/api/v2/listings/hub-options/?v=older', '/api/v2/listings/hub-options/']) {
      const other = await request(t.app).get(url).set('Cookie', guest);
      expect([other.status, other.text, other.headers['cache-control']]).toEqual([200, res.text, 'public, max-age=60']);
    }
    // Revalidation by ETag answers 304.
    expect((await request(t.app).get(optionsUrl).set('If-None-Match', res.headers.etag)).status).toBe(304);
  });

  test('a new listing type is a new version of the options', async () => {
    const before = initialState((await request(t.app).get('/restaurants/')).text)['listing-search'].optionsUrl;
    await createListingType(t.ctx.db, { name: 'Cafés', slug: 'cafes' });
    // The cafés hub is not in the cached options: it reloads them, and names their new version.
    const after = initialState((await request(t.app).get('/cafes/')).text)['listing-search'].optionsUrl;
    expect(after).not.toBe(before);
    expect((await request(t.app).get(after)).body.types.map((o: { slug: string }) => o.slug)).toContain('cafes');
  });

  test('?page=2 shows the rest; a page past the end goes to the first page with the other parameters, as on every paged page; a bad page is a 400', async () => {
    const res = await request(t.app).get('/restaurants/?page=2');
    expect(res.status).toBe(200);
    expect(names(res.text)).toEqual(['Place 39', 'Place 40', 'Place 41']);
    const past = await request(t.app).get('/restaurants/?page=9999&ordering=-rating');
    expect([past.status, past.headers.location]).toEqual([302, '/restaurants/?ordering=-rating']);
    const bad = await request(t.app).get('/restaurants/?page=abc');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('page');
  });

  test('sort tabs order by rating, popularity and most recent', async () => {
    expect(names((await request(t.app).get('/restaurants/?ordering=-rating')).text)[0]).toBe('Place 05');
    expect(names((await request(t.app).get('/restaurants/?ordering=-favourite_count')).text)[0]).toBe('Place 07');
    expect(names((await request(t.app).get('/restaurants/?ordering=-date_published')).text)[0]).toBe('Place 41');
    const bad = await request(t.app).get('/restaurants/?ordering=evil');
    expect(bad.status).toBe(400);
  });

  test('a sub-category hub filters by it and its MOST RECENT tab is smart review, the default there', async () => {
    const res = await request(t.app).get('/restaurants/pizza/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('4 found');
    expect(names(res.text)[0]).toBe('Place 02');
    expect(res.text).toContain('<a class="tabs__link" href="/restaurants/pizza/?ordering=smart_review" aria-current="true">MOST RECENT</a>');
    expect(res.text).toContain('Want more results? Try adjusting your criteria with the dropdowns above.');
  });

  test('no results: the sorry message names the sub-category, and the count reads 0 found', async () => {
    const res = await request(t.app).get('/restaurants/thai/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('0 found');
    expect(res.text).toContain('Sorry, there are no results for Thai in this area. Please try adjusting your search criteria with dropdowns above.');
    expect(res.text).not.toContain('Want more results?');
  });

  test('the filters work as a plain GET form: neighbourhood, subway stop, service, features, best of', async () => {
    expect(names((await request(t.app).get(`/restaurants/?neighborhoodId=${annex}`)).text)).toEqual(['Place 00', 'Place 01', 'Place 02']);
    expect((await request(t.app).get(`/restaurants/?subwayStopId=${stationId}`)).text).toContain('3 found');
    expect(names((await request(t.app).get('/restaurants/?selectedServiceSlug=delivery')).text)).toEqual(['Place 00']);
    expect(names((await request(t.app).get('/restaurants/?selectedFeatures=patio')).text)).toEqual(['Place 00']);
    expect(names((await request(t.app).get('/restaurants/?selectedFeatures=patio&selectedFeatures=rooftop')).text)).toEqual([]);
    const best = await request(t.app).get('/restaurants/?bestOf=true');
    expect(names(best.text)).toEqual(['Place 01']);
    expect(best.text).toMatch(/<input type="checkbox" name="bestOf" value="true" checked>/);
    const form = (await request(t.app).get(`/restaurants/?neighborhoodId=${annex}`)).text;
    expect(form).toMatch(/<form class="hub-filters" action="\/restaurants\/" method="get"/);
    expect(form).toContain(`<option value="${annex}" selected>Annex</option>`);
    // A neighbourhood chosen: its list, not the subway stops' (asked for by a link keeping the filters).
    expect(form).not.toContain('<label for="hub-subway">');
    expect(form).toContain(`href="/restaurants/?neighborhoodId=${annex}&amp;choose=subway#hub-subway"`);
  });

  test('without JavaScript the long lists come on asking: the plain hub links to itself with each list', async () => {
    const plain = (await request(t.app).get('/restaurants/')).text;
    expect(plain).not.toContain('name="neighborhoodId"');
    expect(plain).not.toContain('name="subwayStopId"');
    expect(plain).toContain('href="/restaurants/?choose=neighbourhood#hub-neighbourhood"');
    expect(plain).toContain('href="/restaurants/?choose=subway#hub-subway"');
    const asked = (await request(t.app).get('/restaurants/?choose=neighbourhood')).text;
    expect(asked).toContain('<label for="hub-neighbourhood">Neighbourhood</label>');
    expect(asked).toContain(`<option value="${annex}">Annex</option>`);
    expect(asked).not.toContain('name="subwayStopId"');
    const stops = (await request(t.app).get('/restaurants/?bestOf=true&choose=subway')).text;
    expect(stops).toContain('<label for="hub-subway">Subway stop</label>');
    expect(stops).toContain('href="/restaurants/?bestOf=true&amp;choose=neighbourhood#hub-neighbourhood"');
  });

  test('choosing a category or sub-category in the form redirects to its path, keeping the other filters', async () => {
    const sub = await request(t.app).get(`/restaurants/?category=restaurants&subcategory=pizza&neighborhoodId=${annex}`);
    expect(sub.status).toBe(302);
    expect(sub.headers.location).toBe(`/restaurants/pizza/?neighborhoodId=${annex}`);
    const type = await request(t.app).get('/restaurants/pizza/?category=bars&subcategory=pizza&bestOf=true');
    expect(type.headers.location).toBe('/bars/?bestOf=true');
    const all = await request(t.app).get('/restaurants/pizza/?category=restaurants&subcategory=');
    expect(all.headers.location).toBe('/restaurants/');
    const evil = await request(t.app).get('/restaurants/?category=//evil.example');
    expect(evil.status).toBe(400);
  });

  test('a neighbourhood hub lists that neighbourhood’s places of the type; its category choice keeps the neighbourhood', async () => {
    const res = await request(t.app).get(`/restaurants/n/${annex}/annex/`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Restaurants in Annex</h1>');
    expect(names(res.text)).toEqual(['Place 00', 'Place 01', 'Place 02']);
    const bars = await request(t.app).get(`/restaurants/n/${annex}/annex/?category=bars&neighborhoodId=${annex}`);
    expect(bars.headers.location).toBe(`/bars/n/${annex}/annex/`);
    const stale = await request(t.app).get(`/restaurants/n/${annex}/old-name/`);
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(`/restaurants/n/${annex}/annex/`);
    expect((await request(t.app).get('/restaurants/n/99999/nowhere/')).status).toBe(404);
  });

  test('bad filter values are a 400 naming the field, never a 500', async () => {
    const res = await request(t.app).get('/restaurants/?neighborhoodId=abc');
    expect(res.status).toBe(400);
    expect(res.text).toContain('default_neighborhood');
    expect((await request(t.app).get('/restaurants/?selectedServiceSlug=%3Cscript%3E')).status).toBe(400);
  });

  test('with listings off the hubs are 404', async () => {
    const app = t.rebuild({ FEATURE_LISTINGS: 'false' });
    expect((await request(app).get('/restaurants/')).status).toBe(404);
    expect((await request(app).get('/restaurants/pizza/')).status).toBe(404);
    expect((await request(app).get(`/restaurants/n/${annex}/annex/`)).status).toBe(404);
  });

  test('the name field (keywords) narrows the hub without JavaScript, is kept in links and the island state, and is bounded', async () => {
    const res = await request(t.app).get('/restaurants/?keywords=place%200');
    expect(res.status).toBe(200);
    expect(names(res.text)).toEqual(['Place 00', 'Place 01', 'Place 02', 'Place 03', 'Place 04', 'Place 05', 'Place 06', 'Place 07', 'Place 08', 'Place 09']);
    expect(res.text).toContain('<input id="hub-keywords" type="search" name="keywords" maxlength="100" value="place 0">');
    expect(res.text).toContain('href="/restaurants/?keywords=place+0&amp;ordering=-rating"');
    expect(initialState(res.text)['listing-search'].params.keywords).toBe('place 0');
    const bad = await request(t.app).get(`/restaurants/?keywords=${'x'.repeat(101)}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('keywords');
    expect((await request(t.app).get('/restaurants/?keywords=a&keywords=b')).status).toBe(400);
  });

  test('a reload after a chosen place (lat/long, ordering=distance, no subway stop) renders the default order; the island searches by position', async () => {
    const res = await request(t.app).get('/restaurants/?lat=43.649&long=-79.42&selectedSuggestion=Pizzeria+Libretto&ordering=distance');
    expect(res.status).toBe(200);
    expect(initialState(res.text)['listing-search'].params.ordering).toBe('name');
    expect((await request(t.app).get(`/restaurants/?subwayStopId=${stationId}&ordering=distance`)).status).toBe(200);
  });
});
