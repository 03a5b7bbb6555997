import { describeInBrowser } from './chromium';
import { expectReadableAtBothWidths, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createContest, createEvent, createListing, createListingSubType, createListingType, createPhoto, createSubwayStop, createVideo } from '../../server/testing/fixtures';
import { insertTorontoNeighbourhoods } from '../../server/testing/toronto-neighbourhoods';

// Every places/events/contests/videos/photos page type at a phone (375 px) and a desktop
// (1280 px) width: a screenshot for review (artifacts/screenshots/) and axe-core with no
// serious or critical violations. Neighbourhoods use the City's real boundaries.


describeInBrowser('places pages in a browser', () => {
  let b: BrowserApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const neighbourhoods = await insertTorontoNeighbourhoods(db, { census: { population_2021: 21000, area_km2: 2.1, median_age: 38, renter_households_pct: 55.2, source: 'Statistics Canada, Census 2021' } });
    const kensington = neighbourhoods.find((n) => n.name.startsWith('Kensington'))!;
    const nId = kensington.id;
    paths.neighbourhood = `/neighbourhoods/${kensington.slug}/`;
    const station = await createSubwayStop(db, { name: 'Spadina', latitude: 43.6672, longitude: -79.4037 });
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListingType(db, { name: 'Bars', slug: 'bars' });
    const pizza = await createListingSubType(db, restaurants, { name: 'Pizza', slug: 'pizza' });
    await db('features').insert([{ name: 'Patio', slug: 'patio' }, { name: 'Wheelchair accessible', slug: 'wheelchair-accessible' }]);
    await db('services').insert([{ name: 'Delivery', slug: 'delivery' }, { name: 'Takeout', slug: 'takeout' }]);
    let mainId = 0;
    for (let i = 0; i < 12; i++) {
      const id = await createListing(db, {
        name: i === 0 ? 'Pizzeria Libretto' : `Kensington Kitchen ${i}`,
        type_id: restaurants,
        sub_type_id: i < 4 ? pizza : null,
        neighbourhood_id: nId,
        nearest_subway_stop_id: station,
        address: `${200 + i} Augusta Ave`,
        phone: '(416) 555-0100',
        website: 'https://example.com',
        rating: i % 3 === 0 ? 4.25 : null,
        rating_count: i % 3 === 0 ? 8 : 0,
        appears_in_best_of_lists: i === 0,
        dinesafe_establishment_id: 10000000 + i,
        latitude: 43.6545 + i * 0.0006,
        longitude: -79.4005 + (i % 4) * 0.0008,
      });
      if (i === 0) mainId = id;
    }
    await db('listings').where({ id: mainId }).update({ hours: JSON.stringify({ mon: '11:00-22:00', tue: '11:00-22:00', fri: '11:00-23:30' }), description: 'Neapolitan pizza from a wood-fired oven.\n\nBook ahead on weekends.' });
    const photoIds: number[] = [];
    for (let i = 0; i < 3; i++) photoIds.push(await createPhoto(db, { listing_id: mainId, title: `Margherita ${i}`, creation_date: new Date(Date.UTC(2026, 0, 1, 0, i)) }));
    paths.listing = `/restaurants/pizzeria-libretto-${mainId}/`;
    paths.photos = `${paths.listing}photos/`;
    paths.photo = `${paths.photos}${photoIds[1]}/`;
    paths.neighbourhoodHub = `/restaurants/n/${nId}/${kensington.slug}/`;

    const tz = 'Canada/Eastern';
    const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toLocaleDateString('en-CA', { timeZone: tz });
    const eventId = await createEvent(db, { title: 'Trivia night at the library', schedule: { schedule_type: 'weekly', start_date: inDays(-3), end_date: inDays(50), start_time: '19:00', end_time: '21:00', weekdays: [2, 4] } });
    await db('events').where({ id: eventId }).update({ description: 'Teams of up to six. Free.', is_free: true });
    for (let i = 1; i < 5; i++) await createEvent(db, { title: `Outdoor concert ${i}`, schedule: { schedule_type: 'single_day', start_date: inDays(i), start_time: '18:30' } });
    paths.event = `/events/trivia-night-at-the-library-${eventId}/`;
    paths.eventsDay = `/events/?date=${inDays(1)}`;

    for (let i = 0; i < 14; i++) await createContest(db, { title: `Win a dinner for two at restaurant ${i}`, end_date: new Date(Date.now() + (i - 2) * 86400_000) });
    paths.contest = `/contests/${(await db('contests').orderBy('id', 'desc').first('name')).name}/`;
    for (let i = 0; i < 6; i++) await createVideo(db, { title: `Toronto food tour episode ${i}`, category: i < 3 ? 'Food' : 'City Life' });
    paths.video = `/videos/${(await db('videos').orderBy('id', 'desc').first('slug')).slug}/`;
  }, 120_000);
  afterAll(() => b?.close());

  const pages: Array<[string, () => string]> = [
    ['places', () => '/places/'],
    ['type-hub', () => '/restaurants/'],
    ['sub-type-hub', () => '/restaurants/pizza/?ordering=-rating'],
    ['hub-no-results', () => '/bars/'],
    ['neighbourhood-hub', () => paths.neighbourhoodHub],
    ['listing', () => paths.listing],
    ['listing-photos', () => paths.photos],
    ['listing-photo', () => paths.photo],
    ['neighbourhoods', () => '/neighbourhoods/'],
    ['neighbourhood', () => paths.neighbourhood],
    ['events', () => '/events/'],
    ['events-day', () => paths.eventsDay],
    ['event', () => paths.event],
    ['contests', () => '/contests/'],
    ['contest', () => paths.contest],
    ['videos', () => '/videos/'],
    ['videos-category', () => '/videos/category/food/'],
    ['video', () => paths.video],
  ];

  test.each(pages)('%s: screenshots at 375 and 1280 px, no serious or critical axe violations', async (name, path) => {
    await expectReadableAtBothWidths(b, path(), `places-${name}`, {
      // The video player is YouTube's: no network here, so answer it with an empty page.
      prepare: async (page) => {
        await page.route(/youtube|ytimg/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }));
      },
    });
  }, 90_000);

  test('the hub filters work as a plain form in the browser: choosing a sub-category goes to its path, a neighbourhood from its list on asking', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${b.baseUrl}/restaurants/`);
      await page.getByLabel('Sub-category').selectOption('pizza');
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/restaurants\/pizza\/$/);
      expect(await page.locator('.hub-results__count').textContent()).toBe('4 found');
      // The long lists come on asking: the field is a link to the same page with the list.
      await page.goto(`${b.baseUrl}/restaurants/`);
      expect(await page.locator('select[name="neighborhoodId"]').count()).toBe(0);
      await page.getByRole('link', { name: 'Neighbourhood: All neighbourhoods. Choose one' }).click();
      await page.waitForURL(/\/restaurants\/\?choose=neighbourhood#hub-neighbourhood$/);
      await page.getByLabel('Neighbourhood', { exact: true }).selectOption({ label: 'Annex' });
      await page.getByRole('button', { name: 'Show results' }).click();
      await page.waitForURL(/\/restaurants\/\?neighborhoodId=\d+$/);
      expect(await page.locator('select[name="neighborhoodId"] option:checked').textContent()).toBe('Annex');
      await page.goto(`${b.baseUrl}/neighbourhoods/`);
      await page.getByLabel('Neighbourhood', { exact: true }).selectOption({ label: 'Annex' });
      await page.getByRole('button', { name: 'Go' }).click();
      await page.waitForURL(/\/neighbourhoods\/annex\/$/);
    } finally {
      await context.close();
    }
  }, 60_000);
});
