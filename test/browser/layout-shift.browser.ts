import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';

// A first-time visitor's page does not move while it loads, at 375 and 1280 px: the
// server-rendered header and the navbar island that replaces it have the same box, so the
// hydration, the late stylesheets and the fonts shift nothing (CLS stays under 0.01; the pages here measure 0 to 0.005 once the save controls reserve their height).
// Nor does a header that arrives in two parts: a busy phone (or a slow network) paints what
// it has parsed so far, and chromium does not honour <link rel=expect blocking=render>.

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
async function shiftsWhileLoading(page: Page, url: string, firstPaint = firstContentfulPaint): Promise<Shift[]> {
  let release = (): void => undefined;
  const painted = new Promise<void>((resolve) => (release = resolve));
  await page.route((u) => u.pathname.endsWith('.js') && u.pathname !== '/static/js/image-fallback.js', async (route) => {
    await painted;
    await route.continue();
  });
  await page.goto(url, { waitUntil: 'commit' });
  await firstPaint(page);
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

async function firstContentfulPaint(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
}

/** Two frames rendered: whatever the page holds now has been laid out and painted. */
function twoFrames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The app behind a second port that sends one page in two parts, cut where the test says,
 * the second when the test releases it; every other request goes to the app as it is.
 */
function startSplitServer(b: BrowserApp): Promise<{ server: Server; url: string; split(path: string, cutAt: (html: string) => number): { sendRest(): void } }> {
  let current: { path: string; cutAt: (html: string) => number; rest: Promise<void> } | undefined;
  const server = http.createServer((req, res) => {
    if (req.url !== '/in-two-parts' || !current) return void b.t.app(req, res);
    const { path, cutAt, rest } = current;
    void (async () => {
      const html = await (await fetch(`${b.baseUrl}${path}`)).text();
      const cut = cutAt(html);
      expect(cut).toBeGreaterThan(0);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.write(html.slice(0, cut));
      await rest;
      res.end(html.slice(cut));
    })();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in-two-parts`,
        split(path, cutAt) {
          let sendRest = (): void => undefined;
          current = { path, cutAt, rest: new Promise<void>((r) => (sendRest = r)) };
          return { sendRest };
        },
      });
    });
  });
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

  test('a header painted half-parsed does not move when the rest of it arrives, at 375 and 1280 px', async () => {
    const splitter = await startSplitServer(b);
    try {
      const cuts: Array<[string, (html: string) => number, string]> = [
        // Inside the top items: three of them parsed (what a CI run caught moving 0.01).
        ['three-items', (html) => nthIndexAfter(html, '</li>', html.indexOf('<ul class="navbar__items">'), 3), '.navbar__items > li'],
        // The search form in, the log-in links and the menu not yet.
        ['search-only', (html) => html.indexOf('</form>', html.indexOf('class="navbar__search"')) + '</form>'.length, '.navbar__search'],
      ];
      for (const [label, viewport] of Object.entries(VIEWPORTS)) {
        for (const [cutName, cutAt, parsedSoFar] of cuts) {
          const context = await b.browser.newContext({ viewport });
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          try {
            await recordLayoutShifts(page);
            const { sendRest } = splitter.split(articlePath, cutAt);
            const shifts = await shiftsWhileLoading(page, splitter.url, async (p) => {
              await twoFrames(p);
              // The first part really was laid out alone: the header ends inside the nav.
              expect(await p.evaluate((sel) => [document.querySelectorAll(sel).length > 0, !!document.querySelector('main')], parsedSoFar)).toEqual([true, false]);
              sendRest();
            });
            await screenshot(page, `layout-shift-two-parts-${cutName}-${label}`);
            const cls = shifts.reduce((sum, s) => sum + s.value, 0);
            expect([label, cutName, cls < MAX_CLS ? 'steady' : shifts]).toEqual([label, cutName, 'steady']);
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      splitter.server.closeAllConnections();
      await new Promise((r) => splitter.server.close(r));
    }
  }, 120_000);
});

/** The index just past the nth occurrence of `needle` after `from`. */
function nthIndexAfter(haystack: string, needle: string, from: number, n: number): number {
  let at = from;
  for (let i = 0; i < n; i++) at = haystack.indexOf(needle, at) + needle.length;
  return at;
}
