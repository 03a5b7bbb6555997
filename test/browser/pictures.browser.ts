import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';

// Issue 14 "Pictures": something without a photo shows its designed category placeholder, and a
// picture that fails to load (a media file gone) becomes that placeholder, never a broken image.

describeInBrowser('pictures never break', () => {
  let b: BrowserApp;
  let listingPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createArticle(db, { name: 'A story without a picture', image_key: null });
    await createArticle(db, { name: 'A story whose picture was deleted', image_key: 'articles/gone.jpg' });
    const bars = await createListingType(db, { name: 'Bars', slug: 'bars' });
    const id = await createListing(db, { name: 'The Lost Photo Tavern', type_id: bars, image_key: 'listings/gone.jpg' });
    listingPath = `/bars/the-lost-photo-tavern-${id}/`;
  }, 120_000);
  afterAll(() => b?.close());

  /** Every <img> on the page has loaded something (no broken image); the sources of those named. */
  async function pictures(page: import('playwright-core').Page, selector: string) {
    await page.waitForFunction((sel) => [...document.querySelectorAll<HTMLImageElement>(sel)].every((img) => img.complete && img.naturalWidth > 0), selector);
    return page.$$eval(selector, (imgs) => (imgs as HTMLImageElement[]).map((img) => new URL(img.currentSrc || img.src).pathname));
  }

  test('placeholders for articles without a picture and for a deleted picture, on the home page and a place, at 375 and 1280 px', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/`, { waitUntil: 'load' });
        const sources = await pictures(page, '.card__image');
        expect(sources.length).toBeGreaterThanOrEqual(2);
        // Both stories show the article placeholder: one had none, the other's file is gone.
        expect(sources.filter((s) => s === '/static/img/placeholders/article.svg').length).toBeGreaterThanOrEqual(2);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `pictures-home-${label}`);

        await page.goto(b.baseUrl + listingPath, { waitUntil: 'load' });
        expect(await pictures(page, '.listing__image')).toEqual(['/static/img/placeholders/bars.svg']);
        await screenshot(page, `pictures-listing-${label}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
