import type { Page } from 'playwright-core';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { describeInBrowser } from './chromium';
import { expectReadablePage, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType, createSubwayStop } from '../../server/testing/fixtures';

// Issue 25 item 1: every map draws the streets traced from our own addresses, with their names,
// under the places. A listing page's map (scrolled to: it loads when near) and the hub's map
// view are asked what they rendered on the street layers (queryRenderedFeatures), and the
// streets named within 200 m of the place must include the two it stands between: the
// Horseshoe Tavern is on Queen St W just east of Spadina Ave. Screenshots at 375 and 1280 px.

const PLACE = { name: 'Horseshoe Tavern', latitude: 43.64911, longitude: -79.39588 };
const NEAR_M = 200;

/** Names of the street features the map drew (lines and labels) within NEAR_M of the place. */
async function streetsNear(page: Page, selector: string): Promise<{ lines: string[]; labels: string[] }> {
  await page.waitForFunction((selector) => Boolean((document.querySelector(selector) as (HTMLElement & { maplibreMap?: MaplibreMap }) | null)?.maplibreMap?.loaded()), selector, { timeout: 30_000 });
  return page.evaluate(
    async ({ selector, place, nearM }) => {
      const map = (document.querySelector(selector) as HTMLElement & { maplibreMap: MaplibreMap }).maplibreMap;
      const idle = new Promise<void>((resolve) => map.once('idle', () => resolve()));
      map.triggerRepaint();
      await idle;
      // Metres from the place, flat-earth near Toronto.
      const mx = 111_320 * Math.cos((place.latitude * Math.PI) / 180);
      const my = 111_132;
      const toXY = (c: number[]) => [(c[0] - place.longitude) * mx, (c[1] - place.latitude) * my];
      const distToSegment = (a: number[], b: number[]) => {
        const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
        const len2 = dx * dx + dy * dy;
        const t = len2 ? Math.max(0, Math.min(1, (-a[0] * dx - a[1] * dy) / len2)) : 0;
        return Math.hypot(a[0] + t * dx, a[1] + t * dy);
      };
      const near = (layer: string) => {
        const names = new Set<string>();
        for (const f of map.queryRenderedFeatures({ layers: [layer] })) {
          const g = f.geometry;
          const lines: number[][][] = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : g.type === 'Point' ? [[g.coordinates, g.coordinates]] : [];
          const d = Math.min(...lines.flatMap((l) => l.slice(1).map((c, i) => distToSegment(toXY(l[i]), toXY(c)))));
          if (d <= nearM && f.properties?.name) names.add(String(f.properties.name));
        }
        return [...names].sort();
      };
      return { lines: near('ctx-streets'), labels: near('ctx-street-labels') };
    },
    { selector, place: PLACE, nearM: NEAR_M },
  );
}

describeInBrowser('maps draw streets from our own addresses, with their names', () => {
  let b: BrowserApp;
  let listingPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const station = await createSubwayStop(db, { name: 'Osgoode', latitude: 43.650704, longitude: -79.386815 });
    const bars = await createListingType(db, { name: 'Bars', slug: 'bars' });
    const id = await createListing(db, { name: PLACE.name, type_id: bars, nearest_subway_stop_id: station, address: '370 Queen St W', latitude: PLACE.latitude, longitude: PLACE.longitude });
    // Two neighbours on the same block, so the hub's map fits a street-level view.
    await createListing(db, { name: 'Rivoli', type_id: bars, address: '334 Queen St W', latitude: 43.64929, longitude: -79.395 });
    await createListing(db, { name: 'Cameron House', type_id: bars, address: '408 Queen St W', latitude: 43.64854, longitude: -79.39736 });
    listingPath = `/bars/horseshoe-tavern-${id}/`;
  }, 60_000);
  afterAll(() => b?.close());

  test.each(Object.entries(VIEWPORTS))('at %s width: the listing map and the hub map name the streets the place is between', async (label, viewport) => {
    const context = await b.browser.newContext({ viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      // ## The listing page's map, loaded when scrolled near.
      await page.goto(b.baseUrl + listingPath, { waitUntil: 'load' });
      const island = page.locator('[data-island="listing-map"]');
      await island.scrollIntoViewIfNeeded();
      await page.locator('[data-island="listing-map"][data-map="ready"]').waitFor({ timeout: 30_000 });
      const listing = await streetsNear(page, '[data-island="listing-map"] .maplibregl-map');
      expect({ label, page: 'listing', ...listing }).toEqual({
        label,
        page: 'listing',
        lines: expect.arrayContaining(['Queen St W', 'Spadina Ave']),
        labels: expect.arrayContaining(['Queen St W']),
      });
      await island.scrollIntoViewIfNeeded();
      await screenshot(page, `map-streets-listing-${label}`);
      await expectReadablePage(page, label);

      // ## The hub's map view.
      await page.goto(`${b.baseUrl}/bars/`, { waitUntil: 'load' });
      await page.getByRole('button', { name: 'Map' }).click();
      await page.locator('.listing-search__map[data-map-status="ready"]').waitFor({ timeout: 30_000 });
      const hub = await streetsNear(page, '.listing-search__map');
      expect({ label, page: 'hub', ...hub }).toEqual({
        label,
        page: 'hub',
        lines: expect.arrayContaining(['Queen St W', 'Spadina Ave']),
        labels: expect.arrayContaining(['Queen St W']),
      });
      await screenshot(page, `map-streets-hub-${label}`);
      await expectReadablePage(page, label);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
