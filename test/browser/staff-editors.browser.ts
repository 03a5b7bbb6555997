import moment from 'moment-timezone';
import type { BrowserContext } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';
import { jpegImage } from '../../server/apps/media/test-images';

// Issue 39, "the other kinds": staff make, in the browser and through the plain forms, a Best of
// list, a video (its image uploaded), a contest and an event (then find it in the list of
// published events and edit it), at 1280 px, and each is on its public page at once. The staff
// forms and the list of published events are also looked at, and checked readable, at 375 px.

describeInBrowser('staff editors for Best of lists, videos, contests and events', () => {
  let b: BrowserApp;
  let cookie: { name: string; value: string };
  let still: Buffer;

  beforeAll(async () => {
    b = await startBrowserApp();
    const staff = await createMember(b.t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    const [name, value] = (await memberSessionCookie(b.t, staff)).split('=');
    cookie = { name, value };
    await b.t.ctx.db('video_categories').insert({ name: 'Food & Drink', slug: 'food-and-drink' });
    still = await jpegImage(960, 540);
  }, 60_000);
  afterAll(() => b?.close());

  async function staffContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
    const context = await b.browser.newContext({ viewport });
    await context.addCookies([{ ...cookie, url: b.baseUrl }]);
    return context;
  }

  test('at 1280 px: each form makes its kind, and readers see it on its public page', async () => {
    const context = await staffContext(VIEWPORTS.desktop);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      // A Best of list: the slug is made from the title.
      await page.goto(`${b.baseUrl}/staff/best-of/`);
      await page.getByText('Start a new Best of list').click();
      await page.locator('#new-title').fill('The best dumplings in Chinatown');
      await page.locator('#new-intro').fill('Steamed, fried and in soup.');
      await page.locator('#new-criteria').fill('Three visits to each kitchen, paying our way.');
      await screenshot(page, 'staff-editors-best-of-form-desktop');
      await Promise.all([page.waitForURL(`${b.baseUrl}/staff/best-of/the-best-dumplings-in-chinatown/?done=created`), page.getByRole('button', { name: 'Publish the list' }).click()]);
      await page.getByText('The list is published, with no picks yet').waitFor();
      await page.goto(`${b.baseUrl}/best-of/`);
      await page.locator('a[href="/best-of/the-best-dumplings-in-chinatown/"]').first().waitFor();
      await page.goto(`${b.baseUrl}/best-of/the-best-dumplings-in-chinatown/`);
      await page.getByText('Three visits to each kitchen, paying our way.').waitFor();
      await screenshot(page, 'staff-editors-best-of-public-desktop');

      // A video from a YouTube address, with an uploaded image.
      await page.goto(`${b.baseUrl}/staff/videos/`);
      await page.getByRole('link', { name: 'Add a video' }).click();
      await page.locator('#youtube').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
      await page.locator('#title').fill('A night at the Chinatown night market');
      await page.locator('#category').selectOption({ label: 'Food & Drink' });
      await page.locator('#description').fill('Stalls, lanterns and dumplings at dusk.');
      await page.locator('#image').setInputFiles({ name: 'market.jpg', mimeType: 'image/jpeg', buffer: still });
      await screenshot(page, 'staff-editors-video-form-desktop');
      await Promise.all([page.waitForURL(/\/staff\/videos\/\?saved=\d+$/), page.getByRole('button', { name: 'Publish the video' }).click()]);
      await page.getByRole('link', { name: 'A night at the Chinatown night market' }).waitFor();
      await page.goto(`${b.baseUrl}/videos/`);
      await page.locator('a[href="/videos/a-night-at-the-chinatown-night-market/"]').first().waitFor();
      await screenshot(page, 'staff-editors-videos-public-desktop');
      await page.goto(`${b.baseUrl}/videos/a-night-at-the-chinatown-night-market/`);
      await page.locator('h1', { hasText: 'A night at the Chinatown night market' }).waitFor();

      // A contest with its question and odds.
      const tz = 'Canada/Eastern';
      await page.goto(`${b.baseUrl}/staff/contests/`);
      await page.getByRole('link', { name: 'Add a contest' }).click();
      await page.locator('#title').fill('Win a dumpling-making class');
      await page.locator('#description').fill('Learn to fold har gow with a chef.');
      await page.locator('#prize').fill('A class for two (value $180).');
      await page.locator('#start_date').fill(moment.tz(tz).subtract(1, 'day').format('YYYY-MM-DDTHH:mm'));
      await page.locator('#end_date').fill(moment.tz(tz).add(14, 'days').format('YYYY-MM-DDTHH:mm'));
      await page.locator('#odds').fill('One prize. The odds depend on the number of eligible entries.');
      await page.locator('#skill_question').fill('(6 × 4) + 10 − 2 = ?');
      await page.locator('#skill_answer').fill('32');
      await screenshot(page, 'staff-editors-contest-form-desktop');
      await Promise.all([page.waitForURL(/\/staff\/contests\/\d+\/\?saved=1$/), page.getByRole('button', { name: 'Publish the contest' }).click()]);
      await page.getByText('The contest is saved.').waitFor();
      await page.goto(`${b.baseUrl}/contests/`);
      await page.locator('a[href="/contests/win-a-dumpling-making-class/"]').first().waitFor();
      await page.goto(`${b.baseUrl}/contests/win-a-dumpling-making-class/rules/`);
      await page.getByText('One prize. The odds depend on the number of eligible entries.').waitFor();

      // An event, published at once: the form leads to its public page.
      await page.goto(`${b.baseUrl}/staff/events/`);
      await page.getByRole('link', { name: 'Publish an event' }).click();
      await page.locator('#ev-title').fill('Dumpling festival in Chinatown');
      await page.locator('#ev-description').fill('Forty stalls on Spadina.');
      await page.locator('#ev-venue').fill('Spadina Avenue');
      await page.locator('#ev-address').fill('300 Spadina Ave');
      await page.locator('input[name="single_day-date"]').fill(moment.tz(tz).add(10, 'days').format('YYYY-MM-DD'));
      await page.locator('input[name="single_day-start_time"]').fill('11:00 AM');
      await page.locator('input[name="single_day-end_time"]').fill('6:00 PM');
      await screenshot(page, 'staff-editors-event-form-desktop');
      await Promise.all([page.waitForURL(/\/events\/dumpling-festival-in-chinatown-\d+\/$/), page.getByRole('button', { name: 'Publish the event' }).click()]);
      await page.locator('h1', { hasText: 'Dumpling festival in Chinatown' }).waitFor();
      await screenshot(page, 'staff-editors-event-public-desktop');

      // The staff list of published events has it, upcoming; its Edit link opens the same form,
      // the fields filled in.
      const eventId = /-(\d+)\/$/.exec(page.url())![1];
      await page.goto(`${b.baseUrl}/staff/events/published/`);
      const row = page.locator(`tr[data-event="${eventId}"]`);
      await row.getByRole('cell', { name: 'Dumpling festival in Chinatown', exact: true }).waitFor();
      await row.getByText('Upcoming').waitFor();
      await screenshot(page, 'staff-editors-published-events-desktop');
      await Promise.all([page.waitForURL(`${b.baseUrl}/staff/events/${eventId}/edit/`), row.getByRole('link', { name: 'Edit Dumpling festival in Chinatown' }).click()]);
      expect(await page.locator('#ev-venue').inputValue()).toBe('Spadina Avenue');
      await page.locator('#ev-title').fill('Dumpling festival on Spadina');
      await screenshot(page, 'staff-editors-event-edit-desktop');
      await Promise.all([page.waitForURL(new RegExp(`/events/dumpling-festival-on-spadina-${eventId}/$`)), page.getByRole('button', { name: 'Save the event' }).click()]);
      await page.locator('h1', { hasText: 'Dumpling festival on Spadina' }).waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);

  test('at 375 px: the staff forms fit the screen and are readable', async () => {
    const context = await staffContext(VIEWPORTS.mobile);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    try {
      for (const [path, name] of [['/staff/best-of/', 'best-of'], ['/staff/videos/new/', 'video-form'], ['/staff/contests/new/', 'contest-form'], ['/staff/events/new/', 'event-form'], ['/staff/events/published/', 'published-events']] as const) {
        await page.goto(`${b.baseUrl}${path}`);
        if (name === 'best-of') await page.getByText('Start a new Best of list').click();
        await screenshot(page, `staff-editors-${name}-mobile`);
        await expectReadablePage(page, `${name} at 375 px`);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
