import { describeInBrowser } from './chromium';
import { horizontalOverflow, logInThroughPage, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember, type MemberFixture } from '../../server/testing/test-app';

// A place's review (issue 39) in a browser at 375 and 1280 px: staff write and publish it on
// /staff/places/{id}/review/, readers see it on the place's page with its byline and date, and
// in the navbar's RECENT REVIEWS (under Restaurants). The menu is read with scripting off: the
// server's navbar is what is checked, whether or not the navbar island is built.

const LONG = 240_000;

describeInBrowser('a place review in a browser', () => {
  let b: BrowserApp;
  let staff: MemberFixture;
  let typeId: number;

  beforeAll(async () => {
    b = await startBrowserApp();
    typeId = await createListingType(b.t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    staff = await createMember(b.t.ctx, { is_staff: true, full_name: 'Sam Editor' });
  }, 120_000);
  afterAll(() => b?.close());

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    test(`${label}: write and publish a review, then read it on the page and find it in RECENT REVIEWS`, async () => {
      const name = `Bellwoods Noodle Bar ${label}`;
      const id = await createListing(b.t.ctx.db, { name, type_id: typeId, address: '124 Ossington Ave', description: 'A noodle bar.' });
      const path = `/restaurants/${name.toLowerCase().replace(/ /g, '-')}-${id}/`;
      const context = await b.browser.newContext({ viewport });
      const guest = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      // A step that cannot happen fails here, naming itself, not at the test's own timeout.
      page.setDefaultTimeout(30_000);
      try {
        await logInThroughPage(page, b.baseUrl, staff.email, staff.password);
        await page.goto(`${b.baseUrl}/staff/places/${id}/review/`, { waitUntil: 'load' });
        expect(await page.locator('#review-byline').inputValue()).toBe('Sam Editor');
        await page.locator('#review-review').fill('The hand-pulled noodles are the reason to come.\n\nGo early: there are twelve seats and no reservations.');
        await Promise.all([page.waitForURL(/done=published/), page.getByRole('button', { name: 'Publish' }).click()]);
        expect(await page.locator('main .notice--success').textContent()).toContain('Published');
        await screenshot(page, `place-review-form-${label}`);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await seriousA11yViolations(page)).toEqual([]);

        await page.goto(`${b.baseUrl}${path}`, { waitUntil: 'load' });
        const review = page.locator('#review');
        expect(await review.locator('h2').textContent()).toBe('Review');
        expect(await review.locator('.listing-review__byline').textContent()).toMatch(/^Review by Sam Editor · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
        expect(await review.locator('p:not(.listing-review__byline)').allTextContents()).toEqual([
          'The hand-pulled noodles are the reason to come.',
          'Go early: there are twelve seats and no reservations.',
        ]);
        await review.scrollIntoViewIfNeeded();
        await screenshot(page, `place-review-page-${label}`);
        expect(await horizontalOverflow(page)).toBe(0);
        expect(await seriousA11yViolations(page)).toEqual([]);

        // RECENT REVIEWS, under Restaurants: it opens on hover where there is room (1280); on a
        // phone the bar leaves its submenus out, so there the links are only checked in the page.
        const home = await guest.newPage();
        home.setDefaultTimeout(30_000);
        await home.goto(`${b.baseUrl}/`, { waitUntil: 'load' });
        const restaurants = home.locator('.navbar__item--menu:has(> a[href="/restaurants/"])');
        const link = restaurants.locator(`.navbar__submenu a[href="${path}#review"]`);
        expect(await link.textContent()).toBe(name);
        if (label === 'desktop') {
          await restaurants.locator('> a').hover();
          await link.waitFor({ state: 'visible' });
          expect(await restaurants.locator('.navbar__submenu-title').textContent()).toBe('RECENT REVIEWS');
          await screenshot(home, `place-review-menu-${label}`);
          await Promise.all([home.waitForURL(`${b.baseUrl}${path}#review`), link.click()]);
        }
      } finally {
        await context.close();
        await guest.close();
      }
    }, LONG);
  }
});
