import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// Closing a place (issue 39) in a real browser (needs `npm run build:islands` first): a staff
// member closes a place from its desk page with a day and a note; a reader then finds it gone
// from the Best of list it was on, with a change-log entry saying why, and its page says
// "Closed since …" with no open state. At 1280 px, and the same at 375 px for a look. The app
// runs on the real clock: the closing is dated in the past, so it is closed whenever this runs.

const PASSWORD = 'kensington-market-7';
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

  async function newPage(viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await b.browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

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
      const staff = await createMember(b.t.ctx, { email: `closing-editor-${name}@example.com`, password: PASSWORD, is_staff: true });

      // ## The editor closes it from the desk's page.
      const editor = await newPage(viewport);
      await editor.goto(`${b.baseUrl}/staff/places/${closing}/`);
      await editor.waitForURL(/\/accounts\/login\?next=/);
      await editor.locator('#login-email').fill(staff.email);
      await editor.locator('#login-password').fill(PASSWORD);
      await Promise.all([editor.waitForURL(`${b.baseUrl}/staff/places/${closing}/`), editor.locator('form[action="/accounts/login"] button[type=submit]').click()]);
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

      // ## The hub leaves it out.
      await reader.goto(`${b.baseUrl}/restaurants-${name}/`, { waitUntil: 'load' });
      await reader.locator('.place-card__name').first().waitFor();
      expect((await reader.locator('.place-card__name').allTextContents()).sort()).toEqual(['Lady Marmalade', 'School Bakery']);
      expect(errors).toEqual([]);
      await reader.context().close();
    }, LONG);
  }
});
