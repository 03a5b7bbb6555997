import type { Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { expectReadablePage, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';
import { createListing, createListingType } from '../../server/testing/fixtures';
import { createAccessibilityService } from '../../server/apps/accessibility/service';

// Accessibility of places (issue 27) as people meet it, at 375 and 1280 px: a member opens a
// listing page, follows its link to the report form, says the entrance is step-free, and the
// listing page then counts two members' yes; a reader on the hub ticks "Step-free entrance" in
// the listing-search island's filters and sees only the places with a clear majority of yes.

describeInBrowser('accessibility of places in a browser', () => {
  let b: BrowserApp;
  const ramps: Record<string, { id: number; path: string }> = {};
  const names = { mobile: 'Ramp Cafe Mobile', desktop: 'Ramp Cafe Desktop' };

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const cafes = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    const neighbour = await createMember(b.t.ctx, { full_name: 'First Reporter' });
    const accessibility = createAccessibilityService(b.t.ctx);
    for (const [label, name] of Object.entries(names)) {
      const id = await createListing(db, { name, type_id: cafes, address: '1 Queen St W' });
      ramps[label] = { id, path: `/cafes/${name.toLowerCase().replace(/ /g, '-')}-${id}/` };
      // One member said yes already: one more makes a clear majority.
      await accessibility.report(neighbour.id, id, { attribute: 'step_free_entrance', answer: 'yes', note: '' });
    }
    const stairs = await createListing(db, { name: 'Stairs Cafe', type_id: cafes });
    await accessibility.report(neighbour.id, stairs, { attribute: 'step_free_entrance', answer: 'no', note: 'Three steps' });
    for (let i = 0; i < 6; i++) await createListing(db, { name: `Plain Cafe ${i}`, type_id: cafes });
  }, 120_000);
  afterAll(() => b?.close());

  async function open(viewport: { width: number; height: number }, member?: { id: number }): Promise<{ page: Page; close(): Promise<void>; errors: string[] }> {
    const context = await b.browser.newContext({ viewport });
    if (member) {
      const [name, value] = (await memberSessionCookie(b.t, member)).split('=');
      await context.addCookies([{ name, value, url: b.baseUrl }]);
    }
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors, close: () => context.close() };
  }

  test('a member reports a step-free entrance; a reader filters the hub by it', async () => {
    const reported: string[] = [];
    for (const [label, viewport] of Object.entries(VIEWPORTS) as Array<[keyof typeof names, { width: number; height: number }]>) {
      const member = await createMember(b.t.ctx, { full_name: `Member ${label}` });
      const m = await open(viewport, member);
      try {
        await m.page.goto(b.baseUrl + ramps[label].path, { waitUntil: 'load' });
        const row = m.page.locator('[data-attribute="step_free_entrance"]');
        await expect(row.textContent()).resolves.toContain('Reported by 1 member (1 yes, 0 no)');
        await m.page.getByRole('link', { name: 'Been there? Tell us what you found' }).click();
        await m.page.waitForURL(`**/places/${ramps[label].id}/accessibility/`);
        await expectReadablePage(m.page, label);

        const form = m.page.locator('#step_free_entrance');
        await form.getByLabel('Yes').check();
        await form.getByLabel(/^Note/).fill('Level entrance from Queen Street, wide door.');
        await form.getByRole('button', { name: 'Save answer' }).click();
        await m.page.waitForURL(/\?saved=step_free_entrance#step_free_entrance$/);
        await expect(m.page.locator('#step_free_entrance').textContent()).resolves.toContain('Yes, say most members');
        expect(await m.page.locator('#step_free_entrance input[value="yes"]').isChecked()).toBe(true);
        await screenshot(m.page, `accessibility-report-${label}`);

        // Back to the place by the page's link: the listing page is public for 60 s and this
        // browser has it already, so the link leads to a URL it has not kept.
        await m.page.getByRole('link', { name: `Back to ${names[label]}` }).click();
        await m.page.waitForURL(/\?reported=/);
        await expect(row.textContent()).resolves.toContain('Reported by 2 members (2 yes, 0 no)');
        await m.page.locator('#accessibility').scrollIntoViewIfNeeded();
        await screenshot(m.page, `accessibility-listing-${label}`);
        expect(m.errors).toEqual([]);
        reported.push(names[label]);
      } finally {
        await m.close();
      }

      const reader = await open(viewport);
      try {
        await reader.page.goto(`${b.baseUrl}/cafes/`, { waitUntil: 'load' });
        await reader.page.locator('.listing-search[data-enhanced]').waitFor();
        await reader.page.getByRole('heading', { name: '9 found' }).waitFor();
        const toggle = reader.page.getByRole('button', { name: /^Filters/ });
        if (await toggle.isVisible()) await toggle.click();
        await reader.page.getByRole('button', { name: 'Any accessibility' }).click();
        await reader.page.getByRole('checkbox', { name: 'Step-free entrance' }).check();
        await reader.page.getByRole('heading', { name: `${reported.length} found` }).waitFor();
        const titles = (await reader.page.locator('.listing-search .place-card').allTextContents()).join(' | ');
        for (const name of reported) expect(titles).toContain(name);
        expect(titles).not.toContain('Stairs Cafe');
        expect(new URL(reader.page.url()).searchParams.get('accessibility')).toBe('step_free_entrance');
        await screenshot(reader.page, `accessibility-hub-filter-${label}`);
        // The URL the island wrote is the hub the server renders, with the box ticked.
        await reader.page.reload({ waitUntil: 'load' });
        await reader.page.getByRole('heading', { name: `${reported.length} found` }).waitFor();
        expect(reader.errors).toEqual([]);
      } finally {
        await reader.close();
      }
    }
  }, 180_000);
});
