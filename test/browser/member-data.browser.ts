import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { createListing } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp, logInThroughPage } from './browser-app';

// Dashboard → Your Data (issue 16) in a real browser: the member opens the panel from the
// dashboard's menu and downloads the ZIP, which holds their profile. Expects `npm run build:islands` first.
jest.setTimeout(90_000);

describeInBrowser('Your Data on the dashboard', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(() => app?.close());

  for (const viewport of Object.values(VIEWPORTS)) {
    test(`at ${viewport.width} px: opens Your Data and downloads the ZIP`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `your-data-${viewport.width}@example.com`, full_name: 'Marilla Cuthbert' });
      await db('favourites').insert({ profile_id: member.id, listing_id: await createListing(db, { name: `Green Gables ${viewport.width}` }) });

      const context = await app.browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      await logInThroughPage(page, app.baseUrl, member.email, member.password);

      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);
      if (viewport.width < 640) {
        // On a phone the menu is one scrolling row, Your Data at its far end: the greeting links it.
        await screenshot(page, `your-data-dashboard-home-${viewport.width}`);
        await page.getByRole('link', { name: 'Download your data or delete your account' }).click();
      } else {
        await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Your Data' }).click();
      }
      await page.getByRole('heading', { name: 'Your Data', level: 1 }).waitFor();
      const download = page.getByRole('link', { name: 'Download my data' });
      await download.waitFor();
      // The route's fade has ended when no animation runs any more.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await download.scrollIntoViewIfNeeded();
      await screenshot(page, `your-data-${viewport.width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
      expect(await page.getByRole('link', { name: 'Delete my account' }).getAttribute('href')).toBe('/accounts/delete/');

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toMatch(/-your-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zipPath = await file.path();
      const files = unzipSync(new Uint8Array(fs.readFileSync(zipPath)));
      expect(JSON.parse(strFromU8(files['profile.json']))).toMatchObject({ id: member.id, email: member.email, full_name: 'Marilla Cuthbert' });
      expect(JSON.parse(strFromU8(files['favourites.json']))).toEqual([expect.objectContaining({ listing_name: `Green Gables ${viewport.width}` })]);
      // The page stays where it was: the download is an attachment.
      expect(page.url()).toBe(`${app.baseUrl}/accounts/dashboard/#/your-data/`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
