import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The saves island in a real browser (needs `npx vite build --config vite.config.ts` first): a
// guest's Favourite opens the navbar's login dialog and the favourite is carried through login;
// a member un-favourites and favourites, rates with the confirm step and bookmarks an article,
// and the rows are checked in the database.

const PASSWORD = 'maple-streetcar-42';
const EMAIL = 'saver@example.com';

describeInBrowser('saves in the browser', () => {
  let b: BrowserApp;
  let page: Page;
  let listingId: number;
  let listingPath: string;
  let articleId: number;
  let articlePath: string;
  let memberId: number;
  const errors: string[] = [];
  const control = () => page.locator('.save-control--listing');

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    listingId = await createListing(db, { name: 'Pizzeria Libretto', type_id: typeId, address: '221 Ossington Ave', latitude: 43.6505, longitude: -79.3902 });
    await createListing(db, { name: 'Bar Raval', type_id: typeId, latitude: 43.6508, longitude: -79.3905 });
    listingPath = `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`;
    articleId = await createArticle(db, { name: 'The best patios this summer' });
    articlePath = (await db('articles').where({ id: articleId }).first('path')).path;
    memberId = (await createMember(b.t.ctx, { email: EMAIL, password: PASSWORD })).id;
    page = await (await b.browser.newContext({ viewport: VIEWPORTS.mobile })).newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await page?.context().close();
    await b?.close();
  });

  test("a guest's Favourite opens the login dialog, and logging in there saves it", async () => {
    await page.goto(b.baseUrl + listingPath);
    await page.locator('.navbar.is-enhanced').waitFor();
    await page.locator('.save-control--listing.is-enhanced').waitFor();
    await control().getByRole('button', { name: 'Favourite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.waitFor();
    await screenshot(page, 'saves-guest-login-375');
    await dialog.getByLabel('Email').fill(EMAIL);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Log in' }).click()]);
    await page.locator('.navbar.is-enhanced').waitFor();
    const favourite = control().getByRole('button', { name: 'Favourite' });
    await expectPressed(favourite, 'true');
    expect(await b.t.ctx.db('favourites').where({ profile_id: memberId, listing_id: listingId }).count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(errors).toEqual([]);
  });

  test('a member toggles the favourite off and on; the rows follow', async () => {
    const favourite = control().getByRole('button', { name: 'Favourite' });
    await favourite.click();
    await expectPressed(favourite, 'false');
    await waitForRows('favourites', { listing_id: listingId }, 0);
    const animation = await watchIconAnimation();
    await favourite.click();
    await expectPressed(favourite, 'true');
    await waitForRows('favourites', { listing_id: listingId }, 1);
    await expectIconAnimated(animation);
  });

  test('a member rates the place through the confirm step', async () => {
    await control().getByRole('button', { name: '4 stars' }).click();
    await control().getByText('Confirm 4 star rating:').waitFor();
    await control().getByRole('button', { name: 'Cancel' }).click();
    expect(await control().getByText('Confirm 4 star rating:').count()).toBe(0);
    await control().getByRole('button', { name: '5 stars' }).click();
    await control().getByRole('button', { name: 'Confirm' }).click();
    await control().getByText('Thanks for rating!').waitFor();
    await screenshot(page, 'saves-member-rated-375');
    await waitForRows('ratings', { listing_id: listingId, rating: 5 }, 1);
    // The next page reads the stars from the cache or the map, not a guess.
    await page.reload();
    await expectPressed(control().getByRole('button', { name: '5 stars' }), 'true');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  test('a member bookmarks an article', async () => {
    await page.goto(b.baseUrl + articlePath);
    const bookmark = page.locator('.save-control--article').getByRole('button', { name: 'Bookmark' });
    await expectPressed(bookmark, 'false');
    await page.setViewportSize(VIEWPORTS.desktop);
    const animation = await watchIconAnimation();
    await bookmark.click();
    await expectPressed(bookmark, 'true');
    await waitForRows('article_bookmarks', { article_id: articleId }, 1);
    await expectIconAnimated(animation);
    await screenshot(page, 'saves-member-article-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  // Records, from inside the page, when a toggle's icon starts and stops animating and with
  // which CSS animation, so the check does not race the 1200 ms on a busy machine.
  async function watchIconAnimation(): Promise<string> {
    const key = `iconAnimation${Date.now()}`;
    await page.evaluate((k) => {
      const log: Array<{ on: boolean; at: number; css: string }> = [];
      (window as unknown as Record<string, unknown>)[k] = log;
      new MutationObserver((changes) => {
        for (const c of changes) {
          const el = c.target as HTMLElement;
          if (!el.classList.contains('save-toggle__icon')) continue;
          const on = el.classList.contains('is-animating');
          if (log.length && log[log.length - 1].on === on) continue;
          const style = getComputedStyle(el);
          log.push({ on, at: performance.now(), css: `${style.animationName} ${style.animationDuration}` });
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
    }, key);
    return key;
  }

  async function expectIconAnimated(key: string) {
    await page.waitForFunction((k) => ((window as unknown as Record<string, Array<{ on: boolean }>>)[k] ?? []).length >= 2, key);
    const log = await page.evaluate((k) => (window as unknown as Record<string, Array<{ on: boolean; at: number; css: string }>>)[k], key);
    // The order and the CSS animation's own duration; the 1200 ms timer itself is checked with
    // fake timers (SaveControl.test.tsx): timestamps taken on a busy page arrive late and unevenly.
    expect(log.map((e) => e.on)).toEqual([true, false]);
    expect(log[0].css).toBe('save-icon-pop 1.2s');
  }

  async function expectPressed(locator: ReturnType<Page['locator']>, value: 'true' | 'false') {
    await locator.and(page.locator(`[aria-pressed="${value}"]:not([disabled])`)).waitFor();
  }

  async function waitForRows(table: string, where: Record<string, unknown>, n: number) {
    const deadline = Date.now() + 5000;
    let count = -1;
    while (Date.now() < deadline) {
      const row = await b.t.ctx.db(table).where({ profile_id: memberId, ...where }).count({ n: '*' }).first();
      count = Number(row?.n);
      if (count === n) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect({ table, where, count }).toEqual({ table, where, count: n });
  }
});
