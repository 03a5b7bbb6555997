import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';

// The Best of list page's full-screen map (islands/best-of-map): its placeholder, styles and
// state are printed only when a place on the list has a position.

const initialState = (html: string) => JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}');

describe('best-of list map', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const placed = await createListing(db, { name: 'Pizza <Palace>', type_id: typeId, latitude: 43.65, longitude: -79.39, appears_in_best_of_lists: true });
    const nowhere = await createListing(db, { name: 'Slice Truck', type_id: typeId, latitude: null, longitude: null });
    const [mapped] = await db('best_of_lists').insert({ title: 'Best pizza', slug: 'best-pizza', date_published: new Date('2026-02-01') }).returning('id');
    const [unmapped] = await db('best_of_lists').insert({ title: 'Best trucks', slug: 'best-trucks', date_published: new Date('2026-02-01') }).returning('id');
    await db('best_of_list_items').insert([
      { list_id: mapped.id ?? mapped, listing_id: placed, position: 1, blurb: '' },
      { list_id: mapped.id ?? mapped, listing_id: nowhere, position: 2, blurb: '' },
      { list_id: unmapped.id ?? unmapped, listing_id: nowhere, position: 1, blurb: '' },
    ]);
  });
  afterAll(() => t.close());

  test('a list with placed listings gets the map island with those places only', async () => {
    const res = await request(t.app).get('/best-of/best-pizza/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div data-island="best-of-map"></div>');
    // The map's styles (maps.css, listing-panel.css) come in the page's one stylesheet.
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/static\/(css\/bundles\/best-of-map\.css|dist\/assets\/css-best-of-map-[\w-]+\.css)">/);
    const state = initialState(res.text)['best-of-map'];
    expect(state.title).toBe('Best pizza');
    expect(state.listings).toHaveLength(1);
    expect(state.listings[0]).toMatchObject({ name: 'Pizza <Palace>', coordinates: { latitude: 43.65, longitude: -79.39 }, appears_in_best_of_lists: true });
    expect(res.text).not.toContain('Pizza <Palace>');
  });

  test('a list none of whose places has a position has no map', async () => {
    const res = await request(t.app).get('/best-of/best-trucks/');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('data-island="best-of-map"');
    expect(initialState(res.text)['best-of-map']).toBeUndefined();
  });
});
