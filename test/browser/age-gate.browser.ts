import type { BrowserContext, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { seedCannabisArticles, CANNABIS_STORIES } from '../../scripts/seed/cannabis';
import { SlugRegistry } from '../../scripts/seed/batch';
import { Rng } from '../../scripts/seed/random';

// The cannabis section's age gate as a visitor meets it (needs `npm run build:islands`
// first), at 375 and 1280 px: reached from the footer, a dialog over the section that Esc
// does not close and Tab does not leave; No goes home; Yes with remember stores the answer
// for 30 days and the section reads on. Without JavaScript the full gate page does the job.

describeInBrowser('age gate in a browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
    await seedCannabisArticles(b.t.ctx.db, { rng: new Rng(3), now: new Date(), timeZone: 'Canada/Eastern', images: {}, slugs: new SlugRegistry() });
  }, 60_000);
  afterAll(() => b?.close());

  async function open(viewport: { width: number; height: number }, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
    const context = await b.browser.newContext({ viewport, javaScriptEnabled });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page };
  }

  const ageCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'is_user_over_18');

  for (const [label, viewport] of [['375', VIEWPORTS.mobile], ['1280', VIEWPORTS.desktop]] as const) {
    test(`at ${label} px: from the footer to a dialog over the section that Esc and Tab cannot get past; No goes home`, async () => {
      const { context, page } = await open(viewport);
      await page.goto(`${b.baseUrl}/`);
      await page.getByRole('link', { name: 'Cannabis (age-gated)' }).click();
      await page.waitForURL('**/cannabis/');
      const dialog = page.getByRole('dialog', { name: 'Are you 19 or older?' });
      await dialog.waitFor();
      // The section is there behind it, out of reach.
      expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
      expect(await page.locator('main').getByText(CANNABIS_STORIES[0].name).count()).toBeGreaterThan(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `age-gate-dialog-${label}`);

      await page.keyboard.press('Escape');
      expect(await dialog.isVisible()).toBe(true);
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }

      await dialog.getByRole('button', { name: 'No, take me home' }).click();
      await page.waitForURL(`${b.baseUrl}/`);
      const cookie = await ageCookie(context);
      expect([cookie?.value, cookie?.expires]).toEqual(['false', -1]);
      // A stored no keeps the reader out.
      await page.goto(`${b.baseUrl}/cannabis/`);
      await page.waitForURL(`${b.baseUrl}/`);
      await context.close();
      expect(errors).toEqual([]);
    }, 180_000);

    test(`at ${label} px: Yes with remember keeps the answer 30 days and the section reads on`, async () => {
      const { context, page } = await open(viewport);
      await page.goto(`${b.baseUrl}/cannabis/`);
      const dialog = page.getByRole('dialog', { name: 'Are you 19 or older?' });
      await dialog.getByLabel('Remember me for 30 days').check();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Yes, I am 19 or older' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.locator('main').evaluate((el) => (el as HTMLElement).inert)).toBe(false);
      const cookie = await ageCookie(context);
      expect(cookie?.value).toBe('true');
      const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      await screenshot(page, `age-gate-accepted-${label}`);

      await page.locator('main').getByRole('link', { name: CANNABIS_STORIES[1].name }).first().click();
      await page.getByRole('heading', { level: 1, name: CANNABIS_STORIES[1].name }).waitFor();
      await page.locator('[data-island="navbar"][data-mounted]').waitFor({ state: 'attached' });
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
      expect(errors).toEqual([]);
    }, 180_000);

    test(`at ${label} px: without JavaScript the full gate page asks, and Yes returns to the section`, async () => {
      const { context, page } = await open(viewport, false);
      await page.goto(`${b.baseUrl}/cannabis/`);
      await page.waitForURL('**/age-gate/?next=%2Fcannabis%2F');
      await page.getByRole('heading', { level: 1, name: 'Are you 19 or older?' }).waitFor();
      await screenshot(page, `age-gate-page-nojs-${label}`);
      await page.getByRole('button', { name: 'Yes, I am 19 or older' }).click();
      await page.waitForURL('**/cannabis/');
      await page.locator('main').getByText(CANNABIS_STORIES[0].name).first().waitFor();
      expect(page.url()).toBe(`${b.baseUrl}/cannabis/`);
      await context.close();
      // axe needs JavaScript: the same gate page, checked in a browser that has it.
      const withJs = await open(viewport);
      await withJs.page.goto(`${b.baseUrl}/age-gate/?next=%2Fcannabis%2F`);
      await withJs.page.getByRole('heading', { level: 1, name: 'Are you 19 or older?' }).waitFor();
      expect(await seriousA11yViolations(withJs.page)).toEqual([]);
      await withJs.context.close();
    }, 180_000);
  }
});
