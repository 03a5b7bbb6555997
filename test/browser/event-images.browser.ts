import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createEvent } from '../../server/testing/fixtures';
import { jpegImage } from '../../server/apps/media/test-images';

// Events are drawn at the spec's 600x400 (spec 2 §9): the home page's events, the hub's cards
// (the server's and the events-hub island's) and the event page load that rendition, and the
// image endpoint serves it.

describeInBrowser('event images at 600x400', () => {
  let b: BrowserApp;
  let eventPath = '';

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await b.t.ctx.storage.put('test/market.jpg', await jpegImage(1600, 1200));
    const soon = new Date(Date.now() + 2 * 86400_000).toLocaleDateString('en-CA', { timeZone: 'Canada/Eastern' });
    const id = await createEvent(db, { title: 'Night market', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '18:00' } });
    await db('events').where({ id }).update({ image_key: 'test/market.jpg' });
    eventPath = `/events/night-market-${id}/`;
  }, 60_000);
  afterAll(() => b?.close());

  /** The loaded size and URL of each image of the market event that matches the selector. */
  const loaded = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).filter((i) => i.currentSrc.includes('/media/test/market.jpg')).map((i) => ({ query: new URL(i.currentSrc).search, size: `${i.naturalWidth}x${i.naturalHeight}` })),
    );
  const at600 = [{ query: '?w=600&h=400&cmd=crop', size: '600x400' }];

  test('home, hub (server and island) and event page load the 600x400 rendition at 375 and 1280 px', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/`, { waitUntil: 'load' });
        await page.locator('#events-title').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => [...document.images].some((i) => i.currentSrc.includes('market.jpg') && i.complete && i.naturalWidth > 0));
        expect(await loaded(page, 'img')).toEqual(at600);

        // Without JavaScript: the server's card.
        const plain = await b.browser.newContext({ viewport, javaScriptEnabled: false });
        const server = await plain.newPage();
        await server.goto(`${b.baseUrl}/events/`, { waitUntil: 'load' });
        expect(await loaded(server, '.event-card__image')).toEqual(at600);
        await plain.close();

        // With it: the events-hub island draws the cards.
        await page.goto(`${b.baseUrl}/events/`, { waitUntil: 'load' });
        await page.locator('[data-island="events-hub"][data-mounted]').waitFor();
        const card = page.locator('.events-hub .event-card__image').first();
        await card.scrollIntoViewIfNeeded();
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('.events-hub .event-card__image');
          return Boolean(img?.complete && img.naturalWidth > 0);
        });
        expect(await loaded(page, '.events-hub .event-card__image')).toEqual(at600);
        await screenshot(page, `event-images-hub-${label}`);

        await page.goto(b.baseUrl + eventPath, { waitUntil: 'load' });
        expect(await loaded(page, '.event__image')).toEqual(at600);
        await screenshot(page, `event-images-event-${label}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
