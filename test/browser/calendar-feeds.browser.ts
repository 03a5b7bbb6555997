import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMember } from '../../server/testing/test-app';
import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp, logInThroughPage } from './browser-app';

// Dashboard → My calendar feeds (issue 28) in a real browser: a member adds their venue's
// iCalendar feed (served by the test on 127.0.0.1), presses Check now and sees the events
// found. Expects `npm run build:islands` first.
jest.setTimeout(90_000);

const FEED = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Browser test//EN',
  'BEGIN:VEVENT', 'UID:a@venue', 'SUMMARY:Open mic', 'DTSTART;TZID=America/Toronto:20300301T200000', 'DTEND;TZID=America/Toronto:20300301T230000', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:b@venue', 'SUMMARY:Trivia', 'DTSTART;TZID=America/Toronto:20300303T190000', 'DTEND;TZID=America/Toronto:20300303T210000', 'RRULE:FREQ=WEEKLY;COUNT=4', 'END:VEVENT',
  'END:VCALENDAR', ''].join('\r\n');

describeInBrowser('My calendar feeds on the dashboard', () => {
  let app: BrowserApp;
  let feedServer: http.Server;
  let feedBase: string;
  beforeAll(async () => {
    app = await startBrowserApp();
    // The feed server is this machine's: loopback allowed for this app only (no env var sets it).
    app.t.ctx.config.calendarFeeds.allowLoopback = true;
    feedServer = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/calendar' }).end(FEED));
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => feedServer?.close(resolve));
    await app?.close();
  });

  for (const viewport of Object.values(VIEWPORTS)) {
    test(`at ${viewport.width} px: adds a feed, checks it now and sees the events found`, async () => {
      const member = await createMember(app.t.ctx, { email: `feeds-${viewport.width}@example.com`, full_name: 'Anne Shirley' });
      const context = await app.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      await logInThroughPage(page, app.baseUrl, member.email, member.password);

      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);
      const menuLink = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My calendar feeds' });
      await menuLink.scrollIntoViewIfNeeded();
      await menuLink.click();
      await page.getByRole('heading', { name: 'My calendar feeds', level: 1 }).waitFor();
      await page.getByText('No feeds yet.').waitFor();

      // A wrong address first: the server's message under the field.
      await page.getByLabel('Calendar address').fill('ftp://example.com/events.ics');
      await page.getByRole('button', { name: 'Add feed' }).click();
      await page.getByText('Only http, https and webcal addresses can be added.').waitFor();

      const url = `${feedBase}/venue-${viewport.width}.ics`;
      await page.getByLabel('Calendar address').fill(url);
      await page.getByRole('button', { name: 'Add feed' }).click();
      const item = page.locator('.dash-feed', { hasText: url });
      await item.waitFor();
      expect(await item.locator('[data-feed-status]').textContent()).toBe('Waiting for its first fetch');

      await item.getByRole('button', { name: 'Check now' }).click();
      await item.locator('[data-feed-events]', { hasText: '2 events' }).waitFor();
      expect(await item.locator('[data-feed-status]').textContent()).toBe('Working');
      expect(await app.t.ctx.db('events').where({ submitted_by: member.id, status: 'pending', source: 'calendar_feed' }).orderBy('title').pluck('title')).toEqual(['Open mic', 'Trivia']);

      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await screenshot(page, `calendar-feeds-${viewport.width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
