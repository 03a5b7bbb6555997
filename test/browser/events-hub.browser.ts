import type { BrowserContext, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createEvent } from '../../server/testing/fixtures';
import { shiftDay } from '../../shared/events-hub';
import { EVENTS_HUB } from '../../shared/constants';

// The events hub, clicked through as a visitor would at 375 and 1280 px (needs
// `npm run build:islands` first): featured events, load more with bundle_type medium,
// another day without a reload, and back again. axe runs on every state shown.

describeInBrowser('events hub in a browser', () => {
  let b: BrowserApp;
  let busyDay: string;
  let quietDay: string;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const today = new Date().toISOString().slice(0, 10);
    busyDay = shiftDay(today, 10);
    quietDay = shiftDay(busyDay, 1);
    for (let i = 0; i < 30; i++) {
      const hour = String(8 + (i % 12)).padStart(2, '0');
      await createEvent(db, { title: `Busy day event ${i + 1}`, venue_name: `Hall ${i + 1}`, schedule: { schedule_type: 'single_day', start_date: busyDay, start_time: `${hour}:00`, end_time: `${hour}:45` } });
    }
    for (const title of ['Quiet morning walk', 'Quiet library talk', 'Quiet evening concert']) {
      await createEvent(db, { title, schedule: { schedule_type: 'single_day', start_date: quietDay, start_time: '18:00', end_time: '20:00' } });
    }
  }, 60_000);
  afterAll(() => b?.close());

  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await b.browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page };
  }

  async function expectNoSeriousViolations(page: Page, state: string) {
    expect([state, await seriousA11yViolations(page)]).toEqual([state, []]);
  }

  for (const [label, viewport] of [['375', VIEWPORTS.mobile], ['1280', VIEWPORTS.desktop]] as const) {
    test(`at ${label} px: featured events, load more, another day without a reload, and back`, async () => {
      const { context, page } = await open(viewport);
      await page.goto(`${b.baseUrl}/events/`);
      await page.locator('[data-island="events-hub"][data-mounted]').waitFor();
      const hub = page.locator('.events-hub');
      await hub.getByRole('heading', { name: 'Featured' }).waitFor();
      expect(await hub.locator('.event-grid--featured .event-card').count()).toBe(EVENTS_HUB.featuredCount);
      expect(await hub.locator('.event-card').count()).toBe(24);
      await expectNoSeriousViolations(page, 'upcoming');
      await screenshot(page, `events-hub-upcoming-${label}`);

      // Marks this document: a reload would lose it.
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      const more = page.waitForRequest((r) => r.url().includes('/api/v2/events/') && r.url().includes('offset=24'));
      await hub.getByRole('button', { name: 'Load more events' }).click();
      const query = new URL((await more).url()).searchParams;
      expect([query.get('bundle_type'), query.get('limit'), query.get('ordering')]).toEqual(['medium', String(EVENTS_HUB.loadMoreLimit), 'start_date_time']);
      await hub.locator('.event-card').nth(32).waitFor();
      await hub.getByRole('button', { name: 'Load more events' }).waitFor({ state: 'detached' });
      expect(await hub.locator('.event-card').count()).toBe(33);

      await hub.getByLabel('Pick a date').fill(quietDay);
      await hub.getByRole('button', { name: 'Show events' }).click();
      await hub.getByRole('status').filter({ hasText: '3 events on this day.' }).waitFor();
      await page.waitForURL(`**/events/?date=${quietDay}`);
      expect(await hub.locator('.event-card').count()).toBe(3);
      expect(await hub.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Events on \w+day, \w+ \d+, \d{4}$/);
      await expectNoSeriousViolations(page, 'a chosen day');
      await screenshot(page, `events-hub-day-${label}`);

      await hub.getByRole('link', { name: '← Previous day' }).click();
      await page.waitForURL(`**/events/?date=${busyDay}`);
      await hub.getByRole('status').filter({ hasText: '30 events on this day.' }).waitFor();
      await hub.getByRole('heading', { name: 'Featured' }).waitFor();
      expect(await hub.locator('.event-card').count()).toBe(EVENTS_HUB.featuredCount + EVENTS_HUB.loadMoreLimit);

      await page.goBack();
      await page.waitForURL(`**/events/?date=${quietDay}`);
      await hub.getByRole('status').filter({ hasText: '3 events on this day.' }).waitFor();
      await hub.getByRole('link', { name: 'Upcoming' }).click();
      await page.waitForURL(/\/events\/$/);
      await hub.getByRole('status').filter({ hasText: "What's on: 33 upcoming events." }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await context.close();
      expect(errors).toEqual([]);
    }, 180_000);

  }
});
