import { describeInBrowser } from './chromium';
import { expectReadablePage, logInAsStaff, newPageIn, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';

// Closing a place (issue 39) in a real browser (needs `npm run build:islands` first): a staff
// member closes a place from its desk page with a day and a note; a reader then finds it gone
// from the Best of list it was on, with a change-log entry saying why, and its page says
// "Closed since …" with no open state; the hub leaves it out until "Include closed places" is
// ticked (with and without JavaScript). At 1280 px, and the same at 375 px for a look. The app
// runs on the real clock: the closing is dated in the past, so it is closed whenever this runs.

const LONG = 240_000;

describeInBrowser('closing a place in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];

  beforeAll(async () => {
    b = await startBrowserApp();
  }, 120_000);
  afterAll(async () => {
    await b?.close();
  });

  const newPage = (viewport: { width: number; height: number }) => newPageIn(b, viewport, errors);

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${viewport.width} px staff close a place and it leaves its Best of list with a log entry`, async () => {
      const db = b.t.ctx.db;
      const typeId = await createListingType(db, { name: `Restaurants ${name}`, slug: `restaurants-${name}` });
      const slug = `best-brunch-${name}`;
      const [row] = await db('best_of_lists').insert({ title: 'The best brunch in Toronto', slug, intro: 'Eggs, done right.' }).returning('id');
      const listId = Number(row.id ?? row);
      const ids: number[] = [];
      for (const [i, placeName] of ['Lady Marmalade', 'Mildred\'s Temple Kitchen', 'School Bakery'].entries()) {
        const id = await createListing(db, { name: placeName, type_id: typeId, appears_in_best_of_lists: true, address: `${200 + i} Queen St E`, rating: 4.2, rating_count: 40 });
        await db('best_of_list_items').insert({ list_id: listId, listing_id: id, position: i + 1, blurb: `${placeName} is worth the wait.` });
        ids.push(id);
      }
      const closing = ids[1];

      // ## The editor closes it from the desk's page.
      const editor = await newPage(viewport);
      const staff = await logInAsStaff(b, editor, `/staff/places/${closing}/`, { email: `closing-editor-${name}@example.com` });
      const section = editor.locator('#closing');
      await section.getByRole('heading', { name: 'Close this place' }).waitFor();
      await section.getByText('It will leave The best brunch in Toronto').waitFor();
      await section.getByLabel(/The day it closed/).fill('2026-11-20');
      await section.getByLabel(/^Note/).fill('The kitchen closed after 20 years.');
      await section.scrollIntoViewIfNeeded();
      await screenshot(editor, `place-closing-desk-form-${viewport.width}`);
      await Promise.all([editor.waitForURL(/closing=closed/), section.getByRole('button', { name: 'Close Mildred\'s Temple Kitchen' }).click()]);
      await editor.locator('#closing').getByRole('status').getByText('Closed. It left the Best of lists it was on').waitFor();
      await editor.locator('#closing').getByText('Closed since Nov 20, 2026: The kitchen closed after 20 years.').waitFor();
      await editor.locator('#closing').scrollIntoViewIfNeeded();
      await screenshot(editor, `place-closing-desk-closed-${viewport.width}`);
      const audit = await db('staff_audit_log').where({ subject_type: 'listing', subject_id: closing }).select('action', 'staff_email');
      expect(audit).toEqual([{ action: 'place.close', staff_email: staff.email }]);
      await editor.context().close();

      // ## A reader: the list without it, and its change log saying why.
      const reader = await newPage(viewport);
      await reader.goto(`${b.baseUrl}/best-of/${slug}/`);
      expect(await reader.locator('.ranked-list__name').allTextContents()).toEqual(['Lady Marmalade', 'School Bakery']);
      const log = reader.locator('#changes');
      await log.getByText('Removed Mildred\'s Temple Kitchen').waitFor();
      await log.getByText('Closed on Nov 20, 2026: The kitchen closed after 20 years.').waitFor();
      await expectReadablePage(reader, `best-of list after closing ${name}`);
      await log.scrollIntoViewIfNeeded();
      await screenshot(reader, `place-closing-best-of-log-${viewport.width}`);

      // ## Its page: Closed, since when, and no open state.
      const { slug: placeSlug } = await db('listings').where({ id: closing }).first('slug');
      await reader.goto(`${b.baseUrl}/restaurants-${name}/${placeSlug}-${closing}/`);
      await reader.locator('.listing__badges .closed-badge').getByText('Closed since Nov 20, 2026').waitFor();
      expect(await reader.locator('[data-open-state]').textContent()).toContain('Closed since Nov 20, 2026');
      expect(await reader.getByText('Open now').count()).toBe(0);
      await expectReadablePage(reader, `closed place page ${name}`);
      await screenshot(reader, `place-closing-page-${viewport.width}`);

      // ## The hub leaves it out; its "Include closed places" box brings it back, marked Closed,
      // and keeps closed=include in the URL.
      await reader.goto(`${b.baseUrl}/restaurants-${name}/`, { waitUntil: 'load' });
      await reader.locator('.listing-search[data-enhanced]').waitFor();
      const names = () => reader.locator('.listing-search .place-card__name').allTextContents();
      expect((await names()).sort()).toEqual(['Lady Marmalade', 'School Bakery']);
      const box = reader.getByLabel('Include closed places');
      if (!(await box.isVisible())) await reader.getByRole('button', { name: /^(Filters|Hide filters)/ }).click();
      await box.check();
      await reader.waitForURL(/closed=include/);
      await reader.waitForFunction(() => document.querySelectorAll('.listing-search .place-card__name').length === 3);
      expect((await names()).sort()).toEqual(['Lady Marmalade', 'Mildred\'s Temple Kitchen', 'School Bakery']);
      const closedCard = reader.locator('.listing-search li', { has: reader.getByText('Mildred\'s Temple Kitchen') });
      await expect(closedCard.locator('[data-closed]').textContent()).resolves.toBe('Closed');
      await expectReadablePage(reader, `hub with closed places ${name}`);
      await screenshot(reader, `place-closing-hub-include-closed-${viewport.width}`);
      expect(errors).toEqual([]);
      await reader.context().close();

      // ## Without JavaScript: the same URL has the form's box checked and the same places.
      const noJs = await b.browser.newContext({ viewport, javaScriptEnabled: false });
      const plain = await noJs.newPage();
      await plain.goto(`${b.baseUrl}/restaurants-${name}/?closed=include`, { waitUntil: 'load' });
      expect(await plain.locator('form input[name="closed"]').isChecked()).toBe(true);
      expect((await plain.locator('.place-card__name').allTextContents()).sort()).toEqual(['Lady Marmalade', 'Mildred\'s Temple Kitchen', 'School Bakery']);
      expect(await plain.locator('[data-closed]').allTextContents()).toEqual(['Closed']);
      await noJs.close();
    }, LONG);
  }
});
