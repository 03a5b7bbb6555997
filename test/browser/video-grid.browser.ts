import sharp from 'sharp';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createVideo } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';

// The video grid island (islands/video-grid; needs `npm run build:islands` first) on the
// videos hub, clicked through at 375 and 1280 px: a thumbnail becomes the embedded player,
// starting another stops the first; the cards' Save video toggles (the saves island) for a
// member, and for a guest opens the login dialog and saves the video once logged in there.
// YouTube is answered locally (no network here).

const PASSWORD = 'maple-streetcar-42';
const EMAIL = 'viewer@example.com';

describeInBrowser('video grid in the browser', () => {
  let b: BrowserApp;
  let memberId: number;
  const ids: Record<string, number> = {};
  const codes: Record<string, string> = {};

  let thumbnail: Buffer;

  beforeAll(async () => {
    thumbnail = await sharp({ create: { width: 480, height: 360, channels: 3, background: '#2f6f8f' } }).jpeg({ quality: 70 }).toBuffer();
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    for (const [i, title] of ['Harbourfront at dusk', 'Kensington Market food tour', 'Leslieville brunch crawl', 'Island ferry ride'].entries()) {
      ids[title] = await createVideo(db, { title, category: i % 2 ? 'Food' : 'City Life' });
      codes[title] = (await db('videos').where({ id: ids[title] }).first('youtube_code')).youtube_code;
    }
    memberId = (await createMember(b.t.ctx, { email: EMAIL, password: PASSWORD })).id;
  }, 60_000);
  afterAll(() => b?.close());

  async function open(viewport: (typeof VIEWPORTS)[keyof typeof VIEWPORTS], path = '/videos/', grid = true): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await b.browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(/youtube|ytimg/, (route) =>
      route.request().resourceType() === 'image'
        ? route.fulfill({ status: 200, contentType: 'image/jpeg', body: thumbnail })
        : route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="en"><title>player</title><p>player</p></html>' }),
    );
    await page.goto(b.baseUrl + path);
    if (grid) await page.locator('[data-island="video-grid"][data-mounted]').first().waitFor({ state: 'attached' });
    return { context, page, errors };
  }

  const card = (page: Page, title: string) => page.locator('.video-card').filter({ has: page.getByRole('heading', { name: title }) });
  const player = (page: Page, title: string) => card(page, title).locator(`iframe[title="${title} (video player)"]`);
  const saveButton = (page: Page, title: string) => card(page, title).getByRole('button', { name: 'Save video' });

  async function expectPressed(page: Page, locator: Locator, value: 'true' | 'false') {
    await locator.and(page.locator(`[aria-pressed="${value}"]:not([disabled])`)).waitFor();
  }

  async function waitForBookmarks(videoId: number, n: number) {
    const deadline = Date.now() + 5000;
    let count = -1;
    while (Date.now() < deadline) {
      count = Number((await b.t.ctx.db('video_bookmarks').where({ profile_id: memberId, video_id: videoId }).count({ n: '*' }).first())?.n);
      if (count === n) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect({ videoId, count }).toEqual({ videoId, count: n });
  }

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    test(`${label}: a thumbnail becomes the player; starting another stops the first`, async () => {
      const { context, page, errors } = await open(viewport);
      try {
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Latest Videos');
        await card(page, 'Harbourfront at dusk').getByRole('button', { name: 'Play Harbourfront at dusk' }).click();
        await player(page, 'Harbourfront at dusk').waitFor();
        expect(await player(page, 'Harbourfront at dusk').getAttribute('src')).toBe(`https://www.youtube-nocookie.com/embed/${codes['Harbourfront at dusk']}?autoplay=1&rel=0`);
        // The player has the focus, so the keyboard drives it at once.
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
        await screenshot(page, `video-grid-playing-${label}`);
        expect(await seriousA11yViolations(page)).toEqual([]);

        await card(page, 'Island ferry ride').getByRole('button', { name: 'Play Island ferry ride' }).click();
        await player(page, 'Island ferry ride').waitFor();
        await player(page, 'Harbourfront at dusk').waitFor({ state: 'detached' });
        expect(await page.locator('.video-card iframe').count()).toBe(1);
        await card(page, 'Harbourfront at dusk').getByRole('button', { name: 'Play Harbourfront at dusk' }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        // The title still leads to the video's own page.
        await Promise.all([page.waitForURL(/\/videos\/island-ferry-ride-\d+\/$/), card(page, 'Island ferry ride').getByRole('link', { name: 'Island ferry ride' }).click()]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  test("375 px: a guest's Save video opens the login dialog, and logging in there saves that video", async () => {
    const { context, page, errors } = await open(VIEWPORTS.mobile, '/videos/category/food/');
    try {
      const title = 'Kensington Market food tour';
      await page.locator('.save-control--video.is-enhanced').first().waitFor();
      await saveButton(page, title).click();
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      await dialog.waitFor();
      await screenshot(page, 'video-grid-guest-login-375');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await dialog.getByLabel('Email').fill(EMAIL);
      await dialog.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Log in' }).click()]);
      await waitForBookmarks(ids[title], 1);
      await expectPressed(page, saveButton(page, title), 'true');
      await expectPressed(page, saveButton(page, 'Island ferry ride'), 'false');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('1280 px: a member toggles Save video off and on; the row follows; playing leaves the saves alone', async () => {
    const { context, page, errors } = await open(VIEWPORTS.desktop, '/accounts/login', false);
    try {
      await page.locator('#login-email').fill(EMAIL);
      await page.locator('#login-password').fill(PASSWORD);
      await Promise.all([page.waitForURL(`${b.baseUrl}/`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);
      await page.goto(`${b.baseUrl}/videos/`);
      await page.locator('[data-island="video-grid"][data-mounted]').first().waitFor({ state: 'attached' });
      const title = 'Kensington Market food tour';
      const save = saveButton(page, title);
      await expectPressed(page, save, 'true');
      await save.click();
      await expectPressed(page, save, 'false');
      await waitForBookmarks(ids[title], 0);
      await save.click();
      await expectPressed(page, save, 'true');
      await waitForBookmarks(ids[title], 1);
      await card(page, title).getByRole('button', { name: `Play ${title}` }).click();
      await player(page, title).waitFor();
      await expectPressed(page, save, 'true');
      await screenshot(page, 'video-grid-member-1280');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
