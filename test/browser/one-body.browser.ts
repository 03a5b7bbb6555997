import type { BrowserContext, Page } from 'playwright-core';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';
import { createArticle } from '../../server/testing/fixtures';
import { describeInBrowser } from './chromium';
import { screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';

// One body for everybody (issue 15), in a real browser at 375 and 1280 px: the server's page
// names nobody, so the member's name in the navbar and their saved state on the page come
// from the islands (GET /api/v2/profiles/hi/, the saved-id APIs). Without JavaScript a member
// sees the generic page, whose "Log in" tells them they are signed in and leads to their
// dashboard. Expects `npm run build:islands` first.
jest.setTimeout(120_000);

describeInBrowser('one body for everybody, in the browser', () => {
  let app: BrowserApp;
  let articlePath: string;
  let articleId: number;
  beforeAll(async () => {
    app = await startBrowserApp();
    articleId = await createArticle(app.t.ctx.db, { name: 'The best patios this summer' });
    articlePath = (await app.t.ctx.db('articles').where({ id: articleId }).first('path')).path;
  });
  afterAll(() => app?.close());

  async function signedIn(width: number, email: string, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page; member: { id: number }; errors: string[] }> {
    const member = await createMember(app.t.ctx, { email, full_name: 'Jane Jacobs' });
    const [name, value] = (await memberSessionCookie(app.t, member)).split('=');
    const height = width === VIEWPORTS.mobile.width ? VIEWPORTS.mobile.height : VIEWPORTS.desktop.height;
    const context = await app.browser.newContext({ viewport: { width, height }, javaScriptEnabled });
    await context.addCookies([{ name, value, url: app.baseUrl }]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, member, errors };
  }

  for (const width of [VIEWPORTS.mobile.width, VIEWPORTS.desktop.width]) {
    test(`at ${width} px: the navbar names the member and the bookmark shows as saved, both from the islands`, async () => {
      const { context, page, member, errors } = await signedIn(width, `one-body-${width}@example.com`);
      await app.t.ctx.db('article_bookmarks').insert({ profile_id: member.id, article_id: articleId });
      const hiCalls: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/v2/profiles/hi/')) hiCalls.push(r.url());
      });

      await page.goto(`${app.baseUrl}/`);
      // The server's navbar says "Log in" to everybody; the island names the member.
      await page.locator('.navbar.is-enhanced .navbar__profile-name', { hasText: 'Jane Jacobs' }).waitFor();
      await screenshot(page, `one-body-home-member-${width}`);

      await page.goto(`${app.baseUrl}${articlePath}`);
      await page.locator('.navbar.is-enhanced .navbar__profile-name', { hasText: 'Jane Jacobs' }).waitFor();
      const bookmark = page.locator('.save-control--article.is-enhanced').getByRole('button', { name: 'Bookmark' });
      await bookmark.and(page.locator('[aria-pressed="true"]:not([disabled])')).waitFor();
      await screenshot(page, `one-body-article-member-${width}`);
      // One shared auth check per page load (navbar and saves island together).
      expect(hiCalls).toHaveLength(2);
      expect(errors).toEqual([]);
      await context.close();
    });

    test(`at ${width} px: a guest's page load asks nobody who is signed in`, async () => {
      const context = await app.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const hiCalls: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/v2/profiles/hi/')) hiCalls.push(r.url());
      });
      await page.goto(`${app.baseUrl}${articlePath}`);
      await page.locator('.save-control--article.is-enhanced').waitFor();
      await page.locator('.navbar.is-enhanced .navbar__profile-name', { hasText: 'Log in' }).waitFor();
      expect(hiCalls).toEqual([]);
      await context.close();
    });

    test(`at ${width} px: without JavaScript a member sees the generic page; "Log in" says they are signed in and leads to the dashboard`, async () => {
      const { context, page } = await signedIn(width, `no-js-${width}@example.com`, false);
      await page.goto(`${app.baseUrl}${articlePath}`);
      expect(await page.locator('.navbar__profile').innerText()).toContain('Log in');
      expect(await page.locator('body').innerText()).not.toContain('Jane Jacobs');
      await screenshot(page, `one-body-article-no-js-member-${width}`);

      await page.locator('.navbar__profile').getByRole('link', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'You are logged in' }).waitFor();
      await page.getByText('Logged in as Jane Jacobs.').waitFor();
      expect(await page.getByRole('link', { name: 'Continue where you were' }).getAttribute('href')).toBe(articlePath);
      await screenshot(page, `one-body-signed-in-no-js-${width}`);

      await page.getByRole('link', { name: 'Your dashboard' }).click();
      await page.waitForURL(`${app.baseUrl}/accounts/dashboard/`);
      await page.getByText('Logged in as Jane Jacobs.').waitFor();
      await screenshot(page, `one-body-dashboard-no-js-${width}`);
      await context.close();
    });
  }
});
