import type { Page } from 'playwright-core';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { describeInBrowser } from './chromium';
import { logInThroughPage, screenshot, seriousA11yViolations, horizontalOverflow, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType, createSubwayStop } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import { insertTorontoNeighbourhoods } from '../../server/testing/toronto-neighbourhoods';

// Issue 39, "add a place from an address and find it on the hub map at 375 px" (needs
// `npm run build:islands` first). At 1280 px a staff member opens the desk's add form, types an
// address our geocoder knows, finds it on the map (the place-pin island), drags the pin a little
// (the latitude and longitude follow, and the line under the map names the neighbourhood from
// the City's real boundaries and the nearest station), names it and saves. At 375 px a reader
// then finds its marker on the Restaurants hub's map, at the point the pin was dropped.

const PASSWORD = 'pin-drop-streetcar-39';
const EMAIL = 'pin-desk@example.com';
const LONG = 240_000;
const MAPLIBRE = /vendor-maplibre|maplibre-engine/;

type MapElement = HTMLElement & { maplibreMap?: MaplibreMap };

/** The map in `selector` once it has loaded and gone idle. */
async function mapIdle(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => Boolean((document.querySelector(s) as MapElement | null)?.maplibreMap?.loaded()), selector, { timeout: 30_000 });
  await page.evaluate(async (s) => {
    const map = (document.querySelector(s) as MapElement).maplibreMap!;
    const idle = new Promise<void>((resolve) => map.once('idle', () => resolve()));
    map.triggerRepaint();
    await idle;
  }, selector);
}

describeInBrowser('the places desk: add a place from its address, pin on a map', () => {
  let b: BrowserApp;
  let restaurants: number;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await insertTorontoNeighbourhoods(db);
    await createSubwayStop(db, { name: 'Osgoode', latitude: 43.6507, longitude: -79.3868 });
    await createSubwayStop(db, { name: 'Spadina', latitude: 43.6672, longitude: -79.4037 });
    restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    // Two places on the even side of Queen St W: the geocoder places the numbers between them.
    await createListing(db, { name: 'The Rex Hotel', type_id: restaurants, address: '194 Queen St W', latitude: 43.6504, longitude: -79.3884 });
    await createListing(db, { name: 'Queen Books', type_id: restaurants, address: '198 Queen St W', latitude: 43.6506, longitude: -79.3886 });
    await createMember(b.t.ctx, { email: EMAIL, password: PASSWORD, is_staff: true, full_name: 'Pat Desk' });
  }, 120_000);
  afterAll(() => b?.close());

  test('at 1280 px staff place it from the address and drag the pin; at 375 px it is on the hub map', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(e.message));
    let point: { latitude: number; longitude: number };
    let id: number;
    try {
      await logInThroughPage(page, b.baseUrl, EMAIL, PASSWORD);
      await page.goto(`${b.baseUrl}/staff/places/new/`, { waitUntil: 'load' });
      const form = page.locator('form.place-form');
      const island = form.locator('[data-island="place-pin"]');
      await island.locator('.place-pin__find').waitFor();
      // Nothing to show yet: no map, so no maplibre.
      expect(await island.getAttribute('data-map')).toBeNull();

      await form.getByLabel('Name').fill('Pin Drop Pho');
      await form.getByLabel('Type', { exact: true }).selectOption({ label: 'Restaurants' });
      await form.getByLabel(/Hours not known/).check();
      await form.getByLabel('Street address').fill('196 Queen St W');
      await island.getByRole('button', { name: 'Find on map' }).click();
      await page.locator('[data-island="place-pin"][data-map="ready"]').waitFor({ timeout: 30_000 });
      // 196 sits on the north side of Queen St W, which is the boundary here.
      const where = island.getByRole('status');
      await where.filter({ hasText: /^Neighbourhood: Kensington-Chinatown · Nearest station: Osgoode \(\d+ m\)$/ }).waitFor();
      const lat = form.getByLabel('Latitude');
      const lng = form.getByLabel('Longitude');
      const found = { latitude: Number(await lat.inputValue()), longitude: Number(await lng.inputValue()) };
      // Between the two known numbers, 194 and 198.
      expect(found.latitude).toBeGreaterThan(43.6503);
      expect(found.latitude).toBeLessThan(43.6507);
      await mapIdle(page, '.place-pin__map');

      // Drag the pin a little south-east, across Queen St W: the inputs follow, and the line
      // names the neighbourhood on the south side.
      const pin = island.locator('[data-pin]');
      await island.locator('.place-pin__map').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const box = (await pin.boundingBox())!;
      const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + i * 3, from.y + i * 8);
      await page.mouse.up();
      await page.waitForFunction((before) => (document.querySelector('input[name="latitude"]') as HTMLInputElement).value !== before, found.latitude.toFixed(6));
      point = { latitude: Number(await lat.inputValue()), longitude: Number(await lng.inputValue()) };
      expect(point.longitude).toBeGreaterThan(found.longitude);
      expect(point.latitude).toBeLessThan(found.latitude);
      // A small drag: some seventy metres at street level, still by Queen St W.
      expect(found.latitude - point.latitude).toBeLessThan(0.001);
      await where.filter({ hasText: /^Neighbourhood: Wellington Place · Nearest station: Osgoode \(\d+ m\)$/ }).waitFor();
      await island.scrollIntoViewIfNeeded();
      await screenshot(page, 'places-desk-pin-dragged-1280');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

      // Typing a point moves the pin (the keyboard's way to place it): a little further south.
      point = { latitude: Number((point.latitude - 0.0002).toFixed(6)), longitude: point.longitude };
      await lat.fill(String(point.latitude));
      await lat.press('Tab');
      // The map centres on the typed point and the pin stands there (its tip at the centre).
      await page.waitForFunction((want) => {
        const map = (document.querySelector('.place-pin__map') as MapElement).maplibreMap!;
        const r = (document.querySelector('[data-pin]') as HTMLElement).getBoundingClientRect();
        const c = map.getContainer().getBoundingClientRect();
        const centred = Math.abs(map.getCenter().lat - want) < 0.000005;
        return centred && Math.abs(r.left + r.width / 2 - (c.left + c.width / 2)) < 2 && r.top < c.top + c.height / 2 && r.bottom > c.top + c.height / 2 - 2;
      }, point.latitude);
      await where.filter({ hasText: /^Neighbourhood: Wellington Place/ }).waitFor();

      await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Add the place' }).click()]);
      // A refused form would come back with its messages: none.
      expect(await page.locator('.notice--error').allTextContents()).toEqual([]);
      await page.waitForURL(/\/staff\/places\/\d+\/\?done=added$/);
      id = Number(/\/staff\/places\/(\d+)\//.exec(page.url())![1]);
      const row = await b.t.ctx.db('listings as l').leftJoin('neighbourhoods as n', 'n.id', 'l.neighbourhood_id').leftJoin('subway_stops as s', 's.id', 'l.nearest_subway_stop_id').where('l.id', id).first('l.name', 'l.address', 'l.latitude', 'l.longitude', 'n.name as neighbourhood', 's.name as station');
      expect(row).toMatchObject({ name: 'Pin Drop Pho', address: '196 Queen St W', neighbourhood: 'Wellington Place', station: 'Osgoode' });
      expect(Math.abs(row.latitude - point.latitude)).toBeLessThan(1e-6);
      expect(Math.abs(row.longitude - point.longitude)).toBeLessThan(1e-6);
    } finally {
      await context.close();
    }

    // ## A reader at 375 px finds it on the hub's map, where the pin was.
    const phone = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const reader = await phone.newPage();
    reader.on('pageerror', (e) => errors.push(e.message));
    try {
      await reader.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'load' });
      await reader.locator('.listing-search .place-card__name', { hasText: 'Pin Drop Pho' }).waitFor();
      await reader.getByRole('button', { name: 'Map' }).click();
      await reader.locator('.listing-search__map[data-map-status="ready"]').waitFor({ timeout: 30_000 });
      await mapIdle(reader, '.listing-search__map');
      // The three places on this block are one cluster at the hub's zoom: the reader zooms in on it.
      const marker = await reader.evaluate(async ({ wanted, at }) => {
        const map = (document.querySelector('.listing-search__map') as MapElement).maplibreMap!;
        const idle = new Promise<void>((resolve) => map.once('idle', () => resolve()));
        map.jumpTo({ center: [at.longitude, at.latitude], zoom: 17 });
        await idle;
        const hit = map.queryRenderedFeatures({ layers: ['points'] }).find((f) => Number(f.properties?.id) === wanted);
        if (!hit) return null;
        const [lng, lat] = (hit.geometry as { coordinates: number[] }).coordinates;
        return { lat, lng, popup: String(hit.properties?.popup ?? '') };
      }, { wanted: id, at: point });
      expect(marker).not.toBeNull();
      expect(Math.abs(marker!.lat - point.latitude)).toBeLessThan(1e-5);
      expect(Math.abs(marker!.lng - point.longitude)).toBeLessThan(1e-5);
      expect(marker!.popup).toContain('Pin Drop Pho');
      await screenshot(reader, 'places-desk-pin-hub-map-375');
      expect(await horizontalOverflow(reader)).toBeLessThanOrEqual(1);
      expect(errors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, LONG);

  test('at 375 px the form loads no map until the address is found; a refused form keeps its point and shows it', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(e.message));
    const maplibre: string[] = [];
    page.on('request', (r) => {
      if (MAPLIBRE.test(r.url())) maplibre.push(r.url());
    });
    try {
      await logInThroughPage(page, b.baseUrl, EMAIL, PASSWORD);
      await page.goto(`${b.baseUrl}/staff/places/new/`, { waitUntil: 'networkidle' });
      const form = page.locator('form.place-form');
      const island = form.locator('[data-island="place-pin"][data-mounted="true"]');
      await island.waitFor();
      expect(maplibre).toEqual([]);

      // Not 196: the first test saved a place there with its pin dragged across Queen St W, and
      // the geocoder (told of the new place) now counts that point among 196's.
      await form.getByLabel('Street address').fill('198 Queen St W');
      await island.getByRole('button', { name: 'Find on map' }).click();
      await page.locator('[data-island="place-pin"][data-map="ready"]').waitFor({ timeout: 30_000 });
      expect(maplibre.length).toBeGreaterThan(0);
      await island.getByRole('status').filter({ hasText: /^Neighbourhood: Kensington-Chinatown/ }).waitFor();
      await mapIdle(page, '.place-pin__map');
      await island.scrollIntoViewIfNeeded();
      await screenshot(page, 'places-desk-pin-found-375');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);

      // No name: refused. The page comes back with the point typed, and the pin shows it again.
      await Promise.all([page.waitForNavigation(), form.getByRole('button', { name: 'Add the place' }).click()]);
      expect(await page.locator('[data-field-error="name"]').textContent()).toBeTruthy();
      expect(await form.getByLabel('Latitude').inputValue()).toMatch(/^43\.650\d+$/);
      await page.locator('[data-island="place-pin"]').getByRole('status').filter({ hasText: /^Neighbourhood: Kensington-Chinatown/ }).waitFor();
      await page.locator('[data-island="place-pin"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.locator('[data-island="place-pin"][data-map="ready"]').waitFor({ timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, LONG);
});
