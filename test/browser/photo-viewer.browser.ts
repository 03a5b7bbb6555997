import sharp from 'sharp';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import fs from 'node:fs';
import path from 'node:path';
import { SCREENSHOT_DIR, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType, createPhoto } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The photo viewer island (islands/photo-viewer; needs `npm run build:islands` first), clicked
// through as a visitor would on the photo list and on the listing page, at 375 and 1280 px:
// a thumbnail opens its photo over the page at its share path, 'N of M', ← → and the buttons,
// no Previous on the first photo and no Next on the last, photos past the printed page read
// from the API, Esc / Close / Back return to the closed path with focus back on the
// thumbnail, Tab stays inside, swipe on the phone only, and axe on every open state.

const COUNT = 26; // one more page than the list prints (24)

describeInBrowser('photo viewer in the browser', () => {
  let b: BrowserApp;
  let listingPath: string;
  let photosPath: string;
  const photoIds: number[] = []; // newest first, as the list shows them
  const photoPath = (n: number) => `${photosPath}${photoIds[n - 1]}/`;

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const listingId = await createListing(db, { name: 'Pizzeria Libretto', type_id: typeId, address: '221 Ossington Ave' });
    listingPath = `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`;
    photosPath = `${listingPath}photos/`;
    const member = await createMember(b.t.ctx, { full_name: 'Avery Chen' });
    const ids: number[] = [];
    for (let i = 0; i < COUNT; i++) {
      // Real JPEGs, each its own colour, so the screenshots show which photo is open.
      const key = `photos/viewer-${i}.jpg`;
      const hue = Math.round((i * 360) / COUNT);
      const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: `hsl(${hue}, 60%, 45%)` } }).jpeg({ quality: 70 }).toBuffer();
      await b.t.ctx.storage.put(key, jpeg, 'image/jpeg');
      ids.push(await createPhoto(db, { listing_id: listingId, image_key: key, title: i === 0 ? 'Margherita fresh from the oven' : '', profile_id: i % 2 ? member.id : null, creation_date: new Date(Date.UTC(2026, 0, 1, 0, i)) }));
    }
    photoIds.push(...ids.reverse());
  }, 120_000);
  afterAll(() => b?.close());

  async function openPage(
    viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS],
    path: string,
    serviceWorkers: 'allow' | 'block' = 'allow',
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await b.browser.newContext({ viewport, hasTouch: viewport.width < 640, serviceWorkers });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(b.baseUrl + path);
    await page.locator('[data-island="photo-viewer"][data-mounted]').waitFor({ state: 'attached' });
    return { context, page, errors };
  }

  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Photos of Pizzeria Libretto' });
  const position = (page: Page) => dialog(page).locator('.photo-viewer__position');
  const thumb = (page: Page, n: number) => page.locator(`[data-island="photo-viewer"] a[href="${photoPath(n)}"]`);

  async function expectAt(page: Page, n: number): Promise<void> {
    await position(page).filter({ hasText: new RegExp(`^${n} of ${COUNT}$`) }).waitFor();
    await page.waitForURL(b.baseUrl + photoPath(n));
    // The open photo is the one at its share path, loaded (not the placeholder).
    await dialog(page).locator(`.yarl__slide_current img[src*="viewer-${COUNT - n}.jpg"]`).waitFor();
    // The slide has come to rest (the lightbox ignores keys and drags while it moves).
    await page.waitForFunction(() => {
      const slide = document.querySelector('.yarl__slide_current')?.getBoundingClientRect();
      const frame = document.querySelector('.yarl__container')?.getBoundingClientRect();
      return Boolean(slide && frame && Math.abs(slide.left - frame.left) < 1);
    });
  }

  async function expectNoA11yViolations(page: Page): Promise<void> {
    expect(await seriousA11yViolations(page)).toEqual([]);
  }

  const visible = (l: Locator) => l.isVisible();

  test('photo list at 1280 px: open, ← →, Esc back to the list with focus on the thumbnail', async () => {
    const { context, page, errors } = await openPage(VIEWPORTS.desktop, photosPath);
    try {
      await thumb(page, 3).click();
      await dialog(page).waitFor();
      await expectAt(page, 3);
      expect(await visible(dialog(page).getByRole('button', { name: 'Previous photo' }))).toBe(true);
      expect(await visible(dialog(page).getByRole('button', { name: 'Next photo' }))).toBe(true);
      await expect(dialog(page).getByRole('heading', { name: 'Photo of Pizzeria Libretto' }).isVisible()).resolves.toBe(true);
      await dialog(page).getByText('Photo by Avery Chen').waitFor(); // the 24th-oldest is a member's
      await screenshot(page, 'photo-viewer-list-open-1280');
      await expectNoA11yViolations(page);

      await page.keyboard.press('ArrowRight');
      await expectAt(page, 4);
      await page.keyboard.press('ArrowLeft');
      await expectAt(page, 3);
      await page.keyboard.press('ArrowLeft');
      await expectAt(page, 2);
      await dialog(page).getByRole('button', { name: 'Next photo' }).click();
      await expectAt(page, 3);

      // Tab stays in the viewer.
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      }

      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      await page.waitForURL(b.baseUrl + photosPath);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(photoPath(3));
      // The page is usable again (nothing left inert), and still one history entry deep.
      expect(await page.locator('[inert]').count()).toBe(0);
      await page.goBack();
      expect(page.url()).toBe('about:blank');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('first and last: no Previous on the first photo, no Next on the last; the next page is read from the API', async () => {
    const { context, page, errors } = await openPage(VIEWPORTS.desktop, photosPath);
    try {
      await thumb(page, 1).click();
      await expectAt(page, 1);
      expect(await dialog(page).getByRole('button', { name: 'Previous photo' }).count()).toBe(0);
      expect(await visible(dialog(page).locator('.yarl__navigation_prev'))).toBe(false);
      await page.keyboard.press('ArrowLeft'); // nothing before the first
      await expectAt(page, 1);
      await screenshot(page, 'photo-viewer-first-1280');
      await expectNoA11yViolations(page);

      // The list printed 24; 25 and 26 come from GET /api/v2/photos/?listing=…&offset=24.
      await page.keyboard.press('Escape');
      await page.waitForURL(b.baseUrl + photosPath);
      const api = page.waitForResponse((r) => r.url().includes('/api/v2/photos/') && r.url().includes('offset=24'));
      await thumb(page, 24).click();
      await expectAt(page, 24);
      expect((await api).status()).toBe(200);
      await page.keyboard.press('ArrowRight');
      await expectAt(page, 25);
      await page.keyboard.press('ArrowRight');
      await expectAt(page, COUNT);
      await dialog(page).getByRole('heading', { name: 'Margherita fresh from the oven' }).waitFor();
      expect(await visible(dialog(page).locator('.yarl__navigation_next'))).toBe(false);
      expect(await visible(dialog(page).getByRole('button', { name: 'Previous photo' }))).toBe(true);
      await page.keyboard.press('ArrowRight'); // nothing after the last
      await expectAt(page, COUNT);
      await screenshot(page, 'photo-viewer-last-1280');
      await expectNoA11yViolations(page);

      // Desktop: dragging does not move (swipe is for extra-small screens).
      await dragAcross(page, 'right');
      await expectAt(page, COUNT);

      await dialog(page).getByRole('button', { name: 'Close' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      await page.waitForURL(b.baseUrl + photosPath);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('listing page at 375 px: the strip opens the viewer over the listing; swipe moves; Back closes', async () => {
    const { context, page, errors } = await openPage(VIEWPORTS.mobile, listingPath);
    try {
      await thumb(page, 2).click();
      await dialog(page).waitFor();
      await expectAt(page, 2);
      await screenshot(page, 'photo-viewer-listing-open-375');
      await expectNoA11yViolations(page);

      // Spec 2 §2: on extra-small screens swipe right goes next and swipe left goes previous.
      await dragAcross(page, 'right');
      await expectAt(page, 3);
      await dragAcross(page, 'left');
      await expectAt(page, 2);
      await dragAcross(page, 'left');
      await expectAt(page, 1);
      // Nothing before the first photo.
      await dragAcross(page, 'left');
      await expectAt(page, 1);
      expect(await visible(dialog(page).locator('.yarl__navigation_prev'))).toBe(false);
      await screenshot(page, 'photo-viewer-listing-first-375');
      await expectNoA11yViolations(page);

      // The browser's Back closes the viewer and leaves the visitor on the listing.
      await page.goBack();
      await dialog(page).waitFor({ state: 'detached' });
      expect(page.url()).toBe(b.baseUrl + listingPath);
      expect(await page.locator('h1').textContent()).toBe('Pizzeria Libretto');
      // Forward opens the same photo again.
      await page.goForward();
      await dialog(page).waitFor();
      await expectAt(page, 1);
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      await page.waitForURL(b.baseUrl + listingPath);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a share path loaded on its own is the no-JS photo page; a modified click is left to the browser", async () => {
    const { context, page } = await openPage(VIEWPORTS.mobile, photosPath);
    try {
      await page.goto(b.baseUrl + photoPath(5));
      expect(await page.locator('.photo-viewer__position').textContent()).toBe(`5 of ${COUNT}`);
      await page.goto(b.baseUrl + photosPath);
      await page.locator('[data-island="photo-viewer"][data-mounted]').waitFor({ state: 'attached' });
      const popup = context.waitForEvent('page');
      await thumb(page, 2).click({ modifiers: ['Control'] });
      const opened = await popup;
      await opened.waitForLoadState();
      expect(opened.url()).toBe(b.baseUrl + photoPath(2));
      expect(await dialog(page).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('the photo list loads no map code and stays under 120 KB of gzipped JavaScript, viewer included', async () => {
    // Without the offline service worker: once it controls the page, the chunks it answers
    // (the viewer's, loaded on the click) report their decoded size as encodedBodySize, not
    // the compressed bytes that crossed the network.
    const { context, page } = await openPage(VIEWPORTS.desktop, photosPath, 'block');
    try {
      await thumb(page, 1).click();
      await expectAt(page, 1);
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e as PerformanceResourceTiming)
          .filter((e) => e.name.endsWith('.js'))
          .map((e) => ({ name: e.name, bytes: e.encodedBodySize })),
      );
      // The map code (vendor-maplibre, islands/common/maps and its loader chunk); the photo-uploader
      // island (the recent-upload notice, on the list for everybody) is not map code.
      expect(scripts.filter((s) => /maplibre|maps|\/assets\/loader-/.test(s.name))).toEqual([]);
      expect(scripts.some((s) => /Lightbox-/.test(s.name))).toBe(true);
      const total = scripts.reduce((n, s) => n + s.bytes, 0);
      console.log(`photo list page JS with the viewer open: ${(total / 1024).toFixed(1)} KB over the wire (${scripts.length} files)`);
      expect(total).toBeLessThanOrEqual(120 * 1024);
    } finally {
      await context.close();
    }
  });
});

/** The window as the visitor sees it (the viewer is fixed over it; a full-page shot runs past it). */
async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** A horizontal drag across the open photo, as a finger swipes (pointer events). */
async function dragAcross(page: Page, direction: 'left' | 'right'): Promise<void> {
  const box = await page.locator('.yarl__slide_current').boundingBox();
  if (!box) throw new Error('no open photo');
  const y = box.y + box.height / 3;
  const [from, to] = direction === 'left' ? [box.x + box.width * 0.8, box.x + box.width * 0.2] : [box.x + box.width * 0.2, box.x + box.width * 0.8];
  await page.mouse.move(from, y);
  await page.mouse.down();
  await page.mouse.move(to, y, { steps: 8 });
  await page.mouse.up();
}
