import type { Page } from 'playwright-core';
import { createArticle, createListing } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import { TIMINGS_MS } from '../../shared/constants';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, type BrowserApp, logInThroughPage } from './browser-app';

// The dashboard and onboarding islands in a real browser. Expects `npx vite build` first.
jest.setTimeout(90_000);

describeInBrowser('the member dashboard in the browser', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(() => app?.close());

  for (const width of [375, 1280]) {
    test(`at ${width} px: counts, deleting a favourite, renaming, onboarding`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `dash-${width}@example.com`, full_name: 'Anne Shirley' });
      const [l1, l2, l3] = [await createListing(db, { name: `Green Gables ${width}` }), await createListing(db, { name: `Avonlea Cafe ${width}` }), await createListing(db)];
      await db('favourites').insert([{ profile_id: member.id, listing_id: l1 }, { profile_id: member.id, listing_id: l2 }]);
      await db('todos').insert({ profile_id: member.id, listing_id: l3 });
      await db('article_bookmarks').insert({ profile_id: member.id, article_id: await createArticle(db) });

      const context = await app.browser.newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      await logInThroughPage(page, app.baseUrl, member.email, member.password);

      // Home: the counts the page printed
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);
      const counts = page.locator('.dash-counts');
      await counts.waitFor();
      await expect(counts.locator('[data-count="favourite_count"]').textContent()).resolves.toMatch(/^2Favourites[A-Z]/);
      await expect(counts.locator('[data-count="todos_count"]').textContent()).resolves.toMatch(/^1To-Do[A-Z]/);
      await expect(counts.locator('[data-count="bookmark_count"]').textContent()).resolves.toMatch(/^1Saved Article[A-Z]/);
      await expect(counts.locator('[data-count="photo_count"]').textContent()).resolves.toMatch(/^No Photos[A-Z]/);
      await page.getByText(/^(Hi there,|Welcome back,|What's up,)$/).waitFor();
      await page.waitForTimeout(600); // the 500 ms fade
      await screenshot(page, `dashboard-${width}-home`);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Favourites: delete one through the confirmation
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Favourites' }).click();
      await page.getByText('2 Favourites').waitFor();
      await page.getByRole('button', { name: `Delete Avonlea Cafe ${width}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this favourite?' });
      await screenshot(page, `dashboard-${width}-delete-confirm`);
      await dialog.getByRole('button', { name: 'Yes, delete this favourite' }).click();
      await page.getByText('1 Favourite', { exact: true }).waitFor();
      await expect(page.getByText(`Avonlea Cafe ${width}`).count()).resolves.toBe(0);
      await expect(db('favourites').where({ profile_id: member.id }).count<{ count: string }[]>('* as count')).resolves.toEqual([{ count: 1 }]);

      // Home again: the count followed; rename with Enter
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Dashboard' }).click();
      await expect(counts.locator('[data-count="favourite_count"]').textContent()).resolves.toMatch(/^1Favourite[A-Z]/);
      await page.getByRole('button', { name: 'Edit name' }).click();
      await page.getByLabel('Your name').fill('Anne of Green Gables');
      await page.getByLabel('Your name').press('Enter');
      await page.locator('.dash-greeting__name', { hasText: 'Anne of Green Gables' }).waitFor();
      const row = await db('profiles').where({ id: member.id }).first('full_name');
      expect(row.full_name).toBe('Anne of Green Gables');
      await screenshot(page, `dashboard-${width}-renamed`);

      // Onboarding to /final, then on to the next page after 3 s
      await page.goto(`${app.baseUrl}/accounts/onboarding?next=/accounts/dashboard/`);
      await page.getByRole('heading', { name: 'Hi there!' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Next Step' }).click();
      await page.getByRole('button', { name: "Got it, what's next?" }).click();
      await page.getByRole('heading', { name: 'Want more?' }).waitFor();
      await page.getByLabel(/Top Events/).check();
      await screenshot(page, `onboarding-${width}-step-3`);
      await page.getByRole('button', { name: 'One more step' }).click();
      await page.getByRole('heading', { name: 'Thumbs up!' }).waitFor();
      const saved = await db('profiles').where({ id: member.id }).first('settings_receive_newsletter_events');
      expect(saved.settings_receive_newsletter_events).toBe(true);
      await page.getByRole('button', { name: 'Huzzah, all done!' }).click();
      await page.getByText("Thanks! Your account has been created. In a moment you'll be taken to your user dashboard.").waitFor();
      await screenshot(page, `onboarding-${width}-final`);
      await page.waitForURL(`${app.baseUrl}/accounts/dashboard/`, { timeout: 6000 });
      expect(errors).toEqual([]);
      await context.close();
    });

    test(`at ${width} px: with the name form open, "Add a photo" and "Change password" open and stay open`, async () => {
      const member = await createMember(app.t.ctx, { email: `dash-sections-${width}@example.com`, full_name: 'Ruby Gillis' });
      const context = await app.browser.newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await logInThroughPage(page, app.baseUrl, member.email, member.password);
      await page.clock.install();
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);

      for (const [button, opened, name] of [
        ['Add a photo', page.getByText('Choose a photo'), 'photo'],
        ['Change password', page.getByLabel('Current password'), 'password'],
      ] as const) {
        await page.getByRole('button', { name: 'Edit name' }).click();
        await expect(page.getByLabel('Your name').evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        await page.getByRole('button', { name: button }).click();
        await opened.waitFor();
        // The name form's blur close was due 250 ms after the click: run the page's clock past
        // it (every timer due fires), then the section opened must still be there.
        await page.clock.runFor(TIMINGS_MS.nameBlur * 2);
        await expect(opened.isVisible()).resolves.toBe(true);
        await expect(page.getByLabel('Your name').count()).resolves.toBe(0);
        await screenshot(page, `dashboard-${width}-section-${name}-stays-open`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
