import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeInBrowser } from './chromium';
import { screenshot, VIEWPORTS } from './browser-app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { createArticle, createEvent, createListing, createListingType } from '../../server/testing/fixtures';
import { jpegImage } from '../../server/apps/media/test-images';

// Issue 26 item 6: an operator's first look is at http://127.0.0.1:3000 while SITE_URL says
// http://localhost:3000. The page's CSP (img-src 'self') and the media's
// Cross-Origin-Resource-Policy: same-origin refuse pictures named by SITE_URL's origin there,
// so every picture the server prints or an island draws must come from the page's own origin.

interface Seen {
  violations: string[];
  failed: string[];
  media: Map<string, number>;
}

/** Records CSP violations (from the page) and the fate of every /media/ request. */
async function watch(page: Page): Promise<Seen> {
  const seen: Seen = { violations: [], failed: [], media: new Map() };
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  page.on('requestfailed', (r) => seen.failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/media/')) seen.media.set(r.url(), r.status());
  });
  return seen;
}

/**
 * Scrolls each picture that has not loaded yet into view (lazy ones load only then) until every
 * visible picture is complete. It runs in the page and looks the pictures up again on every
 * poll, because an island that mounts meanwhile replaces the server's <img> elements.
 */
async function loadEveryPicture(page: Page): Promise<Array<{ src: string; width: number }>> {
  await page.waitForFunction(() => {
    const waiting = [...document.images].filter((img) => img.checkVisibility() && !img.complete);
    waiting[0]?.scrollIntoView({ block: 'center' });
    return waiting.length === 0;
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.$$eval('img', (imgs) => (imgs as HTMLImageElement[]).filter((img) => img.checkVisibility()).map((img) => ({ src: img.currentSrc || img.src, width: img.naturalWidth })));
}

describeInBrowser('pictures at another host than SITE_URL', () => {
  let t: TestContext;
  let server: Server;
  let browser: Browser;
  let pageOrigin = '';
  let siteUrl = '';

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    pageOrigin = `http://127.0.0.1:${port}`;
    siteUrl = `http://localhost:${port}`;
    t = await createTestContext({ SITE_URL: siteUrl });
    server.on('request', t.app);
    const db = t.ctx.db;
    const keys = ['test/a.jpg', 'test/b.jpg', 'test/c.jpg'];
    for (const key of keys) await t.ctx.storage.put(key, await jpegImage(1600, 1200));
    for (let i = 0; i < 4; i++) await createArticle(db, { name: `Story with a picture ${i + 1}`, image_key: keys[i % 3], is_featured: i === 0 });
    const cafes = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    for (let i = 0; i < 6; i++) await createListing(db, { name: `Cafe ${i + 1}`, type_id: cafes, image_key: keys[i % 3] });
    const soon = new Date(Date.now() + 2 * 86400_000).toLocaleDateString('en-CA', { timeZone: 'Canada/Eastern' });
    const eventId = await createEvent(db, { title: 'Night market', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '18:00' } });
    await db('events').where({ id: eventId }).update({ image_key: keys[0] });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  test.each([
    ['home', '/', 5],
    ['hub', '/cafes/', 6],
  ])('the %s page at 127.0.0.1 loads every picture from its own origin, at 375 and 1280 px', async (name, path, minMedia) => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        const seen = await watch(page);
        await page.goto(pageOrigin + path, { waitUntil: 'load' });
        const pictures = await loadEveryPicture(page);
        const where = `${name} ${label}`;
        // Every picture drawn, none broken, and our own pictures are what was drawn (a refused
        // one would have been swapped for its placeholder by image-fallback.js).
        expect([where, pictures.filter((p) => p.width === 0)]).toEqual([where, []]);
        const own = pictures.filter((p) => new URL(p.src).pathname.startsWith('/media/'));
        expect([where, own.length >= minMedia]).toEqual([where, true]);
        expect([where, own.filter((p) => !p.src.startsWith(`${pageOrigin}/media/`))]).toEqual([where, []]);
        expect([where, [...seen.media].filter(([, status]) => status !== 200)]).toEqual([where, []]);
        expect([where, [...seen.media.keys()].filter((u) => !u.startsWith(pageOrigin))]).toEqual([where, []]);
        expect([where, seen.failed.filter((f) => f.includes('/media/'))]).toEqual([where, []]);
        expect([where, await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)]).toEqual([where, []]);
        await screenshot(page, `other-host-${name}-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
