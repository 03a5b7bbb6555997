import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle } from '../../server/testing/fixtures';

// A story scheduled for later (dated in the future) is nowhere a reader looks before its time:
// not on the home page, its hub or the navbar's menus, and its own URL is a 404, at 375 and
// 1280 px. The other readers (sitemap, feeds, API, search, newsletters) are in the server tests.

describeInBrowser('a scheduled article', () => {
  let b: BrowserApp;
  let scheduledPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createArticle(db, { name: 'Ferry schedule announced for the islands', is_featured: true, date_published: new Date(Date.now() - 3600_000) });
    const id = await createArticle(db, { name: 'Embargoed story about the islands', is_featured: true, date_published: new Date(Date.now() + 24 * 3600_000) });
    scheduledPath = (await db('articles').where({ id }).first('path')).path;
  }, 60_000);
  afterAll(() => b?.close());

  test.each([['home', '/'], ['news-hub', '/news/']])('%s shows the published story and not the scheduled one', async (name, path) => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        await page.goto(b.baseUrl + path, { waitUntil: 'load' });
        await page.locator('main').getByText('Ferry schedule announced for the islands').first().waitFor();
        expect([label, await page.getByText('Embargoed story about the islands').count()]).toEqual([label, 0]);
        expect([label, await page.locator(`a[href="${scheduledPath}"]`).count()]).toEqual([label, 0]);
        await screenshot(page, `scheduled-article-${name}-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  test('its own URL is a 404 until its time', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    try {
      const res = await page.goto(b.baseUrl + scheduledPath, { waitUntil: 'load' });
      expect(res?.status()).toBe(404);
      expect(await page.getByText('Embargoed story about the islands').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
