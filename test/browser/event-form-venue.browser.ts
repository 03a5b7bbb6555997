import moment from 'moment-timezone';
import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { pickDate } from './pick-date';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp, logInThroughPage } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The add-event island's venue field in a real browser (needs `npm run build:islands` first):
// a member who chooses a suggested place and then types their own venue keeps their text when
// they leave the field, which is then a plain venue_name with no listing (spec 1 §4); a search
// that finds no place says 'No results found' (spec 2 §5); a venue typed as a street address is
// offered that address (issue 25), and the saved event is placed by it.

const PASSWORD = 'maple-streetcar-42';
const EMAIL = 'venue-typist@example.com';

describeInBrowser('add-event venue field in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const typeId = await createListingType(db, { name: 'Music Venues', slug: 'music-venues' });
    await createListing(db, { name: 'Massey Hall', type_id: typeId, address: '178 Victoria St', latitude: 43.654, longitude: -79.379 });
    // Two places on the even side of Queen St W: the geocoder places the numbers between them.
    await createListing(db, { name: 'The Rex Hotel', type_id: typeId, address: '194 Queen St W', latitude: 43.6504, longitude: -79.3884 });
    await createListing(db, { name: 'Queen Books', type_id: typeId, address: '198 Queen St W', latitude: 43.6506, longitude: -79.3886 });
    await createMember(b.t.ctx, { email: EMAIL, password: PASSWORD });
  });
  afterAll(async () => {
    await b?.close();
  });

  async function eventForm(viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await b.browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(e.message));
    await logInThroughPage(page, b.baseUrl, EMAIL, PASSWORD);
    await page.goto(`${b.baseUrl}/events/add/`);
    await page.locator('form.event-form.is-enhanced').waitFor();
    return page;
  }

  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    test(`at ${viewport.width} px, leaving the venue field after typing over a chosen place keeps the member's text as venue_name`, async () => {
      const page = await eventForm(viewport);
      const form = page.locator('form.event-form');
      const venue = form.getByRole('combobox', { name: 'Venue' });
      const listing = form.locator('input[type=hidden][name=listing]');
      await venue.fill('Mas');
      await form.getByRole('option', { name: /Massey Hall/ }).click();
      expect(await venue.getAttribute('name')).toBe('venue_display_name');
      expect(await listing.inputValue()).not.toBe('');

      await venue.press('End');
      await venue.pressSequentially(' rooftop');
      await form.getByLabel('Address').focus(); // leave the field
      await form.locator('input[role=combobox][name=venue_name]').waitFor();
      expect(await venue.inputValue()).toBe('Massey Hall rooftop');
      expect(await listing.inputValue()).toBe('');
      expect(await form.getByLabel('Address').inputValue()).toBe('178 Victoria St');
      await screenshot(page, `event-form-venue-typed-${viewport.width}`);

      // The server stores the member's venue, with no listing.
      const title = `Rooftop set ${viewport.width}`;
      await form.getByLabel('Event title').fill(title);
      await form.getByLabel('Description').fill('Sunset trio.');
      const day = form.getByRole('tabpanel', { name: 'Single day' });
      await pickDate(page, day, 'Date', moment.tz('Canada/Eastern').add(9, 'days').format('YYYY-MM-DD'));
      await day.getByLabel('Start time').fill('6:00 PM');
      await day.getByLabel('End time').fill('9:00 PM');
      await form.getByRole('button', { name: 'Submit event' }).click();
      const confirm = page.getByRole('dialog', { name: 'Add an image to get noticed' });
      await Promise.all([page.waitForURL(`${b.baseUrl}/events/add/success/`), confirm.getByRole('button', { name: 'Continue with no image' }).click()]);
      const event = await b.t.ctx.db('events').where({ title }).first();
      expect(event).toMatchObject({ venue_name: 'Massey Hall rooftop', listing_id: null, address: '178 Victoria St' });
      expect(errors).toEqual([]);
      await page.context().close();
    });

    test(`at ${viewport.width} px, a venue typed as a street address is placed by it: the address suggestion fills the field, the event gets its point`, async () => {
      const page = await eventForm(viewport);
      const form = page.locator('form.event-form');
      const venue = form.getByRole('combobox', { name: 'Venue' });
      await venue.fill('196 Queen St W');
      const option = form.getByRole('option', { name: /Address\s+196 Queen St W/ });
      await option.waitFor();
      await screenshot(page, `event-form-venue-address-${viewport.width}`);
      await option.click();
      expect(await form.getByLabel('Address').inputValue()).toBe('196 Queen St W');
      expect(await venue.getAttribute('name')).toBe('venue_name');
      await venue.fill('The Rex upstairs');

      const title = `Upstairs set ${viewport.width}`;
      await form.getByLabel('Event title').fill(title);
      await form.getByLabel('Description').fill('Late trio.');
      const day = form.getByRole('tabpanel', { name: 'Single day' });
      await pickDate(page, day, 'Date', moment.tz('Canada/Eastern').add(9, 'days').format('YYYY-MM-DD'));
      await day.getByLabel('Start time').fill('9:00 PM');
      await day.getByLabel('End time').fill('11:00 PM');
      await form.getByRole('button', { name: 'Submit event' }).click();
      const confirm = page.getByRole('dialog', { name: 'Add an image to get noticed' });
      await Promise.all([page.waitForURL(`${b.baseUrl}/events/add/success/`), confirm.getByRole('button', { name: 'Continue with no image' }).click()]);
      const event = await b.t.ctx.db('events').where({ title }).first();
      expect(event).toMatchObject({ venue_name: 'The Rex upstairs', listing_id: null, address: '196 Queen St W' });
      // Halfway between 194 and 198.
      expect(event.latitude).toBeCloseTo(43.6505, 6);
      expect(event.longitude).toBeCloseTo(-79.3885, 6);
      expect(errors).toEqual([]);
      await page.context().close();
    });

    test(`at ${viewport.width} px, a venue search that finds no place says 'No results found'`, async () => {
      const page = await eventForm(viewport);
      const form = page.locator('form.event-form');
      const venue = form.getByRole('combobox', { name: 'Venue' });
      await venue.fill('Zzyzx Lounge');
      const message = form.locator('.event-form__venue [role=status]');
      await message.getByText('No results found').waitFor();
      expect(await venue.getAttribute('aria-expanded')).toBe('false');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await venue.scrollIntoViewIfNeeded();
      await screenshot(page, `event-form-venue-no-results-${viewport.width}`);
      // A place that matches replaces the message with the list
      await venue.fill('Massey');
      await form.getByRole('option', { name: /Massey Hall/ }).waitFor();
      expect(await message.textContent()).toBe('');
      // Leaving the field takes the message away with the list
      await venue.fill('Zzyzx Lounge');
      await message.getByText('No results found').waitFor();
      await form.getByLabel('Address').focus();
      await message.getByText('No results found').waitFor({ state: 'detached' });
      expect(await venue.inputValue()).toBe('Zzyzx Lounge');
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
