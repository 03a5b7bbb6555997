import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingSubType, createListingType, createNeighbourhood } from '../../testing/fixtures';

// The listing panel's URL state (spec 2 §2) keeps selectedCategoryIndex with the other
// parameters; the hub page restores it: this hub's index renders it, another category's index
// is that category's hub, and an index that names no category is a 400 naming the field.

const initialState = (html: string) => JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]);

describe('selectedCategoryIndex on the listing hubs', () => {
  let t: TestContext;
  let annex: number;
  const index: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const bars = await createListingType(db, { name: 'Bars', slug: 'bars' });
    await createListingSubType(db, restaurants, { name: 'Pizza', slug: 'pizza' });
    annex = await createNeighbourhood(db, { name: 'Annex' });
    await createListing(db, { name: 'Pizzeria Libretto', type_id: restaurants, neighbourhood_id: annex, appears_in_best_of_lists: true });
    await createListing(db, { name: 'Bar Raval', type_id: bars, neighbourhood_id: annex, appears_in_best_of_lists: true });
    // The index is the category's position in the island's Category dropdown (the hub options).
    const { optionsUrl } = initialState((await request(t.app).get('/restaurants/')).text)['listing-search'];
    const types = (await request(t.app).get(optionsUrl)).body.types as Array<{ slug: string }>;
    types.forEach((ty, i) => (index[ty.slug] = i));
  });
  afterAll(() => t.close());

  test("this hub's index renders the hub, and its links and the island keep it", async () => {
    const i = index.restaurants;
    const res = await request(t.app).get(`/restaurants/?selectedCategoryIndex=${i}&bestOf=true`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`href="/restaurants/?selectedCategoryIndex=${i}&amp;bestOf=true&amp;ordering=-rating">RATING</a>`);
    expect(initialState(res.text)['listing-search'].params).toMatchObject({ selectedCategoryIndex: i, category: 'restaurants', bestOf: true });
  });

  test("another category's index is that category's hub, with the other filters; a neighbourhood hub keeps its neighbourhood", async () => {
    const i = index.bars;
    const res = await request(t.app).get(`/restaurants/pizza/?selectedCategoryIndex=${i}&bestOf=true&ordering=-rating&page=2`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/bars/?selectedCategoryIndex=${i}&bestOf=true&ordering=-rating`);
    const landed = await request(t.app).get(res.headers.location);
    expect(landed.status).toBe(200);
    expect(initialState(landed.text)['listing-search'].params).toMatchObject({ selectedCategoryIndex: i, category: 'bars', subcategory: null });

    const n = await request(t.app).get(`/restaurants/n/${annex}/annex/?selectedCategoryIndex=${i}&bestOf=true`);
    expect(n.status).toBe(302);
    expect(n.headers.location).toBe(`/bars/n/${annex}/annex/?selectedCategoryIndex=${i}&bestOf=true`);
  });

  test('the plain form’s category wins over a kept index', async () => {
    const res = await request(t.app).get(`/restaurants/?selectedCategoryIndex=${index.restaurants}&category=bars&bestOf=true`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/bars/?bestOf=true');
  });

  test.each(['abc', '-1', '1.5', '99'])('an index that names no category (%s) is a 400 naming it', async (v) => {
    const res = await request(t.app).get(`/restaurants/?selectedCategoryIndex=${v}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('selectedCategoryIndex');
  });
});
