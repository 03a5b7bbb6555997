import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp, logInThroughPage } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The photo list an uploader returns to shows the photo just added, even when the browser
// already holds a copy of that list from before the upload (the list is shared, `max-age=60`):
// the member looks at the list, opens the uploader, posts a photo and lands on the list.

const PASSWORD = 'maple-streetcar-42';

describeInBrowser('the photo list after an upload', () => {
  let b: BrowserApp;
  let listingId: number;
  let photosPath: string;

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const typeId = await createListingType(db, { name: 'Music Venues', slug: 'music-venues' });
    listingId = await createListing(db, { name: 'Massey Hall', type_id: typeId, address: '178 Victoria St', latitude: 43.654, longitude: -79.379 });
    photosPath = `/music-venues/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/photos/`;
  });
  afterAll(async () => {
    await b?.close();
  });

  async function signedInPage(email: string, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    await createMember(b.t.ctx, { email, password: PASSWORD });
    const page = await (await b.browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await logInThroughPage(page, b.baseUrl, email, PASSWORD);
    return { page, errors };
  }

  for (const [label, viewport] of [['375', VIEWPORTS.mobile], ['1280', VIEWPORTS.desktop]] as const) {
    test(`at ${label} px: the list the uploader lands on shows the new photo, though the browser held the list from before`, async () => {
      const { page, errors } = await signedInPage(`uploader-${label}@example.com`, viewport);
      // The browser keeps this copy (the list is sent max-age=60).
      const before = await page.goto(`${b.baseUrl}${photosPath}`);
      expect(before?.headers()['cache-control']).toMatch(/max-age=60/);
      const countBefore = await b.t.ctx.db('photos').where({ listing_id: listingId }).count({ n: '*' }).first();

      await page.goto(`${b.baseUrl}${photosPath}?upload=1`);
      const uploader = page.locator('.photo-uploader');
      await uploader.getByText('Drag and drop your photos here, or...').waitFor();
      const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 200 } } }).jpeg({ quality: 80 }).toBuffer();
      await uploader.locator('input[type=file]').setInputFiles({ name: `massey-${label}.jpg`, mimeType: 'image/jpeg', buffer: jpeg });
      await uploader.getByRole('img', { name: `Preview of massey-${label}.jpg` }).waitFor();
      await Promise.all([page.waitForURL((url) => url.pathname === photosPath && !url.searchParams.has('upload')), uploader.getByRole('button', { name: 'Post 1 Photo' }).click()]);
      await page.getByText('Thanks! Your photo was added.').waitFor();

      const newest = await b.t.ctx.db('photos').where({ listing_id: listingId }).orderBy('id', 'desc').first('id');
      expect(Number((await b.t.ctx.db('photos').where({ listing_id: listingId }).count({ n: '*' }).first())?.n)).toBe(Number(countBefore?.n) + 1);
      // The new photo is on the list the member sees, and the count says so.
      await page.locator(`a[href="${photosPath}${newest.id}/"]`).first().waitFor({ timeout: 5_000 });
      const n = Number(countBefore?.n) + 1;
      expect(await page.locator('.page-header__lede').textContent()).toContain(`${n} ${n === 1 ? 'photo' : 'photos'} ·`);
      // The list the member sees is the page the server answers now, not the browser's old copy.
      expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${b.baseUrl}${photosPath}`);
      await screenshot(page, `photo-list-after-upload-${label}`);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
