import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestContext } from '../../server/testing/test-app';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeInBrowser } from './chromium';
import { listenForBrowser } from './browser-app';

// The navbar island in a real browser, against the app served in-process. Builds nothing:
// it expects `npm run build:islands` to have run (CI builds first).
const SHOTS = path.resolve(__dirname, '..', '..', 'artifacts', 'screenshots');
const PASSWORD = 'maple-streetcar-42';
const NEW_PASSWORD = 'ferry-to-the-island-7';

jest.setTimeout(60_000);

describeInBrowser('accounts in the browser', () => {
  let t: TestContext;
  let server: Server;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ t, server, baseUrl: base } = await listenForBrowser());
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  for (const width of [375, 1280]) {
    describe(`at ${width} px`, () => {
      let page: Page;
      const email = `browser-${width}@example.com`;
      const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `accounts-${width}-${name}.png`) });
      const profileButton = () => page.locator('.navbar__profile-button');

      beforeAll(async () => {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        page = await context.newPage();
        page.setDefaultTimeout(10_000);
      });
      afterAll(() => page.context().close());

      test('the island mounts without console errors', async () => {
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${base}/about`);
        await page.locator('.navbar.is-enhanced').waitFor();
        expect(errors).toEqual([]);
      });

      test('sign up from ?signupDialogActive=true goes to onboarding, signed in', async () => {
        await page.goto(`${base}/?signupDialogActive=true`);
        const dialog = page.getByRole('dialog', { name: 'Sign up' });
        await dialog.getByLabel('Email').fill(email);
        await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await dialog.getByLabel('Repeat password').fill('not the same');
        await dialog.getByRole('button', { name: 'Sign up' }).click();
        await dialog.getByText("* The two passwords fields didn't match.").waitFor();
        await dialog.getByLabel('Repeat password').fill(PASSWORD);
        await shot('signup-dialog');
        await dialog.getByRole('button', { name: 'Sign up' }).click();
        await page.waitForURL(/\/accounts\/onboarding\?next=/);
        await expect(profileButton().textContent()).resolves.toBe('Account');
        await shot('onboarding');
      });

      test('log out from the profile panel', async () => {
        await page.goto(`${base}/about`);
        await profileButton().click();
        const panel = page.locator('#nav-profile-panel');
        await panel.getByText('Logged in as').waitFor();
        await shot('member-panel');
        // Already on /about: wait for the page the POST lands on, not for the URL.
        await Promise.all([page.waitForEvent('load'), panel.getByRole('button', { name: 'Log out now' }).click()]);
        expect(page.url()).toBe(`${base}/about`);
        await expect(profileButton().textContent()).resolves.toBe('Log in');
        expect(await page.evaluate('localStorage.getItem("profile.profileId")')).toBeNull();
      });

      test('a wrong password shows its message; the right one signs in', async () => {
        await profileButton().click();
        const panel = page.locator('#nav-profile-panel');
        await panel.getByLabel('Email').fill(email);
        await panel.getByLabel('Password').fill('wrong password!');
        await panel.getByLabel('Password').press('Enter');
        await panel.getByText('* Unable to log in with provided credentials.').waitFor();
        await shot('wrong-password');
        await panel.getByLabel('Password').fill(PASSWORD);
        await Promise.all([page.waitForEvent('load'), panel.getByRole('button', { name: 'Log in' }).click()]);
        await expect(profileButton().textContent()).resolves.toBe('Account');
      });

      test('reset the password through the mailed link, then log in with it', async () => {
        // An old logout link only asks; its form signs out (a POST with the token).
        await page.goto(`${base}/profiles/logout?next=/about`);
        await expect(profileButton().textContent()).resolves.toBe('Account');
        await shot('logout-confirm');
        await Promise.all([page.waitForURL(`${base}/about`), page.locator('main').getByRole('button', { name: 'Log out now' }).click()]);
        await expect(profileButton().textContent()).resolves.toBe('Log in');
        await profileButton().click();
        await page.getByRole('button', { name: 'Forgot your password?' }).click();
        const dialog = page.getByRole('dialog', { name: 'Reset your password' });
        t.mailer.sent.length = 0;
        await dialog.getByLabel('Email').fill(email);
        await dialog.getByRole('button', { name: 'Send the link' }).click();
        await dialog.getByText(`An email has been sent to ${email}. Click the link in the email to reset your password.`).waitFor();
        await shot('reset-sent');
        const link = new URL(/http\S+\/accounts\/reset\/\S+\//.exec(t.mailer.sent[0].text)![0]);
        await page.goto(base + link.pathname);
        await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
        await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Set my password' }).click();
        await page.getByText('Your password has been set.').waitFor();
        await page.goto(`${base}/accounts/login`);
        await page.locator('#login-email').fill(email);
        await page.locator('#login-password').fill(NEW_PASSWORD);
        await Promise.all([page.waitForURL(`${base}/`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);
        await expect(profileButton().textContent()).resolves.toBe('Account');
      });

      test('the three panels exclude each other and Esc closes search', async () => {
        await page.goto(`${base}/about`);
        await profileButton().click();
        await page.locator('#nav-profile-panel').waitFor();
        await page.locator('.navbar__search-button').click();
        await page.locator('#nav-search-panel').waitFor();
        expect(await page.locator('#nav-profile-panel').count()).toBe(0);
        await page.getByLabel('What cha looking for?').first().waitFor();
        await shot('search-panel');
        await page.locator('.navbar__burger').click();
        await page.locator('#nav-side-menu').waitFor();
        expect(await page.locator('#nav-search-panel').count()).toBe(0);
        await shot('side-menu');
        await page.locator('.navbar__search-button').click();
        await page.locator('#nav-search-panel').waitFor();
        expect(await page.locator('#nav-side-menu').count()).toBe(0);
        await page.keyboard.press('Escape');
        await page.locator('#nav-search-panel').waitFor({ state: 'detached' });
        // An empty query does nothing; a query goes to /search?q=.
        await page.locator('.navbar__search-button').click();
        const q = page.locator('#nav-search-panel-q');
        await q.press('Enter');
        expect(new URL(page.url()).pathname).toBe('/about');
        await q.fill('patios');
        await Promise.all([page.waitForURL(/\/search\?q=patios/), q.press('Enter')]);
      });
    });
  }
});
