import { describeInBrowser } from './chromium';
import { startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';

// The footer's newsletter form from a first visit (issue 24): the page sets no cookie, so the
// form gets its CSRF token when it is used. With JavaScript, newsletter-form.js asks
// GET /api/v2/csrf/ and signs up in place; without it, the GET form goes to /newsletters/,
// whose own form carries the token. Needs `npm run build:islands` for the page's scripts.

jest.setTimeout(60_000);

describeInBrowser('a first visit signs up from the footer', () => {
  let b: BrowserApp;
  beforeAll(async () => {
    b = await startBrowserApp();
  }, 60_000);
  afterAll(() => b?.close());

  const hasCsrfCookie = async (context: { cookies: () => Promise<Array<{ name: string }>> }) => (await context.cookies()).some((c) => c.name === 'csrftoken');

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${label}: with JavaScript, the footer form fetches its token and signs up in place`, async () => {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      const email = `first-js-${label}@example.com`;
      await page.goto(`${b.baseUrl}/about`);
      expect(await hasCsrfCookie(context)).toBe(false);
      await page.locator('#footer-newsletter-email').fill(email);
      await page.locator('.site-footer form[data-newsletter-form]').getByRole('button', { name: 'Sign up' }).click();
      await page.locator('.site-footer [data-newsletter-success]').waitFor({ state: 'visible' });
      expect(page.url()).toBe(`${b.baseUrl}/about`);
      expect(await hasCsrfCookie(context)).toBe(true);
      expect(await b.t.ctx.db('guest_newsletter_subscriptions').where({ email }).first()).toMatchObject({ news: true });
      await context.close();
    });

    test(`at ${label}: without JavaScript, the footer form goes through the newsletter page, whose form carries the token`, async () => {
      const context = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      const email = `first-nojs-${label}@example.com`;
      await page.goto(`${b.baseUrl}/about`);
      expect(await hasCsrfCookie(context)).toBe(false);
      await page.locator('#footer-newsletter-email').fill(email);
      await page.locator('.site-footer form[data-newsletter-form]').getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(/\/newsletters\/\?/);
      expect(await hasCsrfCookie(context)).toBe(true);
      await page.locator('main form[action="/newsletters/"][method="post"]').getByRole('button', { name: 'Sign up' }).click();
      await page.locator('main').getByText('Thanks for signing up to our newsletter').waitFor();
      expect(await b.t.ctx.db('guest_newsletter_subscriptions').where({ email }).first()).toMatchObject({ news: true });
      await context.close();
    });
  }
});
