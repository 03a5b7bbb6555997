import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, horizontalOverflow, logInThroughPage, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember, type MemberFixture } from '../../server/testing/test-app';

// A place's review (issue 39) in a browser. At 1280 px staff write it in the newsroom's editor
// (the review-editor island over the textarea: a heading and a bold word from its toolbar),
// publish it and read it formatted on the place's page and in the navbar's RECENT REVIEWS (read
// with scripting off: the server's navbar is what is checked); what was typed and not saved is
// offered back after a reload. At 375 px the page with the editor is readable (one h1, no
// serious axe violations, nothing wider than the screen), and without JavaScript the textarea's
// plain paragraphs are published as they always were.

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

  async function newPlace(name: string) {
    const id = await createListing(b.t.ctx.db, { name, type_id: typeId, address: '124 Ossington Ave', description: 'A noodle bar.' });
    return { id, path: `/restaurants/${name.toLowerCase().replace(/ /g, '-')}-${id}/` };
  }

  /** The review page with its editor mounted (the textarea under it hidden). */
  async function openEditor(page: Page, id: number) {
    await page.goto(`${b.baseUrl}/staff/places/${id}/review/`, { waitUntil: 'load' });
    const body = page.locator('.review-editor .ProseMirror');
    await body.waitFor({ state: 'visible' });
    await page.locator('#review-review').waitFor({ state: 'hidden' });
    return body;
  }

  test('desktop: write a review with a heading and a bold word in the editor, publish it, see it formatted on the page and in RECENT REVIEWS', async () => {
    const name = 'Bellwoods Noodle Bar';
    const { id, path } = await newPlace(name);
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const guest = await b.browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    const page = await context.newPage();
    // A step that cannot happen fails here, naming itself, not at the test's own timeout.
    page.setDefaultTimeout(30_000);
    try {
      await logInThroughPage(page, b.baseUrl, staff.email, staff.password);
      const body = await openEditor(page, id);
      expect(await body.textContent()).toBe('A noodle bar.');
      expect(await page.locator('#review-byline').inputValue()).toBe('Sam Editor');

      // The description it starts from, replaced: a heading, then a paragraph with a bold word.
      await body.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      const toolbar = page.getByRole('toolbar', { name: 'Review formatting' });
      await toolbar.getByRole('button', { name: 'Heading', exact: true }).click();
      await page.keyboard.type('Why come');
      await page.keyboard.press('Enter');
      await page.keyboard.type('The ');
      await toolbar.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('hand-pulled');
      await toolbar.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type(' noodles are the reason to come.');
      await page.locator('.review-editor strong', { hasText: 'hand-pulled' }).waitFor();
      expect(await toolbar.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false');
      await screenshot(page, 'place-review-editor-desktop');
      expect(await seriousA11yViolations(page)).toEqual([]);

      await Promise.all([page.waitForURL(/done=published/), page.getByRole('button', { name: 'Publish' }).click()]);
      expect(await page.locator('main .notice--success').textContent()).toContain('Published');
      // The editor opens on what was saved; nothing is left to offer back.
      await page.locator('.review-editor h2', { hasText: 'Why come' }).waitFor();
      expect(await page.locator('[data-review-copy]').count()).toBe(0);

      await page.goto(`${b.baseUrl}${path}`, { waitUntil: 'load' });
      const review = page.locator('#review');
      expect(await review.locator('.listing-review__byline').textContent()).toMatch(/^Review by Sam Editor · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      expect(await review.locator('.listing-review__body h2').textContent()).toBe('Why come');
      expect(await review.locator('.listing-review__body p').textContent()).toBe('The hand-pulled noodles are the reason to come.');
      expect(await review.locator('.listing-review__body strong').textContent()).toBe('hand-pulled');
      await review.scrollIntoViewIfNeeded();
      await screenshot(page, 'place-review-page-desktop');
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // RECENT REVIEWS, under Restaurants: it opens on hover.
      const home = await guest.newPage();
      home.setDefaultTimeout(30_000);
      await home.goto(`${b.baseUrl}/`, { waitUntil: 'load' });
      const restaurants = home.locator('.navbar__item--menu:has(> a[href="/restaurants/"])');
      const link = restaurants.locator(`.navbar__submenu a[href="${path}#review"]`);
      expect(await link.textContent()).toBe(name);
      await restaurants.locator('> a').hover();
      await link.waitFor({ state: 'visible' });
      expect(await restaurants.locator('.navbar__submenu-title').textContent()).toBe('RECENT REVIEWS');
      await screenshot(home, 'place-review-menu-desktop');
      await Promise.all([home.waitForURL(`${b.baseUrl}${path}#review`), link.click()]);
    } finally {
      await context.close();
      await guest.close();
    }
  }, LONG);

  test('desktop: text typed and not saved is offered back after a reload', async () => {
    const { id } = await newPlace('Ossington Dumpling House');
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    try {
      await logInThroughPage(page, b.baseUrl, staff.email, staff.password);
      const body = await openEditor(page, id);
      await body.click();
      await page.keyboard.press('End');
      await page.keyboard.type(' Unsaved words about the soup dumplings.');
      // Kept on this device as it is typed (a moment after the last key).
      await page.waitForFunction((key) => (localStorage.getItem(key) ?? '').includes('soup dumplings'), `place-review:${id}`);
      await page.reload({ waitUntil: 'load' });

      const offer = page.locator('[data-review-copy]');
      await offer.waitFor({ state: 'visible' });
      expect(await page.locator('.review-editor .ProseMirror').textContent()).toBe('A noodle bar.');
      await screenshot(page, 'place-review-restore-desktop');
      await offer.getByRole('button', { name: 'Restore it' }).click();
      await offer.waitFor({ state: 'detached' });
      expect(await page.locator('.review-editor .ProseMirror').textContent()).toBe('A noodle bar. Unsaved words about the soup dumplings.');

      // Saved, it is no longer offered.
      await Promise.all([page.waitForURL(/done=saved|done=unchanged/), page.getByRole('button', { name: 'Save draft' }).click()]);
      expect(await page.locator('main .notice--success').textContent()).toContain('Saved.');
      await page.locator('.review-editor .ProseMirror', { hasText: 'soup dumplings' }).waitFor();
      expect(await page.locator('[data-review-copy]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, LONG);

  test('mobile: the review page with its editor is readable; without JavaScript the textarea\'s paragraphs are published', async () => {
    const { id, path } = await newPlace('Dundas Congee Corner');
    const context = await b.browser.newContext({ viewport: VIEWPORTS.mobile });
    const plain = await b.browser.newContext({ viewport: VIEWPORTS.mobile, javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    try {
      await logInThroughPage(page, b.baseUrl, staff.email, staff.password);
      await openEditor(page, id);
      await screenshot(page, 'place-review-editor-mobile');
      await expectReadablePage(page, 'mobile editor');

      const noJs = await plain.newPage();
      noJs.setDefaultTimeout(30_000);
      await logInThroughPage(noJs, b.baseUrl, staff.email, staff.password);
      await noJs.goto(`${b.baseUrl}/staff/places/${id}/review/`, { waitUntil: 'load' });
      await noJs.locator('#review-review').fill('Congee as it should be.\n\nOpen until 2 am.');
      await Promise.all([noJs.waitForURL(/done=published/), noJs.getByRole('button', { name: 'Publish' }).click()]);
      // axe runs in the page's own script, so the checks without JavaScript are the h1 and the width.
      await noJs.locator('#review-review').waitFor({ state: 'visible' });
      expect(await noJs.locator('h1').count()).toBe(1);
      expect(await horizontalOverflow(noJs)).toBeLessThanOrEqual(1);
      await screenshot(noJs, 'place-review-form-mobile-nojs');

      await page.goto(`${b.baseUrl}${path}`, { waitUntil: 'load' });
      expect(await page.locator('#review .listing-review__body p').allTextContents()).toEqual(['Congee as it should be.', 'Open until 2 am.']);
      await page.locator('#review').scrollIntoViewIfNeeded();
      await screenshot(page, 'place-review-page-mobile');
      await expectReadablePage(page, 'mobile place page');
    } finally {
      await context.close();
      await plain.close();
    }
  }, LONG);
});
