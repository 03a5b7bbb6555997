import sharp from 'sharp';
import type { Page, Request } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle } from '../../server/testing/fixtures';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';
import { AD_REFRESH_MS, AD_SLOTS } from '../../shared/ads';

// A reader sees a house ad in the news hub's leaderboard at 375 and 1280 px: the slot has its
// size before the ad arrives and keeps it (no layout shift at all), the ad request carries no
// cookie, and a click is counted before the advertiser's page opens. A slot in view shows a
// new ad every 45 s, and none while the tab is hidden.

const ADVERTISER = 'https://advertiser.example/spring';

/** A 728x90 banner with words on it, so a screenshot shows which ad filled the slot. */
function banner(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="728" height="90"><rect width="728" height="90" fill="#0b5e3c"/><text x="364" y="58" font-family="sans-serif" font-size="34" fill="#fff" text-anchor="middle">Spring sale at the Market</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Waits for a condition the test process sees (a request counted), polling. */
async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sums the page's layout shifts from its first paint on (the CLS a reader would feel). */
async function trackLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

describeInBrowser('ad slots', () => {
  let b: BrowserApp;
  let adId = 0;
  const counts = async () => (await b.t.ctx.db('house_ad_daily_counts').where({ ad_id: adId }).first()) ?? { impressions: 0, clicks: 0 };

  beforeAll(async () => {
    b = await startBrowserApp({ FEATURE_ADS: 'true' });
    const { db, storage } = b.t.ctx;
    for (let i = 0; i < 4; i++) await createArticle(db, { name: `Ferry story number ${i + 1}`, date_published: new Date(Date.now() - (i + 1) * 3600_000) });
    await storage.put('uploads/m1/spring-banner.png', await banner());
    const [row] = await db('house_ads')
      .insert({ name: 'Spring sale', slot: 'leaderboard', link_url: ADVERTISER, image_key: 'uploads/m1/spring-banner.png', alt_text: 'Spring sale at the Market', starts_on: '2020-01-01', weight: 1 })
      .returning('id');
    adId = Number(row.id);
  }, 60_000);
  afterAll(() => b?.close());

  test('a house ad fills the leaderboard without moving the page, and its click is counted', async () => {
    let clicks = 0;
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await context.route(`${ADVERTISER}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Advertiser</title><h1>Advertiser</h1>' }));
      const adRequests: Request[] = [];
      page.on('request', (r) => {
        // The leaderboard's: the in-feed slot asks too when the stories are short enough to show it.
        if (r.url().includes('/api/ads/serve/?slot=leaderboard')) adRequests.push(r);
      });
      try {
        // The ad is held back until the page has painted and settled, so what it changes is
        // measured on its own: the layout shift it adds, and where the slot and the stories are.
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/ads/serve/**', async (route) => {
          await held;
          await route.continue();
        });
        await trackLayoutShift(page);
        // A reader who has met a form here holds the site's csrftoken cookie (a first visit to
        // a content page gets none): the ad request must still go without it.
        expect([label, (await context.request.get(`${b.baseUrl}/accounts/login`)).status()]).toEqual([label, 200]);
        expect([label, (await context.cookies()).map((c) => c.name)]).toEqual([label, ['csrftoken']]);
        await page.goto(`${b.baseUrl}/news/`, { waitUntil: 'load' });
        const slot = page.locator('[data-ad-slot="leaderboard"]');
        await until(() => adRequests.length === 1);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const where = () =>
          page.evaluate(() => ({
            slot: document.querySelector('[data-ad-slot="leaderboard"] .ad-slot__box')!.getBoundingClientRect().toJSON(),
            stories: document.querySelector('main .card-grid')!.getBoundingClientRect().toJSON(),
            shift: (window as unknown as { __shift: number }).__shift,
          }));
        const before = await where();
        await screenshot(page, `ads-news-leaderboard-empty-${label}`);
        release();
        const img = slot.locator('img[alt="Spring sale at the Market"]');
        await img.waitFor();
        await page.waitForFunction(() => {
          const i = document.querySelector<HTMLImageElement>('[data-ad-slot="leaderboard"] img');
          return Boolean(i && i.complete && i.naturalWidth > 0);
        });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect([label, await slot.getAttribute('data-ad-source')]).toEqual([label, `house:${adId}`]);
        expect([label, await where()]).toEqual([label, before]);

        // The box is the slot's fixed size for this width.
        const size = AD_SLOTS.leaderboard[viewport.width >= 640 ? 'large' : 'small'];
        const box = await slot.locator('.ad-slot__box').evaluate((el) => ({ width: el.clientWidth, height: el.clientHeight }));
        expect([label, box]).toEqual([label, size]);

        // The ad request went without a cookie, though the browser holds one of the site's.
        expect(adRequests.length).toBeGreaterThanOrEqual(1);
        expect([label, (await adRequests[0].allHeaders()).cookie]).toEqual([label, undefined]);
        await screenshot(page, `ads-news-leaderboard-${label}`);

        await img.click();
        await page.waitForURL(ADVERTISER);
        clicks += 1;
        expect([label, await counts()]).toMatchObject([label, { clicks }]);
        expect((await counts()).impressions).toBeGreaterThanOrEqual(clicks);
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  test('a slot in view refreshes every 45 s, and never while the tab is hidden', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    let served = 0;
    page.on('requestfinished', (r) => {
      if (r.url().includes('/api/ads/serve/?slot=leaderboard')) served += 1;
    });
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    try {
      await page.clock.install();
      await page.goto(`${b.baseUrl}/news/`, { waitUntil: 'load' });
      await page.locator('[data-ad-slot="leaderboard"] img').waitFor();
      await until(() => served === 1);

      await page.clock.runFor(AD_REFRESH_MS - 1000);
      expect(served).toBe(1);
      await page.clock.runFor(1000);
      await until(() => served === 2);

      await setHidden(true);
      await page.clock.runFor(AD_REFRESH_MS * 3);
      // Give a wrongly sent request the time to arrive before saying none did.
      await page.evaluate(() => fetch('/healthz'));
      expect(served).toBe(2);

      await setHidden(false);
      await page.clock.runFor(AD_REFRESH_MS);
      await until(() => served === 3);

      // Scrolled out of view, the slot waits too.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      // Our own observer of the slot hears it leave the view in the same delivery as the
      // island's, which observed it first: once ours has, the island knows too.
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const seen = new IntersectionObserver((entries) => {
              if (entries.some((e) => !e.isIntersecting)) {
                seen.disconnect();
                resolve();
              }
            });
            seen.observe(document.querySelector('[data-ad-slot="leaderboard"]')!);
          }),
      );
      await page.clock.runFor(AD_REFRESH_MS * 2);
      await page.evaluate(() => fetch('/healthz'));
      expect(served).toBe(3);
    } finally {
      await context.close();
    }
  }, 90_000);

  test('staff see the ad with its impressions and clicks at /staff/ads/', async () => {
    const staff = await createMember(b.t.ctx, { is_staff: true, full_name: 'Ad Staff' });
    const [name, value] = (await memberSessionCookie(b.t, staff)).split('=');
    const { impressions, clicks } = await counts();
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      await context.addCookies([{ name, value, url: b.baseUrl }]);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        await page.goto(`${b.baseUrl}/staff/ads/`, { waitUntil: 'load' });
        const row = page.locator(`tr[data-ad-id="${adId}"]`);
        await row.getByRole('link', { name: 'Spring sale' }).waitFor();
        expect([label, await row.locator('[data-impressions]').innerText(), await row.locator('[data-clicks]').innerText()]).toEqual([label, String(impressions), String(clicks)]);
        await screenshot(page, `ads-staff-list-${label}`);
        await row.getByRole('link', { name: 'Spring sale' }).click();
        await page.locator('#weight').waitFor();
        await screenshot(page, `ads-staff-form-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});
