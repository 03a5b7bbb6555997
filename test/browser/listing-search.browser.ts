import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingSubType, createListingType, createSubwayStop } from '../../server/testing/fixtures';

// The listing-search island on a hub (spec 2 §2 "Listing search panel"): a filter change
// updates the results in place, scrolling to the bottom loads page 2, and the map view shows
// a maplibre canvas — or, where headless chromium has no WebGL (--disable-gpu), the readable
// fallback list. Either way no page error; axe finds nothing serious; screenshots at 375/1280.

describeInBrowser('listing search island in a browser', () => {
  let b: BrowserApp;
  let listingPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createSubwayStop(db, { name: 'Spadina', latitude: 43.6672, longitude: -79.4037 });
    // Two square neighbourhoods are enough for the neighbourhood maps.
    for (const [i, name] of ['Kensington', 'Annex'].entries()) {
      const [w, s, e, n] = [-79.42 + i * 0.02, 43.64, -79.40 + i * 0.02, 43.67];
      await db('neighbourhoods').insert({
        name,
        id: 90 + i,
        slug: name.toLowerCase(),
        boundaries: JSON.stringify({ type: 'MultiPolygon', coordinates: [[[[w, s], [e, s], [e, n], [w, n], [w, s]]]] }),
        label_latitude: (s + n) / 2,
        label_longitude: (w + e) / 2,
        min_latitude: s,
        min_longitude: w,
        max_latitude: n,
        max_longitude: e,
        census: JSON.stringify({}),
        blurb: `${name} blurb.`,
      });
    }
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListingType(db, { name: 'Bars', slug: 'bars' });
    const pizza = await createListingSubType(db, restaurants, { name: 'Pizza', slug: 'pizza' });
    await db('features').insert([{ name: 'Patio', slug: 'patio' }]);
    await db('services').insert([{ name: 'Delivery', slug: 'delivery' }]);
    for (let i = 0; i < 50; i++) {
      const id = await createListing(db, {
        name: `Place ${String(i).padStart(2, '0')}`,
        type_id: restaurants,
        sub_type_id: i < 10 ? pizza : null,
        address: `${100 + i} Augusta Ave`,
        phone: '(416) 555-0100',
        appears_in_best_of_lists: i % 7 === 0,
        latitude: 43.645 + (i % 10) * 0.002,
        longitude: -79.41 + Math.floor(i / 10) * 0.004,
      });
      if (i === 0) listingPath = `/restaurants/place-00-${id}/`;
    }
  }, 120_000);
  afterAll(() => b?.close());

  test('filter, infinite scroll, map view; no page errors; axe; screenshots', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'load' });
        await page.locator('.listing-search[data-enhanced]').waitFor();
        const cards = page.locator('.listing-search .place-card');
        expect(await cards.count()).toBe(40);
        expect(await page.getByRole('heading', { name: '50 found' }).count()).toBe(1);
        // The island kept the server's cards (only those give the first images fetchpriority)
        // rather than rendering them again, and the page's state names them by id only.
        expect(await cards.locator('img[fetchpriority="high"]').count()).toBe(2);
        expect(await page.locator('#initial-state').evaluate((el) => Object.keys(JSON.parse(el.textContent ?? '{}')['listing-search'].results).sort())).toEqual(['count', 'ids', 'next', 'previous']);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `listing-search-list-${label}`);

        // Scrolled to the bottom: page 2 is appended and the URL says so (with the category's index).
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.waitForFunction(() => document.querySelectorAll('.listing-search .place-card').length === 50);
        await page.waitForURL(/\/restaurants\/\?selectedCategoryIndex=\d+&page=2$/);

        // A filter: the sub-category searches in place; the URL names its path. Under 640 px the
        // filters are folded behind their button first.
        const filtersToggle = page.getByRole('button', { name: /^Filters/ });
        if (await filtersToggle.isVisible()) await filtersToggle.click();
        await page.getByLabel('Sub-category').selectOption('pizza');
        await page.getByRole('heading', { name: '10 found' }).waitFor();
        expect(await cards.count()).toBe(10);
        // The address follows after the frame that shows the answer.
        await page.waitForURL((url) => url.pathname === '/restaurants/pizza/');
        // Save placeholders on the new cards are mounted by the saves island.
        await page.locator('.listing-search .place-card [data-island="saves"][data-mounted]').first().waitFor();

        // The map view: a canvas, or the readable fallback where there is no WebGL.
        await page.getByRole('button', { name: 'Map' }).click();
        await page.locator('.listing-search__map canvas.maplibregl-canvas, .map-fallback').first().waitFor({ timeout: 20_000 });
        const hasCanvas = (await page.locator('.listing-search__map canvas.maplibregl-canvas').count()) > 0;
        if (!hasCanvas) expect(await page.locator('.map-fallback li').count()).toBe(10);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `listing-search-map-${label}`);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 240_000);

  test('the map islands (listing, neighbourhoods, neighbourhood) draw or keep their fallback, without errors; maplibre loads only there', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const errors: string[] = [];
    const scripts: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => scripts.push(r.url()));
    try {
      await page.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'networkidle' });
      expect(scripts.filter((u) => /vendor-maplibre|maplibre-engine/.test(u))).toEqual([]);
      for (const [island, path] of [['listing-map', listingPath], ['neighbourhoods-index-map', '/neighbourhoods/'], ['neighbourhood-page-map', '/neighbourhoods/annex/']]) {
        await page.goto(b.baseUrl + path, { waitUntil: 'load' });
        const el = page.locator(`[data-island="${island}"]`);
        await el.scrollIntoViewIfNeeded(); // maps load when scrolled near
        await page.locator(`[data-island="${island}"][data-map]`).waitFor({ timeout: 20_000 });
        const state = await el.getAttribute('data-map');
        expect([island, ['ready', 'unavailable'].includes(String(state))]).toEqual([island, true]);
        // Without the interactive map the server's static map stays; with it, the canvas replaces it.
        if (state === 'unavailable') expect(await el.locator('figure').isVisible()).toBe(true);
        else expect(await el.locator('canvas.maplibregl-canvas').isVisible()).toBe(true);
        await screenshot(page, `maps-${island}-desktop`);
        expect(await seriousA11yViolations(page)).toEqual([]);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
