import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createListing, createListingType } from '../../server/testing/fixtures';

// The listing search panel's URL state (spec 2 §2): selectedCategoryIndex is kept in the URL
// with the other parameters, and restored from it: a reload keeps the category and filters,
// choosing another category carries its index, and a shared link with another category's
// index opens that category's hub.

describeInBrowser('selectedCategoryIndex in the listing panel URL', () => {
  let b: BrowserApp;
  const index: Record<string, number> = {};

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const bars = await createListingType(db, { name: 'Bars', slug: 'bars' });
    for (let i = 0; i < 4; i++) {
      await createListing(db, { name: `Diner ${i}`, type_id: restaurants, appears_in_best_of_lists: i % 2 === 0, latitude: 43.65 + i * 0.001, longitude: -79.4 });
      await createListing(db, { name: `Tavern ${i}`, type_id: bars, appears_in_best_of_lists: i % 2 === 0, latitude: 43.66 + i * 0.001, longitude: -79.41 });
    }
  }, 60_000);
  afterAll(() => b?.close());

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${label === 'mobile' ? 375 : 1280} px: kept with a filter, restored on reload, carried to another category, and a shared link opens its category`, async () => {
      const context = await b.browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const panel = page.locator('.listing-search');
      const openFilters = async () => {
        const toggle = panel.getByRole('button', { name: /^Filters/ });
        if (await toggle.isVisible()) await toggle.click();
      };
      try {
        await page.goto(`${b.baseUrl}/restaurants/`, { waitUntil: 'load' });
        await page.locator('.listing-search[data-enhanced]').waitFor();
        await openFilters();
        const category = panel.getByLabel('Category');
        // The dropdown's order is the index.
        const slugs = await category.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
        slugs.forEach((s, i) => (index[s] = i));

        // A filter: the URL keeps the category's index with it.
        await panel.getByRole('checkbox', { name: /Best of/ }).check();
        await page.waitForURL(`${b.baseUrl}/restaurants/?selectedCategoryIndex=${index.restaurants}&bestOf=true`);
        await panel.getByRole('heading', { name: '2 found' }).waitFor();

        // A reload restores it all.
        await page.reload({ waitUntil: 'load' });
        await page.locator('.listing-search[data-enhanced]').waitFor();
        await openFilters();
        expect(await panel.getByLabel('Category').inputValue()).toBe('restaurants');
        expect(await panel.getByRole('checkbox', { name: /Best of/ }).isChecked()).toBe(true);
        await panel.getByRole('heading', { name: '2 found' }).waitFor();

        // Another category: its hub, with its index and the filter.
        await panel.getByLabel('Category').selectOption('bars');
        await page.waitForURL(`${b.baseUrl}/bars/?selectedCategoryIndex=${index.bars}&bestOf=true`);
        await page.locator('.listing-search[data-enhanced]').waitFor();
        await openFilters();
        expect(await panel.getByLabel('Category').inputValue()).toBe('bars');
        expect(await panel.locator('.place-card__name').allTextContents()).toEqual(['Tavern 0', 'Tavern 2']);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, `listing-category-index-${label}`);

        // A shared link whose index names another category than its path: that category's hub.
        await page.goto(`${b.baseUrl}/restaurants/?selectedCategoryIndex=${index.bars}&bestOf=true`, { waitUntil: 'load' });
        expect(page.url()).toBe(`${b.baseUrl}/bars/?selectedCategoryIndex=${index.bars}&bestOf=true`);
        await page.locator('.listing-search[data-enhanced]').waitFor();
        await openFilters();
        expect(await panel.getByLabel('Category').inputValue()).toBe('bars');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 90_000);
  }
});
