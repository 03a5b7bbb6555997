import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { ratingRank } from '../../server/apps/listings/smart-review';

// The RATING order ranks by the damped (Bayesian) average, so 4.59 from 22 votes comes before
// 5.00 from one. Beside each rating the card says how many votes it holds, or the order reads
// as a mistake: on the server's cards and on the cards the listing-search island draws.

describeInBrowser('rating counts beside ratings', () => {
  let b: BrowserApp;

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const places: Array<[string, number | null, number]> = [
      // name, average, votes (sum = average × votes, as the ratings table would give)
      ['Steady Diner', 4.59, 22],
      ['One Vote Cafe', 5, 1],
      ['Unrated Bistro', null, 0],
    ];
    for (const [i, [name, rating, n]] of places.entries()) {
      await createListing(db, {
        name,
        type_id: restaurants,
        address: `${10 + i} Baldwin St`,
        rating,
        rating_count: n,
        rating_rank: rating === null ? null : ratingRank({ n, sum: rating * n }),
        latitude: 43.656 + i * 0.001,
        longitude: -79.395,
      });
    }
  }, 120_000);
  afterAll(() => b?.close());

  const ratingTexts = (page: Page) =>
    page.locator('.place-card').evaluateAll((cards) =>
      cards.map((c) => `${c.querySelector('.place-card__name')?.textContent}: ${c.querySelector('.place-card__rating')?.textContent?.replace(/\s+/g, ' ').trim()}`),
    );

  test('cards print "4.59 · 22 ratings", in RATING order, from the server and from the island (375 and 1280 px)', async () => {
    const expected = ['Steady Diner: Rating 4.59 · 22 ratings', 'One Vote Cafe: Rating 5.00 · 1 rating', 'Unrated Bistro: Rating - · No ratings'];
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      // Without JavaScript: the server's cards.
      const plain = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      try {
        const page = await plain.newPage();
        await page.goto(`${b.baseUrl}/restaurants/?ordering=-rating`, { waitUntil: 'load' });
        expect(await ratingTexts(page)).toEqual(expected);
        await screenshot(page, `rating-counts-server-${label}`);
      } finally {
        await plain.close();
      }

      // With it: the island re-sorts in place and draws its own cards.
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'load' });
        await page.locator('.listing-search[data-enhanced]').waitFor();
        const sorted = page.waitForResponse((r) => r.url().includes('/api/v2/listings/') && r.url().includes('ordering=-rating'));
        await page.getByRole('link', { name: 'RATING' }).click();
        await sorted;
        await page.waitForFunction(
          () => [...document.querySelectorAll('.listing-search .place-card__name')].map((n) => n.textContent).join() === 'Steady Diner,One Vote Cafe,Unrated Bistro',
        );
        expect(await ratingTexts(page)).toEqual(expected);
        expect(await seriousA11yViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
        await page.locator('.place-card').first().scrollIntoViewIfNeeded();
        await screenshot(page, `rating-counts-island-${label}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
