import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { saveListingHours } from '../../server/apps/listings/hours-queries';

// Place hours (issue 39) as a visitor sees them at 375 and 1280 px: the hub island's Open now
// box narrows the results and keeps itself in the URL, the page reloaded without the island's
// help shows the box checked, and the place page says whether the place is open, with its week.
// The app runs on the real clock, so the places are open round the clock, never open or of
// unknown hours: what each shows does not depend on when the test runs.

const LONG = 240_000;

describeInBrowser('place hours in a browser', () => {
  let b: BrowserApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const always = await createListing(db, { name: 'Always Open Deli', type_id: restaurants, address: '1 Queen St W' });
    await saveListingHours(db, always, {
      weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ opens: '00:00', closes: '24:00' }]])),
      holidays: 'usual',
    });
    const never = await createListing(db, { name: 'Never Open Diner', type_id: restaurants, address: '2 Queen St W' });
    await saveListingHours(db, never, { weekly: {}, holidays: 'closed' });
    const split = await createListing(db, { name: 'Split Shift Bistro', type_id: restaurants, address: '3 Queen St W' });
    // Out of every Open now list: closed for good measure by a long temporary closure.
    await saveListingHours(db, split, {
      weekly: { tue: [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '22:00' }], fri: [{ opens: '17:00', closes: '02:00' }] },
      holidays: 'hours',
      holidayRanges: [{ opens: '12:00', closes: '20:00' }],
      closure: { from: '2020-01-01', until: '2099-12-31', note: 'Renovations' },
    });
    await createListing(db, { name: 'Mystery Grill', type_id: restaurants, address: '4 Queen St W' });
    paths.always = `/restaurants/always-open-deli-${always}/`;
    paths.split = `/restaurants/split-shift-bistro-${split}/`;
  }, 120_000);
  afterAll(() => b?.close());

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    test(`${label}: the hub's Open now box, with and without the island`, async () => {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'load' });
        await page.locator('.listing-search[data-enhanced]').waitFor();
        const names = () => page.locator('.listing-search .place-card__name').allTextContents();
        expect((await names()).sort()).toEqual(['Always Open Deli', 'Mystery Grill', 'Never Open Diner', 'Split Shift Bistro']);
        const toggle = page.getByRole('button', { name: /^(Filters|Hide filters)/ });
        const box = page.getByLabel(/Open now/);
        if (!(await box.isVisible())) await toggle.click();
        await box.check();
        await page.waitForURL(/openNow=true/);
        await page.waitForFunction(() => [...document.querySelectorAll('.listing-search .place-card__name')].map((n) => n.textContent).join() === 'Always Open Deli');
        await screenshot(page, `place-hours-hub-open-now-${label}`);
        expect(await horizontalOverflow(page)).toBe(0);

        // The same URL from the server alone: the form's box checked, only the open place.
        const noJs = await b.browser.newContext({ viewport, javaScriptEnabled: false });
        const plain = await noJs.newPage();
        await plain.goto(`${b.baseUrl}/restaurants/?openNow=true`, { waitUntil: 'load' });
        expect(await plain.locator('form input[name="openNow"]').isChecked()).toBe(true);
        expect(await plain.locator('.place-card__name').allTextContents()).toEqual(['Always Open Deli']);
        await noJs.close();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, LONG);

    test(`${label}: the place page says whether it is open, with its week`, async () => {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        await page.goto(`${b.baseUrl}${paths.always}`, { waitUntil: 'load' });
        expect(await page.locator('[data-open-state]').textContent()).toContain('Open now · Open 24 hours');
        await page.goto(`${b.baseUrl}${paths.split}`, { waitUntil: 'load' });
        expect(await page.locator('[data-open-state]').textContent()).toContain('Temporarily closed · Reopens');
        expect(await page.locator('.hours-box__closure').textContent()).toContain('(Renovations)');
        expect(await page.locator('table.hours tr', { hasText: 'Tuesday' }).locator('td').textContent()).toBe('11:30 am – 2:30 pm, 5 pm – 10 pm');
        await screenshot(page, `place-hours-page-${label}`);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await seriousA11yViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    }, LONG);
  }
});
