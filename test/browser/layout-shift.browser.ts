import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';

// A first-time visitor's page does not move while it loads, at 375 and 1280 px: the
// server-rendered header and the navbar island that replaces it have the same box, so the
// hydration, the late stylesheets and the fonts shift nothing (CLS stays under 0.01; the pages here measure 0 to 0.005 once the save controls reserve their height).

const MAX_CLS = 0.01;

interface Shift {
  value: number;
  sources: string[];
}

/** Records every layout shift without recent input from the first paint on, naming what moved. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: Shift[] };
    w.__shifts = [];
    const name = (n: Node | null): string => {
      if (!(n instanceof Element)) return String(n?.nodeName ?? 'null');
      return n.tagName.toLowerCase() + (n.id ? `#${n.id}` : '') + (n.classList.length ? `.${[...n.classList].join('.')}` : '');
    };
    type Entry = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Entry[]) {
        if (e.hadRecentInput) continue;
        w.__shifts.push({
          value: e.value,
          sources: e.sources.map((s) => `${name(s.node)} ${JSON.stringify(s.previousRect.toJSON())} -> ${JSON.stringify(s.currentRect.toJSON())}`),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * Loads a page as a slow phone would: the islands' modules arrive only after the server's page
 * has painted, so every island replaces markup a person has already seen (on a fast machine they
 * could run before the first paint and hide a shift). Then waits until the navbar island has
 * replaced the server's nav and the fonts are in, and answers the page's shifts.
 */
async function shiftsWhileLoading(page: Page, url: string): Promise<Shift[]> {
  let release = (): void => undefined;
  const painted = new Promise<void>((resolve) => (release = resolve));
  await page.route((u) => u.pathname.endsWith('.js') && u.pathname !== '/static/js/image-fallback.js', async (route) => {
    await painted;
    await route.continue();
  });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  release();
  await page.waitForLoadState('load');
  await page.locator('.site-header .navbar.is-enhanced').waitFor();
  // A listing hub: its panel and every save control (the islands that replace server markup) are in.
  if (await page.locator('[data-island="listing-search"]').count()) await page.locator('.listing-search[data-enhanced]').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.save-control:not(.is-enhanced)').length === 0);
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

describeInBrowser('layout shift while a page loads', () => {
  let b: BrowserApp;
  let articlePath = '';
  let listingPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const { db } = b.t.ctx;
    let id = 0;
    for (let i = 0; i < 4; i++) id = await createArticle(db, { name: `Ferry story number ${i + 1}`, date_published: new Date(Date.now() - (i + 1) * 3600_000) });
    articlePath = (await db('articles').where({ id }).first('path')).path;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    let listingId = 0;
    for (let i = 0; i < 12; i++) listingId = await createListing(db, { name: `Diner ${i + 1}`, type_id: restaurants, address: `${100 + i} Queen St W`, latitude: 43.65 + i * 0.001, longitude: -79.39 });
    listingPath = `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`;
  }, 60_000);
  afterAll(() => b?.close());

  test('the news hub, the home page, an article, a listing hub and a listing page do not shift at 375 and 1280 px', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      for (const [pageName, path] of [['news', '/news/'], ['home', '/'], ['article', articlePath], ['listing-hub', '/restaurants/'], ['listing', listingPath]]) {
        // A fresh context each time: a first-time visitor, nothing cached.
        const context = await b.browser.newContext({ viewport });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        try {
          await recordLayoutShifts(page);
          const shifts = await shiftsWhileLoading(page, `${b.baseUrl}${path}`);
          await screenshot(page, `layout-shift-${pageName}-${label}`);
          const cls = shifts.reduce((sum, s) => sum + s.value, 0);
          expect([label, pageName, cls < MAX_CLS ? 'steady' : shifts]).toEqual([label, pageName, 'steady']);
        } finally {
          await context.close();
        }
      }
    }
  }, 180_000);
});
