import moment from 'moment-timezone';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { pickDate } from './pick-date';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp, logInThroughPage } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The member form islands in a real browser (needs `npx vite build --config vite.config.ts`
// first): a real JPEG goes through the photo uploader into the photos table and the page returns
// to the list with the recent-upload notice; a weekly event with a listing chosen from the venue
// type-ahead is submitted through the add-event island and saved pending with its occurrences.

const PASSWORD = 'maple-streetcar-42';
const EMAIL = 'former@example.com';

describeInBrowser('member forms in the browser', () => {
  let b: BrowserApp;
  let listingId: number;
  let photosPath: string;
  let memberId: number;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const typeId = await createListingType(db, { name: 'Music Venues', slug: 'music-venues' });
    listingId = await createListing(db, { name: 'Massey Hall', type_id: typeId, address: '178 Victoria St', latitude: 43.654, longitude: -79.379 });
    photosPath = `/music-venues/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/photos/`;
    memberId = (await createMember(b.t.ctx, { email: EMAIL, password: PASSWORD })).id;
  });
  afterAll(async () => {
    await b?.close();
  });

  async function signedInPage(viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await b.browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(e.message));
    await logInThroughPage(page, b.baseUrl, EMAIL, PASSWORD);
    return page;
  }

  test('a member uploads a real JPEG through the uploader; the photo row exists and the list shows the notice', async () => {
    const page = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${b.baseUrl}${photosPath}?upload=1`);
    const uploader = page.locator('.photo-uploader');
    await uploader.waitFor();
    await uploader.getByText('Drag and drop your photos here, or...').waitFor();
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 60, b: 40 } } }).jpeg({ quality: 80 }).toBuffer();
    await uploader.locator('input[type=file]').setInputFiles({ name: 'massey.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await uploader.getByText('Drag and drop additional photos here, or...').waitFor();
    await uploader.getByRole('img', { name: 'Preview of massey.jpg' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'photo-uploader-1280');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'photo-uploader-375');

    // A PNG is refused with the spec's dialog.
    await uploader.locator('input[type=file]').setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: await sharp(jpeg).png().toBuffer() });
    const dialog = page.getByRole('dialog', { name: "Sorry, this photo can't be uploaded" });
    await dialog.getByText('We can only accept JPG photos that are 6mb or less. Please try again with a different image.').waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();

    await Promise.all([page.waitForURL((url) => url.pathname === photosPath && !url.searchParams.has('upload')), uploader.getByRole('button', { name: 'Post 1 Photo' }).click()]);
    await page.getByText('Thanks! Your photo was added.').waitFor();
    const rows = await b.t.ctx.db('photos').where({ listing_id: listingId, profile_id: memberId });
    expect(rows).toHaveLength(1);
    expect(await page.locator(`a[href="${photosPath}${rows[0].id}/"]`).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('a member submits a weekly event through the island; it is pending with its occurrences', async () => {
    const page = await signedInPage(VIEWPORTS.mobile);
    await page.goto(`${b.baseUrl}/events/add/`);
    const form = page.locator('form.event-form.is-enhanced');
    await form.waitFor();
    await form.getByLabel('Event title').fill('Tuesday Jazz Nights');
    await form.getByLabel('Description').fill('Local trios every week.');
    const venue = form.getByRole('combobox', { name: 'Venue' });
    await venue.fill('Mas');
    await form.getByRole('option', { name: /Massey Hall/ }).click();
    expect(await venue.getAttribute('name')).toBe('venue_display_name');
    expect(await form.getByLabel('Address').inputValue()).toBe('178 Victoria St');

    await form.getByRole('tab', { name: 'Weekly' }).click();
    const panel = form.getByRole('tabpanel', { name: 'Weekly' });
    const start = moment.tz('Canada/Eastern').add(7, 'days');
    // The dates are read-only: picked from their calendar (pick-date.ts)
    await pickDate(page, panel, 'Start date', start.format('YYYY-MM-DD'));
    await pickDate(page, panel, 'End date', start.clone().add(27, 'days').format('YYYY-MM-DD'));
    await panel.getByLabel('Tue').check();
    await panel.getByLabel('Start time').fill('8:00 PM');
    await panel.getByLabel('End time').fill('11:00 PM');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'event-form-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'event-form-1280');

    await form.getByRole('button', { name: 'Submit event' }).click();
    const confirm = page.getByRole('dialog', { name: 'Add an image to get noticed' });
    await confirm.waitFor();
    await Promise.all([page.waitForURL(`${b.baseUrl}/events/add/success/`), confirm.getByRole('button', { name: 'Continue with no image' }).click()]);

    const event = await b.t.ctx.db('events').where({ title: 'Tuesday Jazz Nights' }).first();
    expect(event).toMatchObject({ status: 'pending', schedule_type: 'weekly', listing_id: listingId, submitted_by: memberId, address: '178 Victoria St' });
    const occurrences = await b.t.ctx.db('event_occurrences').where({ event_id: event.id });
    expect(occurrences).toHaveLength(4);
    expect(errors).toEqual([]);
    await page.context().close();
  });
  test('without JavaScript a member submits the add-event form with an image (its token is the first multipart field)', async () => {
    // The streaming parser checks csrfmiddlewaretoken as the body's first field before it
    // reads the image: this is the browser's own field order, not a test client's.
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      const context = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await logInThroughPage(page, b.baseUrl, EMAIL, PASSWORD);
      await page.goto(`${b.baseUrl}/events/add/`);
      const title = `No-script poetry night ${viewport.width}`;
      await page.locator('#ev-title').fill(title);
      await page.locator('#ev-description').fill('Readings by local poets.');
      await page.locator('#ev-venue').fill('The Tranzac');
      await page.locator('#ev-address').fill('292 Brunswick Ave');
      await page.locator('input[name=schedule_type][value=single_day]').check();
      await page.locator('#sd-date').fill(moment.tz('Canada/Eastern').add(12, 'days').format('YYYY-MM-DD'));
      await page.locator('#sd-start').fill('7:00 PM');
      await page.locator('#sd-end').fill('9:00 PM');
      const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 90, b: 160 } } }).jpeg({ quality: 80 }).toBuffer();
      await page.locator('#ev-thumbnail').setInputFiles({ name: 'poster.jpg', mimeType: 'image/jpeg', buffer: jpeg });
      await screenshot(page, `event-form-nojs-${viewport.width}`);
      await Promise.all([page.waitForURL(`${b.baseUrl}/events/add/success/`), page.getByRole('button', { name: 'Submit event' }).click()]);
      await screenshot(page, `event-form-nojs-success-${viewport.width}`);
      const event = await b.t.ctx.db('events').where({ title }).first();
      expect(event).toMatchObject({ status: 'pending', schedule_type: 'single_day', submitted_by: memberId });
      expect(event.image_key).toBeTruthy();
      await context.close();
    }
  });
});
