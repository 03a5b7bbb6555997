import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { createMember, memberSessionCookie } from '../../server/testing/test-app';
import { LIMITS } from '../../shared/constants';
import { describeInBrowser } from './chromium';
import { screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';

// Issue 13 items 1, 5 and 6 as a member does them, at 375 and 1280 px: the profile photo from
// the greeting panel (size dialog, cropper, 80x80 face on the dashboard and in the navbar).
// Expects `npm run build:islands` first.
jest.setTimeout(120_000);

describeInBrowser('member photo, forms and uploads in the browser', () => {
  let app: BrowserApp;
  let dir: string;
  let photo: string;
  let oversize: string;
  beforeAll(async () => {
    app = await startBrowserApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'member-avatar-'));
    photo = path.join(dir, 'me.jpg');
    // A face-sized photo with something to crop: a red disc on a blue ground.
    const disc = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="#2980b9"/><circle cx="600" cy="400" r="300" fill="#c8102e"/></svg>');
    fs.writeFileSync(photo, await sharp(disc).jpeg({ quality: 85 }).toBuffer());
    oversize = path.join(dir, 'huge.jpg');
    fs.writeFileSync(oversize, Buffer.alloc(LIMITS.profilePhotoBytes + 1, 0xff));
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function signedIn(width: number, email: string, fullName = 'Anne Shirley'): Promise<{ context: BrowserContext; page: Page; member: { id: number }; errors: string[] }> {
    const member = await createMember(app.t.ctx, { email, full_name: fullName });
    const [name, value] = (await memberSessionCookie(app.t, member)).split('=');
    const context = await app.browser.newContext({ viewport: { width, height: width === 375 ? VIEWPORTS.mobile.height : VIEWPORTS.desktop.height } });
    await context.addCookies([{ name, value, url: app.baseUrl }]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { context, page, member, errors };
  }

  for (const width of [375, 1280]) {
    test(`at ${width} px: a member puts up a cropped profile photo, seen at 80x80 on the dashboard and in the navbar`, async () => {
      const { context, page, member, errors } = await signedIn(width, `avatar-${width}@example.com`);
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/home/`);
      await page.getByRole('button', { name: 'Add a photo' }).click();

      // Too large: the size dialog, and nothing sent
      await page.getByLabel(/Choose a photo/).setInputFiles(oversize);
      const dialog = page.getByRole('dialog', { name: "Sorry, this photo can't be uploaded" });
      await dialog.getByText('We can only accept JPG photos that are 6mb or less. Please try again with a different image.').waitFor();
      await screenshot(page, `avatar-${width}-size-dialog`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'detached' });

      // A good JPG: the cropper, then the preview drawn after the crop delay
      await page.getByLabel(/Choose a photo/).setInputFiles(photo);
      await page.locator('.dash-cropper .reactEasyCrop_Container').waitFor();
      const zoom = page.getByLabel('Zoom');
      await zoom.fill('1.5');
      const preview = page.getByRole('img', { name: 'Preview of your new photo' });
      await preview.waitFor();
      await expect(preview.getAttribute('src')).resolves.toMatch(/^data:image\/jpeg;base64,/);
      await screenshot(page, `avatar-${width}-cropper`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save photo' }).click();

      // Saved: the greeting panel and the navbar show the 80x80 rendition
      const face = page.locator('.dash-greeting__photo img');
      await page.waitForFunction(() => /\/media\/avatars\/.+\?w=80&h=80&cmd=crop$/.test(document.querySelector<HTMLImageElement>('.dash-greeting__photo img')?.getAttribute('src') ?? ''));
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.dash-greeting__photo img')?.naturalWidth ?? 0) > 0);
      const src = (await face.getAttribute('src'))!;
      await expect(face.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).resolves.toEqual([80, 80]);
      await expect(page.locator('.navbar__profile-button img').getAttribute('src')).resolves.toBe(src);
      await page.getByRole('button', { name: 'Change photo' }).waitFor();
      const row = await app.t.ctx.db('profiles').where({ id: member.id }).first('avatar');
      expect(src).toContain(row.avatar);
      await screenshot(page, `avatar-${width}-saved`);

      // Any other page: the navbar's face comes from the shared auth check
      await page.goto(`${app.baseUrl}/`);
      const navFace = page.locator('.navbar__profile-button img');
      await navFace.waitFor();
      await expect(navFace.getAttribute('src')).resolves.toBe(src);
      await page.locator('.navbar__profile-button').click();
      await page.locator('#nav-profile-panel img').waitFor();
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('#nav-profile-panel img')?.naturalWidth ?? 0) === 80);
      await screenshot(page, `avatar-${width}-navbar`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
