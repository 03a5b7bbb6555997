import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListingType } from '../../server/testing/fixtures';

// The navbar's Places submenu (spec 2 §2): recent reviews beside the listing types. The top
// items are a large-screen menu (hover, from 1025 px); on a phone the bar keeps its burger.

describeInBrowser('the Places submenu', () => {
  let b: BrowserApp;
  let reviewPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListingType(db, { name: 'Bars', slug: 'bars' });
    const id = await createArticle(db, { name: 'Review: a new ramen bar on Queen West', type_slug: 'food', date_published: new Date(Date.now() - 3600_000) });
    reviewPath = (await db('articles').where({ id }).first('path')).path;
  }, 60_000);
  afterAll(() => b?.close());

  test('at 1280 px hovering Places shows the recent reviews and the listing types, with and without JavaScript', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/about`, { waitUntil: 'load' });
        if (javaScriptEnabled) await page.locator('.navbar.is-enhanced').waitFor();
        const places = page.locator('.navbar__item--menu', { has: page.locator(':scope > a', { hasText: /^Places$/ }) });
        const submenu = places.locator('.navbar__submenu');
        expect(await submenu.isVisible()).toBe(false);
        await places.locator(':scope > a').hover();
        await submenu.waitFor({ state: 'visible' });
        expect(await submenu.locator('.navbar__submenu-title').textContent()).toBe('RECENT REVIEWS');
        expect(await submenu.getByRole('link').evaluateAll((as) => as.map((a) => `${a.textContent} ${a.getAttribute('href')}`))).toEqual([
          `Review: a new ramen bar on Queen West ${reviewPath}`,
          'Restaurants /restaurants/',
          'Bars /bars/',
          'All Places /places/',
        ]);
        // axe runs in the page: only where the page runs scripts.
        if (javaScriptEnabled) expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `places-submenu-desktop-${javaScriptEnabled ? 'island' : 'no-js'}`);
        await submenu.getByRole('link', { name: 'Review: a new ramen bar on Queen West' }).click();
        await page.waitForURL(`${b.baseUrl}${reviewPath}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  test('at 375 px the top items give way to the burger: no submenu over the page, nothing wider than the screen', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${b.baseUrl}/about`, { waitUntil: 'load' });
      await page.locator('.navbar.is-enhanced').waitFor();
      expect(await page.locator('.navbar__submenu').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length)).toBe(0);
      expect(await page.getByRole('button', { name: /menu/i }).first().isVisible()).toBe(true);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      await screenshot(page, 'places-submenu-mobile');
    } finally {
      await context.close();
    }
  }, 60_000);
});
