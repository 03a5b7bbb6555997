import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType, createSubwayStop } from '../../server/testing/fixtures';

// Issue 24 goal 2: maplibre (a megabyte of script, seconds of a phone's main thread) loads only
// when the listing page's map comes near the viewport, not with the page. Until then the static
// map image stands in, and the map is drawn over it at its exact size, so nothing moves.
// The place's description is long enough that the map starts below the fold at both widths.

const MAPLIBRE = /vendor-maplibre|maplibre-engine/;

describeInBrowser('the listing page loads maplibre only when its map is scrolled near', () => {
  let b: BrowserApp;
  let listingPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const station = await createSubwayStop(db, { name: 'Spadina', latitude: 43.6672, longitude: -79.4037 });
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const paragraph = 'A neighbourhood pizzeria with a wood-fired oven, long tables and a short list of natural wines. ';
    const id = await createListing(db, {
      name: 'Pizzeria Libretto',
      type_id: restaurants,
      nearest_subway_stop_id: station,
      latitude: 43.6545,
      longitude: -79.4005,
      description: Array.from({ length: 12 }, () => paragraph.repeat(4)).join('\n\n'),
    });
    for (let i = 1; i <= 3; i++) await createListing(db, { name: `Kensington Kitchen ${i}`, type_id: restaurants, latitude: 43.6545 + i * 0.0007, longitude: -79.4005 });
    listingPath = `/restaurants/pizzeria-libretto-${id}/`;
  }, 60_000);
  afterAll(() => b?.close());

  /** The top of the static image's box, in page coordinates, and its size. */
  const standIn = (page: Page) =>
    page.locator('[data-island="listing-map"] img.static-map--image').evaluate((img) => {
      const r = img.getBoundingClientRect();
      return { top: Math.round(r.top + window.scrollY), width: Math.round(r.width), height: Math.round(r.height) };
    });

  test.each(Object.entries(VIEWPORTS))('at %s width: no maplibre at load; scrolled into view, it loads and draws over the static map at its size', async (label, viewport) => {
    const context = await b.browser.newContext({ viewport });
    const page = await context.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(b.baseUrl + listingPath, { waitUntil: 'networkidle' });
      const island = page.locator('[data-island="listing-map"]');
      // The islands have run (mounted) and the page has gone quiet: nothing asked for maplibre.
      await page.locator('[data-island="listing-map"][data-mounted="true"]').waitFor({ state: 'attached' });
      const before = await standIn(page);
      expect({ label, belowFold: before.top > viewport.height, maplibre: requested.filter((u) => MAPLIBRE.test(u)), map: await island.getAttribute('data-map') }).toEqual({
        label, belowFold: true, maplibre: [], map: null,
      });

      const maplibre = page.waitForRequest(MAPLIBRE, { timeout: 30_000 });
      await island.scrollIntoViewIfNeeded();
      await maplibre;
      await page.locator('[data-island="listing-map"][data-map="ready"]').waitFor({ timeout: 30_000 });
      const canvas = island.locator('canvas.maplibregl-canvas');
      expect(await canvas.isVisible()).toBe(true);
      // The map has loaded its style and drawn.
      await page.waitForFunction(() => {
        const map = (document.querySelector('[data-island="listing-map"] .maplibregl-map') as (HTMLElement & { maplibreMap?: { loaded(): boolean } }) | null)?.maplibreMap;
        return Boolean(map?.loaded());
      }, undefined, { timeout: 30_000 });

      // Drawn exactly over the stand-in: same box, nothing below it moved.
      const after = await standIn(page);
      const box = await page.locator('[data-island="listing-map"] .map-canvas').evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top + window.scrollY), width: Math.round(r.width), height: Math.round(r.height) };
      });
      expect({ label, standIn: after, map: box }).toEqual({ label, standIn: before, map: before });
      await screenshot(page, `listing-map-lazy-${label}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
