import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';

// An old link to a page past the end of a list (shared or bookmarked when the list was longer)
// lands on the list's first page with its other parameters (spec 2 §4), at 375 and 1280 px; a
// malformed page number is still a 400 that names the parameter.

describeInBrowser('old page links', () => {
  let b: BrowserApp;

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListing(db, { name: 'Pizza Palace', type_id: restaurants, rating: 4.5 });
    await createListing(db, { name: 'Dumpling House', type_id: restaurants, rating: 4.8 });
    await createArticle(db, { name: 'Streetcar service returns to King Street', date_published: new Date(Date.now() - 3600_000) });
  }, 60_000);
  afterAll(() => b?.close());

  const cases: Array<[string, string, string, string]> = [
    ['listing-hub', '/restaurants/?page=9999&ordering=-rating', '/restaurants/?ordering=-rating', 'Dumpling House'],
    ['news', '/news/?page=99', '/news/', 'Streetcar service returns to King Street'],
  ];

  test.each(cases)('%s: a page past the end opens the first page, the other parameters kept', async (name, oldLink, firstPage, shown) => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        const res = await page.goto(b.baseUrl + oldLink, { waitUntil: 'load' });
        expect([label, res?.status()]).toEqual([label, 200]);
        expect([label, page.url()]).toEqual([label, b.baseUrl + firstPage]);
        await page.locator('main').getByText(shown).first().waitFor();
        await screenshot(page, `old-page-link-${name}-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  test('a malformed page number is still a 400 naming page', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    try {
      const res = await page.goto(`${b.baseUrl}/restaurants/?page=abc`, { waitUntil: 'load' });
      expect(res?.status()).toBe(400);
      expect(await page.locator('main').textContent()).toContain('page');
      await screenshot(page, 'old-page-link-malformed-mobile');
    } finally {
      await context.close();
    }
  }, 60_000);
});
