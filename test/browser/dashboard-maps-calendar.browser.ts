import type { BrowserContext, Page } from 'playwright-core';
import { createArticle, createEvent, createListing } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import { startFakeGoogle, type FakeGoogle } from '../../server/apps/calendar/fake-google';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, type BrowserApp, logInThroughPage } from './browser-app';

// Issue 13 as a member does it, at 375 and 1280 px: the favourites and to-do maps, the
// dashboard's path stack and history cache (new tab, refresh, back), count box descriptions,
// the fade and the loading overlay, deleting bookmarks clears their cached maps, and calendar
// sync end to end against a local stand-in for Google. Expects `npm run build:islands` first.
jest.setTimeout(360_000); // a shared, loaded machine: a member's whole session per test

const WIDTHS = [375, 1280] as const;

async function logIn(app: BrowserApp, context: BrowserContext, member: { email: string; password: string }): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await logInThroughPage(page, app.baseUrl, member.email, member.password);
  return page;
}

const menuLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
/** The route's content has finished its fade (the animation ran out). */
const faded = (page: Page) => page.waitForFunction(() => [...document.querySelectorAll('.dash-fade')].every((el) => el.getAnimations().every((a) => a.playState === 'finished')));

describeInBrowser('issue 13 on the member dashboard (Google not configured)', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(() => app?.close());

  for (const width of WIDTHS) {
    test(`at ${width} px: maps, navigation memory, count descriptions, overlay, bookmark cache, calendar settings without Google`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `map-${width}@example.com`, full_name: 'Diana Barry' });
      const places = [];
      for (let i = 0; i < 16; i++) places.push(await createListing(db, { name: `Orchard Slope ${width} ${i}`, latitude: 43.64 + i / 500, longitude: -79.4 + i / 400, address: `${i} King St W` }));
      await db('favourites').insert(places.map((listing_id) => ({ profile_id: member.id, listing_id })));
      await db('todos').insert([{ profile_id: member.id, listing_id: places[0] }, { profile_id: member.id, listing_id: places[1] }]);
      await db('article_bookmarks').insert([
        { profile_id: member.id, article_id: await createArticle(db, { name: `Zebra crossing ${width}` }) },
        { profile_id: member.id, article_id: await createArticle(db, { name: `Apple season ${width}` }) },
      ]);
      const eventId = await createEvent(db, { title: `Lantern Walk ${width}` });
      await db('event_bookmarks').insert({ profile_id: member.id, event_id: eventId });

      const context = await app.browser.newContext({ viewport: { width, height: 800 } });
      const errors: string[] = [];
      context.on('page', (p) => p.on('pageerror', (e) => errors.push(e.message)));
      const page = await logIn(app, context, member);

      // Home: each count box has its description.
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);
      const favBox = page.locator('[data-count="favourite_count"]');
      await favBox.waitFor();
      await expect(favBox.textContent()).resolves.toBe('16FavouritesThe places you love, in a list and on a map.');
      await expect(page.locator('[data-count="photo_count"]').textContent()).resolves.toBe('No PhotosPhotos you shared of places around the city.');
      // The route content fades in over 500 ms.
      await expect(page.locator('.dash-fade').evaluate((el) => getComputedStyle(el).animationDuration)).resolves.toBe('0.5s');
      await faded(page);
      await screenshot(page, `issue13-${width}-home-counts`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Map all Favourites: the heading counts every favourite, not only the first page of 15.
      await menuLink(page, 'Favourites').click();
      await page.getByText('16 Favourites').first().waitFor();
      await page.getByRole('button', { name: 'Map all Favourites' }).click();
      await page.locator('#dash-favourites-map').getByRole('heading', { name: '16 Favourites' }).waitFor();
      const map = page.locator('.dash-map');
      await page.waitForFunction(() => ['ready', 'unavailable'].includes(document.querySelector('.dash-map')?.getAttribute('data-map-status') ?? ''), null, { timeout: 30_000 });
      const mapStatus = await map.getAttribute('data-map-status');
      if (mapStatus === 'ready') {
        await page.locator('.dash-map canvas.maplibregl-canvas').waitFor();
      } else {
        await expect(page.getByRole('region', { name: 'Map of your favourites' }).getByRole('link').count()).resolves.toBe(16);
      }
      await screenshot(page, `issue13-${width}-favourites-map`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // To-dos: the open ones on a map above the grid.
      await menuLink(page, 'To-Do List').click();
      await page.getByText('2 To-Dos').waitFor();
      await page.waitForFunction(() => ['ready', 'unavailable'].includes(document.querySelector('.dash-map')?.getAttribute('data-map-status') ?? ''), null, { timeout: 30_000 });
      await faded(page);
      await screenshot(page, `issue13-${width}-todos-map`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // History cache: scrolled down the favourites, away, then back: the same place.
      await menuLink(page, 'Favourites').click();
      await page.getByText('16 Favourites').first().waitFor();
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 900));
      await page.waitForFunction(() => (JSON.parse(localStorage.getItem('dashboard.historyCache') ?? '{}').paths?.['/favourites/']?.scrollY ?? 0) >= 850);
      await page.evaluate(() => (window.location.hash = '#/photos/'));
      await page.getByRole('heading', { name: 'Photos' }).waitFor();
      await page.goBack();
      await page.getByText('16 Favourites').first().waitFor();
      await page.waitForFunction(() => window.scrollY >= 850);
      // …and after a refresh.
      await page.reload();
      await page.getByText('16 Favourites').first().waitFor();
      await page.waitForFunction(() => window.scrollY >= 850);
      // The dashboard restores scroll itself; the browser's own restoration would race it.
      await expect(page.evaluate(() => window.history.scrollRestoration)).resolves.toBe('manual');

      // Sort tab and path remembered: a new tab on the bare dashboard opens Saved Articles A–Z.
      await page.evaluate(() => window.scrollTo(0, 0));
      await menuLink(page, 'Saved Articles').click();
      await page.getByText('2 Saved Articles').waitFor();
      await page.getByRole('button', { name: 'A–Z' }).click();
      await page.locator('.dash-card__title').first().filter({ hasText: `Apple season ${width}` }).waitFor();
      const tab = await context.newPage();
      await tab.goto(`${app.baseUrl}/accounts/dashboard/`);
      await tab.waitForURL(/#\/articles\/$/);
      await tab.getByRole('button', { name: 'A–Z', pressed: true }).waitFor();
      await expect(tab.locator('.dash-card__title').first().textContent()).resolves.toBe(`Apple season ${width}`);
      await expect(tab.locator('.dash-menu__link.is-active').textContent()).resolves.toBe('Saved Articles');
      await tab.close();

      // Deleting an article bookmark clears its cached map (spec 1 §4).
      await page.evaluate(() => localStorage.setItem('article-bookmarks.articleMap', JSON.stringify({ map: { 1: 1 }, updatedAt: '2026-01-01T00:00:00Z' })));
      await page.getByRole('button', { name: `Delete Zebra crossing ${width}` }).click();
      await page.getByRole('dialog', { name: 'Delete this article?' }).getByRole('button', { name: 'Yes, delete this article' }).click();
      await page.getByText('1 Saved Article', { exact: true }).waitFor();
      await expect(page.evaluate(() => localStorage.getItem('article-bookmarks.articleMap'))).resolves.toBeNull();

      // Events: the overlay while Calendar Settings load, then the settings with the Yes/No
      // choice and a note that Google is off (with the setup hint on this development server).
      let releaseStatus: () => void = () => undefined;
      const statusHeld = new Promise<void>((resolve) => (releaseStatus = resolve));
      await page.route('**/api/v2/profiles/me/calendar/', async (route) => {
        await statusHeld;
        await route.continue();
      });
      await menuLink(page, 'Events').click();
      await page.locator('.dash-overlay').waitFor();
      await screenshot(page, `issue13-${width}-events-loading-overlay`);
      releaseStatus();
      await page.getByText('Google Calendar is not set up on this site yet. Your choice is kept for when it is.').waitFor();
      await page.locator('.dash-overlay').waitFor({ state: 'detached' });
      await expect(page.getByTestId('calendar-setup-hint').textContent()).resolves.toMatch(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
      await page.getByRole('button', { name: 'Get my calendar link' }).click();
      await expect(page.getByLabel('Your link').inputValue()).resolves.toMatch(/\/calendar\/[\w-]{43}\.ics$/);
      await faded(page);
      await screenshot(page, `issue13-${width}-calendar-settings-off`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Deleting an event bookmark clears its cached map too.
      await page.evaluate(() => localStorage.setItem('event-bookmarks.eventMap', JSON.stringify({ map: { 1: 1 }, updatedAt: '2026-01-01T00:00:00Z' })));
      await page.getByRole('button', { name: `Delete Lantern Walk ${width}` }).click();
      await page.getByRole('dialog', { name: 'Delete this event?' }).getByRole('button', { name: 'Yes, delete this event' }).click();
      await page.locator('.dash-row').waitFor({ state: 'detached' });
      await expect(page.evaluate(() => localStorage.getItem('event-bookmarks.eventMap'))).resolves.toBeNull();

      expect(errors).toEqual([]);
      await context.close();
    });

    test(`at ${width} px: history: the menu starts a list at the top; Back and a refresh bring back that entry's scroll and sort`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `history-${width}@example.com`, full_name: 'Josie Pye' });
      const places = [];
      for (let i = 0; i < 16; i++) places.push(await createListing(db, { name: `White Sands ${width} ${i}` }));
      await db('favourites').insert(places.map((listing_id) => ({ profile_id: member.id, listing_id })));
      await db('article_bookmarks').insert([
        { profile_id: member.id, article_id: await createArticle(db, { name: `Zinnias ${width}` }) },
        { profile_id: member.id, article_id: await createArticle(db, { name: `Asters ${width}` }) },
      ]);
      const context = await app.browser.newContext({ viewport: { width, height: 800 } });
      const errors: string[] = [];
      context.on('page', (p) => p.on('pageerror', (e) => errors.push(e.message)));
      const page = await logIn(app, context, member);
      const scrollY = () => page.evaluate(() => window.scrollY);
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);

      // Favourites, scrolled down: the position is kept for this history entry.
      await menuLink(page, 'Favourites').click();
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 900));
      await page.waitForFunction(() => (JSON.parse(localStorage.getItem('dashboard.historyCache') ?? '{}').paths?.['/favourites/']?.scrollY ?? 0) >= 850);

      // Leave it from down there (the menu would first scroll up to itself), then a new
      // navigation (the menu) to Favourites starts at the top, as a followed link does.
      await page.evaluate(() => (window.location.hash = '#/photos/'));
      await page.getByRole('heading', { name: 'Photos' }).waitFor();
      await menuLink(page, 'Favourites').click();
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await faded(page);
      await expect(scrollY()).resolves.toBe(0);
      await screenshot(page, `history-${width}-menu-starts-at-top`);

      // Back twice (popstate): the first Favourites entry comes back where it was left, not
      // where the later visit was.
      await page.goBack();
      await page.getByRole('heading', { name: 'Photos' }).waitFor();
      await page.goBack();
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await page.waitForFunction(() => window.scrollY >= 850);
      // A refresh (Navigation Timing 'reload') of that entry: the same.
      await page.reload();
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await page.waitForFunction(() => window.scrollY >= 850);
      await screenshot(page, `history-${width}-back-and-refresh-restore`);

      // Sort: a refresh keeps the tab chosen; a new navigation to the list opens its own sort.
      await page.evaluate(() => window.scrollTo(0, 0));
      await menuLink(page, 'Saved Articles').click();
      await page.getByText('2 Saved Articles').waitFor();
      await page.getByRole('button', { name: 'A–Z' }).click();
      await page.locator('.dash-card__title').first().filter({ hasText: `Asters ${width}` }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'A–Z', pressed: true }).waitFor();
      await expect(page.locator('.dash-card__title').first().textContent()).resolves.toBe(`Asters ${width}`);
      await page.goto(`${app.baseUrl}/`);
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/articles/`);
      await page.getByRole('button', { name: 'RECENTLY SAVED', pressed: true }).waitFor();
      await expect(page.getByRole('button', { name: 'A–Z' }).getAttribute('aria-pressed')).resolves.toBe('false');
      await faded(page);
      await screenshot(page, `history-${width}-new-navigation-own-sort`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    test(`at ${width} px: without Google, Calendar Settings still offer Yes/No, keep the choice in the profile, and say Google is off`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `calendar-off-${width}@example.com`, full_name: 'Jane Andrews' });
      const context = await app.browser.newContext({ viewport: { width, height: 800 } });
      const errors: string[] = [];
      context.on('page', (p) => p.on('pageerror', (e) => errors.push(e.message)));
      const page = await logIn(app, context, member);
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/events/`);

      const panel = page.getByRole('region', { name: 'Calendar Settings' });
      const choice = panel.getByRole('group', { name: 'Automatically add saved events to your Google Calendar' });
      await panel.getByText('Google Calendar is not set up on this site yet. Your choice is kept for when it is.').waitFor();
      await expect(choice.getByLabel('Yes').isChecked()).resolves.toBe(false);
      await expect(choice.getByLabel('No').isChecked()).resolves.toBe(false);
      const [saved] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v2/profiles/me/') && r.request().method() === 'PUT'),
        choice.getByLabel('Yes').check(),
      ]);
      expect(saved.status()).toBe(200);
      const row = await db('profiles').where({ id: member.id }).first('sync_bookmarked_events_to_google_calendar');
      expect(row.sync_bookmarked_events_to_google_calendar).toBe(true);

      // Kept: a fresh page reads it back from the profile.
      await page.reload();
      await panel.getByText('Google Calendar is not set up on this site yet. Your choice is kept for when it is.').waitFor();
      await expect(choice.getByLabel('Yes').isChecked()).resolves.toBe(true);
      await expect(panel.getByText(/Connect Google Calendar|Connected to Google Calendar/).count()).resolves.toBe(0);
      await faded(page);
      await screenshot(page, `calendar-off-${width}-choice-kept`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describeInBrowser('issue 13: Google Calendar sync end to end (a local stand-in for Google)', () => {
  let app: BrowserApp;
  let google: FakeGoogle;
  beforeAll(async () => {
    google = await startFakeGoogle();
    app = await startBrowserApp(google.env);
  });
  afterAll(async () => {
    await app?.close();
    await google?.close();
  });

  for (const width of WIDTHS) {
    test(`at ${width} px: save an event with Yes, consent, land back on it saved; ?eventId= asks; the dashboard shows the connection`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `cal-${width}@example.com` });
      const first = await createEvent(db, { title: `Harbourfront Lights ${width}`, schedule: { schedule_type: 'single_day', start_date: '2030-07-01', start_time: '19:00', end_time: '22:00' } });
      const second = await createEvent(db, { title: `Kensington Market Walk ${width}`, schedule: { schedule_type: 'single_day', start_date: '2030-07-02', start_time: '10:00', end_time: '12:00' } });
      const slugOf = async (id: number) => (await db('events').where({ id }).first('slug')).slug as string;
      const firstPath = `/events/${await slugOf(first)}-${first}/`;

      const context = await app.browser.newContext({ viewport: { width, height: 800 } });
      const errors: string[] = [];
      context.on('page', (p) => p.on('pageerror', (e) => errors.push(e.message)));
      const page = await logIn(app, context, member);

      // Save the event: the save-to-calendar question, Yes, then Google's consent.
      await page.goto(app.baseUrl + firstPath);
      await page.getByRole('button', { name: 'Add to my Events' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save to your Google Calendar?' });
      await dialog.waitFor();
      await screenshot(page, `issue13-${width}-calendar-question`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Yes' }).click();
      await page.waitForURL((u) => u.href.startsWith(google.url));
      await page.getByRole('heading', { name: 'Allow access to your calendar?' }).waitFor();
      await page.getByRole('link', { name: 'Allow' }).click();

      // Back on that event, saved, and copied to the calendar.
      await page.waitForURL(app.baseUrl + firstPath);
      await page.getByRole('button', { name: 'Saved' }).waitFor();
      await screenshot(page, `issue13-${width}-back-on-event-saved`);
      expect(await db('event_bookmarks').where({ profile_id: member.id, event_id: first }).first()).toMatchObject({ add_to_calendar: true, calendar_event_id: `guide${member.id}e${first}` });
      expect(google.inserted.some((i) => i.body.summary === `Harbourfront Lights ${width}`)).toBe(true);

      // ?eventId= opens the question for that event even though the choice is now stored.
      await page.goto(`${app.baseUrl}/events/${await slugOf(second)}-${second}/?eventId=${second}`);
      const asked = page.getByRole('dialog', { name: 'Save to your Google Calendar?' });
      await asked.waitFor();
      expect(page.url()).not.toContain('eventId=');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await asked.getByRole('button', { name: 'No' }).click();
      await page.getByRole('button', { name: 'Saved' }).waitFor();
      // The button turns at once; the bookmark's write may still be on its way: wait for the row.
      let row: { add_to_calendar: boolean } | undefined;
      for (let i = 0; i < 100 && !row; i++) {
        row = await db('event_bookmarks').where({ profile_id: member.id, event_id: second }).first();
        if (!row) await page.waitForTimeout(100);
      }
      expect(row).toMatchObject({ add_to_calendar: false });

      // The dashboard: connected, the choice shown, the private ICS link.
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/events/`);
      await page.getByText('Connected to Google Calendar.').waitFor();
      await expect(page.getByLabel('No').isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Get my calendar link' }).click();
      await page.getByRole('link', { name: 'Open in your calendar app' }).waitFor();
      await page.getByText('2 Saved Events').waitFor();
      await faded(page);
      await screenshot(page, `issue13-${width}-calendar-settings-connected`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('a member not yet connected gets the Connect link, which goes through consent and back to the events view', async () => {
    const member = await createMember(app.t.ctx, { email: 'cal-connect@example.com' });
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await logIn(app, context, member);
    await page.goto(`${app.baseUrl}/accounts/dashboard/#/events/`);
    await page.getByText('Not connected to Google Calendar.').waitFor();
    await page.getByRole('link', { name: 'Connect Google Calendar' }).click();
    await page.getByRole('link', { name: 'Allow' }).click();
    await page.waitForURL(`${app.baseUrl}/accounts/dashboard/#/events/`);
    await page.getByText('Connected to Google Calendar.').waitFor();
    await context.close();
  });
});
