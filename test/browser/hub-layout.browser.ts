import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle } from '../../server/testing/fixtures';
import { ARTICLE_HUB } from '../../shared/constants';

// An article hub as a reader meets it (spec 1 §9, spec 2 §9), at 375 and 1280 px: page one
// leads with the 7 newest stories and lists the rest under them only when there are more than
// 7; page two recommends the featured stories it does not list.

describeInBrowser('article hub layout', () => {
  let b: BrowserApp;
  const day = (d: number) => new Date(Date.UTC(2026, 1, d, 15));

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    for (let i = 1; i <= 7; i += 1) await createArticle(db, { name: `Island hopping ${i}`, type_slug: 'travel', date_published: day(i), image_key: null });
    for (let i = 1; i <= 20; i += 1) {
      await createArticle(db, { name: `Raptors game ${i}`, type_slug: 'sports', date_published: day(i), is_featured: i === 20, image_key: null });
    }
  }, 60_000);
  afterAll(() => b?.close());

  const titlesIn = (page: import('playwright-core').Page, headingId: string) =>
    page.locator(`section[aria-labelledby="${headingId}"] .card__title`).allTextContents();

  test('7 stories: the lead only; 20 stories: the lead, then the list; page two: recommended, then the list', async () => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        await page.goto(`${b.baseUrl}/travel/`, { waitUntil: 'load' });
        expect([label, await titlesIn(page, 'hub-lead-title')]).toEqual([label, [7, 6, 5, 4, 3, 2, 1].map((i) => `Island hopping ${i}`)]);
        expect([label, await page.getByRole('heading', { name: 'More travel stories' }).count()]).toEqual([label, 0]);
        await screenshot(page, `hub-layout-lead-only-${label}`);

        await page.goto(`${b.baseUrl}/sports/`, { waitUntil: 'load' });
        expect([label, (await titlesIn(page, 'hub-lead-title')).length]).toEqual([label, ARTICLE_HUB.leadCount]);
        await page.getByRole('heading', { name: 'More sports stories' }).waitFor();
        expect([label, (await titlesIn(page, 'hub-stories-title'))[0]]).toEqual([label, 'Raptors game 13']);
        expect([label, await page.getByRole('heading', { name: 'Recommended' }).count()]).toEqual([label, 0]);
        // The lead story is the big one: wider than a row card beside or under it.
        const [first, second] = await page.locator('section[aria-labelledby="hub-lead-title"] .card').evaluateAll((cards) => cards.slice(0, 2).map((c) => c.getBoundingClientRect().height));
        expect([label, first > second]).toEqual([label, true]);
        await screenshot(page, `hub-layout-lead-and-list-${label}`);

        await page.getByRole('navigation', { name: /pages/i }).getByRole('link', { name: /2/ }).first().click();
        await page.waitForURL(/\/sports\/\?page=2$/);
        expect([label, await titlesIn(page, 'hub-recommended-title')]).toEqual([label, ['Raptors game 20']]);
        expect([label, await titlesIn(page, 'hub-stories-title')]).toEqual([label, [5, 4, 3, 2, 1].map((i) => `Raptors game ${i}`)]);
        await screenshot(page, `hub-layout-recommended-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
