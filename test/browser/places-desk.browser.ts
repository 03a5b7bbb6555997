import { describeInBrowser } from './chromium';
import { horizontalOverflow, logInThroughPage, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember } from '../../server/testing/test-app';
import { createListing, createListingType, createNeighbourhood } from '../../server/testing/fixtures';
import { saveListingHours } from '../../server/apps/listings/hours-queries';

// The places desk in a browser (issue 39: "edit hours and see Open now change with the clock"):
// a staff member opens a place on the desk at 1280 px, sees it closed every day on its public
// page, types round-the-clock hours into the form and saves; the public page then says
// "Open now". The app runs on the real clock, so the hours are chosen to make each state
// certain whenever the test runs: closed every day, then open 24 hours every day.

const LONG = 240_000;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

describeInBrowser('the places desk in a browser', () => {
  let b: BrowserApp;
  let placeId: number;
  let publicPath: string;
  const password = 'desk-browser-Passw0rd!';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createMember(b.t.ctx, { email: 'desk-browser@example.com', password, is_staff: true, full_name: 'Dana Desk' });
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createNeighbourhood(db, { name: 'Desk Browser Village' });
    placeId = await createListing(db, { name: 'Night Owl Noodles', type_id: restaurants, address: '12 Queen St W', latitude: 43.65, longitude: -79.39 });
    await saveListingHours(db, placeId, { weekly: {}, holidays: 'usual' });
    publicPath = `/restaurants/night-owl-noodles-${placeId}/`;
  }, 120_000);
  afterAll(() => b?.close());

  test('1280 px: staff edit the hours on the desk and the public page says Open now', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${b.baseUrl}${publicPath}`, { waitUntil: 'load' });
      expect(await page.locator('[data-open-state]').textContent()).toMatch(/Closed/);

      await logInThroughPage(page, b.baseUrl, 'desk-browser@example.com', password);
      await page.goto(`${b.baseUrl}/staff/places/?q=night`, { waitUntil: 'load' });
      await page.getByRole('link', { name: 'Night Owl Noodles' }).click();
      await page.waitForURL(`${b.baseUrl}/staff/places/${placeId}/`);
      expect(await page.locator('#place-hours_mon').inputValue()).toBe('closed');

      for (const d of DAYS) await page.locator(`#place-hours_${d}`).fill('00:00-24:00');
      await screenshot(page, 'places-desk-edit-hours-desktop');
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await Promise.all([page.waitForURL(`${b.baseUrl}/staff/places/${placeId}/?done=saved`), page.getByRole('button', { name: 'Save changes' }).click()]);
      expect(await page.getByRole('status').first().textContent()).toContain('Saved.');
      expect(await page.locator('.place-desk__revisions').textContent()).toContain('hours Mon–Sun closed → 24 hours');
      await screenshot(page, 'places-desk-saved-desktop');

      // The public page, as a reader sees it (the page caches were told of the change).
      const reader = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
      const readerPage = await reader.newPage();
      await readerPage.goto(`${b.baseUrl}${publicPath}`, { waitUntil: 'load' });
      expect(await readerPage.locator('[data-open-state]').textContent()).toContain('Open now · Open 24 hours');
      expect(await readerPage.locator('table.hours tr', { hasText: 'Monday' }).locator('td').textContent()).toBe('Open 24 hours');
      await screenshot(readerPage, 'places-desk-public-open-now-desktop');
      await reader.close();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, LONG);

  test('375 px: the list, the revisions and the form fit a phone', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    try {
      await logInThroughPage(page, b.baseUrl, 'desk-browser@example.com', password);
      await page.goto(`${b.baseUrl}/staff/places/`, { waitUntil: 'load' });
      await screenshot(page, 'places-desk-list-mobile');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      // The revisions of the place the test above edited, each with its Revert button.
      await page.goto(`${b.baseUrl}/staff/places/${placeId}/revisions/`, { waitUntil: 'load' });
      await screenshot(page, 'places-desk-revisions-mobile');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      await page.goto(`${b.baseUrl}/staff/places/new/`, { waitUntil: 'load' });
      await screenshot(page, 'places-desk-new-mobile');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, LONG);
});
