import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createContest, createEvent, createListing, createListingType, createVideo } from '../../server/testing/fixtures';

// What Lighthouse's accessibility and SEO audits ask of every page type, at 375 and 1280 px:
// every link's text says where it goes (none is just "More": the link-text audit reads the
// rendered text, not aria-label), and headings go down one level at a time (axe's
// heading-order, a moderate rule that expectReadablePage's serious-only check lets through).

/** The generic link texts Lighthouse's link-text audit refuses (its English list). */
const GENERIC_LINK_TEXTS = ['click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info', 'more information', 'right here', 'read more', 'see more', 'start', 'this'];

async function genericLinks(page: Page): Promise<string[]> {
  const links = await page.locator('a[href]').evaluateAll((as) =>
    as.map((a) => ({ text: (a as HTMLElement).innerText.trim().toLowerCase(), href: a.getAttribute('href') ?? '' })),
  );
  return links.filter((l) => GENERIC_LINK_TEXTS.includes(l.text)).map((l) => `${l.text} -> ${l.href}`);
}

async function headingOrderViolations(page: Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const result = await new AxeBuilder({ page }).setLegacyMode(true).withRules(['heading-order']).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 80)}`));
}

describeInBrowser('link text and heading order', () => {
  let b: BrowserApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    for (let i = 0; i < 4; i += 1) {
      await createArticle(db, { name: `City hall story number ${i}`, is_featured: i === 0, date_published: new Date(Date.now() - (i + 1) * 3600_000) });
    }
    const articleId = await createArticle(db, { name: 'A new streetcar line opens downtown', type_slug: 'news', date_published: new Date(Date.now() - 86_400_000) });
    paths.article = (await db('articles').where({ id: articleId }).first('path')).path;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await createListing(db, { name: 'Pizza Palace', type_id: restaurants, rating: 4.5 });
    await createEvent(db, { title: 'Jazz night on the waterfront' });
    await createContest(db, { title: 'Win tickets to the islands' });
    await createVideo(db, { title: 'Toronto from above', category: 'City' });
  }, 60_000);
  afterAll(() => b?.close());

  // Lighthouse's six page types and the pages that share their templates.
  const pages: Array<[string, () => string]> = [
    ['home', () => '/'],
    ['news-hub', () => '/news/'],
    ['article', () => paths.article],
    ['listing-hub', () => '/restaurants/'],
    ['events', () => '/events/'],
    ['search', () => '/search?q=story'],
    ['contests', () => '/contests/'],
    ['videos', () => '/videos/'],
  ];

  test.each(pages)('%s: no link is just "More", and no heading skips a level', async (name, path) => {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        const res = await page.goto(b.baseUrl + path(), { waitUntil: 'load' });
        expect(res?.status()).toBe(200);
        // The navbar island has drawn its own top items (they replace the server's).
        await page.locator('.navbar.is-enhanced').waitFor();
        expect([label, await genericLinks(page)]).toEqual([label, []]);
        expect([label, await headingOrderViolations(page)]).toEqual([label, []]);
        await screenshot(page, `link-text-headings-${name}-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  test('without JavaScript the server-drawn navbar says where "More" goes too', async () => {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${b.baseUrl}/news/`, { waitUntil: 'load' });
      expect(await genericLinks(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
