import { describeInBrowser } from './chromium';
import { horizontalOverflow, logInThroughPage, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember, type MemberFixture } from '../../server/testing/test-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { saveListingHours } from '../../server/apps/listings/hours-queries';
import { MIN_SOLVE_MS } from '../../server/apps/contact/captcha';
import type { Page } from 'playwright-core';

// Readers' suggested edits (issue 39) in a browser: at 1280 px a guest suggests new hours from
// the place page (answering the captcha as a person would), staff apply them on
// /staff/places/suggestions/, and the place page shows them; at 375 px the form, without
// JavaScript, takes a phone number.

const LONG = 240_000;
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

async function solveCaptcha(page: Page): Promise<void> {
  const [, a, b] = /What is (\w+) plus (\w+)\?/.exec((await page.locator('.captcha__image').getAttribute('alt'))!)!;
  await page.locator('#suggest-captcha').fill(String(WORDS.indexOf(a) + WORDS.indexOf(b)));
}

describeInBrowser('readers suggest edits to a place', () => {
  let b: BrowserApp;
  let staff: MemberFixture;
  let placePath = '';
  let placeId = 0;
  // The captcha refuses an answer quicker than a person's: the server's clock runs ahead once
  // the reader has had the question.
  let clockOffset = 0;

  beforeAll(async () => {
    b = await startBrowserApp();
    b.t.ctx.now = () => new Date(Date.now() + clockOffset);
    const db = b.t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    placeId = await createListing(db, { name: 'Corner Noodle Bar', type_id: restaurants, address: '12 Spadina Ave', phone: '416-555-0100' });
    await saveListingHours(db, placeId, { weekly: { tue: [{ opens: '11:00', closes: '21:00' }], wed: [{ opens: '11:00', closes: '21:00' }] }, holidays: 'usual' });
    placePath = `/restaurants/corner-noodle-bar-${placeId}/`;
    staff = await createMember(b.t.ctx, { is_staff: true, full_name: 'Sam Editor' });
  }, 120_000);
  afterAll(() => b?.close());

  test('1280 px: a guest suggests new hours, staff apply them, the page shows them', async () => {
    const guest = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const editor = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const errors: string[] = [];
    try {
      const page = await guest.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${b.baseUrl}${placePath}`, { waitUntil: 'load' });
      expect(await page.locator('table.hours tr', { hasText: 'Tuesday' }).locator('td').textContent()).toBe('11 am – 9 pm');
      clockOffset = 0;
      await Promise.all([page.waitForURL(`${b.baseUrl}/places/${placeId}/suggest/`), page.getByRole('link', { name: 'Suggest an edit' }).click()]);
      await page.getByLabel('The hours are wrong').check();
      // Only the chosen kind's fields show once a kind is chosen.
      await page.locator('#suggest-hours_tue').waitFor({ state: 'visible' });
      expect(await page.locator('#suggest-phone').isVisible()).toBe(false);
      await page.locator('#suggest-hours_tue').fill('10:00-18:00');
      await page.locator('#suggest-hours_wed').fill('10:00-18:00');
      await page.locator('#suggest-hours_sat').fill('12:00-16:00');
      await page.locator('#suggest-note').fill('New hours posted on the door.');
      await page.locator('#suggest-guest_email').fill('reader@example.com');
      await solveCaptcha(page);
      await screenshot(page, 'place-suggestions-form-1280');
      expect(await seriousA11yViolations(page)).toEqual([]);
      clockOffset = MIN_SOLVE_MS + 1000;
      await Promise.all([page.waitForURL(/\/suggest\/\?sent=1$/), page.getByRole('button', { name: 'Send suggestion' }).click()]);
      await page.getByText('Your suggestion is with our editors').waitFor();
      await screenshot(page, 'place-suggestions-thanks-1280');

      // Not public before staff act.
      await page.goto(`${b.baseUrl}${placePath}`, { waitUntil: 'load' });
      expect(await page.locator('table.hours tr', { hasText: 'Tuesday' }).locator('td').textContent()).toBe('11 am – 9 pm');

      const desk = await editor.newPage();
      desk.on('pageerror', (e) => errors.push(e.message));
      await logInThroughPage(desk, b.baseUrl, staff.email, staff.password);
      await desk.goto(`${b.baseUrl}/staff/places/suggestions/`, { waitUntil: 'load' });
      const group = desk.locator('.suggestion-group[data-kind="hours"]');
      expect(await group.locator('[data-current]').textContent()).toContain('Tue 11am–9pm');
      expect(await group.locator('[data-suggested]').textContent()).toContain('Tue 10am–6pm');
      await screenshot(desk, 'place-suggestions-staff-1280');
      expect(await horizontalOverflow(desk)).toBe(0);
      expect(await seriousA11yViolations(desk)).toEqual([]);
      await Promise.all([desk.waitForURL(/done=applied/), group.getByRole('button', { name: 'Apply' }).click()]);
      await desk.getByText('Applied: the place is changed').waitFor();
      expect(await desk.locator('.suggestion-group').count()).toBe(0);

      // A reader arriving now (this guest's own browser may keep the page its minute, as every
      // place page is kept): the server's copies were dropped when staff applied.
      const reader = await (await b.browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
      await reader.goto(`${b.baseUrl}${placePath}`, { waitUntil: 'load' });
      expect(await reader.locator('table.hours tr', { hasText: 'Tuesday' }).locator('td').textContent()).toBe('10 am – 6 pm');
      expect(await reader.locator('table.hours tr', { hasText: 'Saturday' }).locator('td').textContent()).toBe('12 pm – 4 pm');
      await screenshot(reader, 'place-suggestions-applied-1280');
      await reader.context().close();
      expect(b.t.mailer.sent.map((m) => m.to)).toContain('reader@example.com');
      expect(errors).toEqual([]);
    } finally {
      await guest.close();
      await editor.close();
    }
  }, LONG);

  test('375 px: the form fits; without JavaScript it takes a phone number, and says what is wrong beside the field', async () => {
    const looks = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    try {
      const page = await looks.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${b.baseUrl}/places/${placeId}/suggest/`, { waitUntil: 'load' });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'place-suggestions-form-375');
    } finally {
      await looks.close();
    }
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      clockOffset = 0;
      await page.goto(`${b.baseUrl}/places/${placeId}/suggest/`, { waitUntil: 'load' });
      await page.getByLabel('The phone number is wrong').check();
      await page.locator('#suggest-phone').fill('555-01');
      await solveCaptcha(page);
      clockOffset = MIN_SOLVE_MS + 1000;
      await page.getByRole('button', { name: 'Send suggestion' }).click();
      await page.locator('#suggest-phone-error').getByText('Enter a phone number with its area code').waitFor();
      expect(await page.locator('#suggest-phone').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'place-suggestions-error-375');
      clockOffset = 0;
      await page.goto(`${b.baseUrl}/places/${placeId}/suggest/`, { waitUntil: 'load' });
      await page.getByLabel('The phone number is wrong').check();
      await page.locator('#suggest-phone').fill('416 555 0199');
      await solveCaptcha(page);
      clockOffset = MIN_SOLVE_MS + 1000;
      await Promise.all([page.waitForURL(/\/suggest\/\?sent=1$/), page.getByRole('button', { name: 'Send suggestion' }).click()]);
      const row = await b.t.ctx.db('place_suggestions').where({ listing_id: placeId, kind: 'phone' }).first('value', 'status');
      expect(row).toEqual({ value: '416-555-0199', status: 'pending' });
    } finally {
      await context.close();
    }
  }, LONG);
});
