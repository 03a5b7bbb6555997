import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createMember, createTestContext, type MemberFixture, type TestContext } from '../../server/testing/test-app';
import type { NewsroomRole } from '../../shared/newsroom';
import type { Env } from '../../server/config';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

// What every browser test needs: the real app on an ephemeral port over a fresh test
// database, a headless Debian chromium, screenshots kept under artifacts/, and axe-core.

export const SCREENSHOT_DIR = path.resolve(__dirname, '..', '..', 'artifacts', 'screenshots');
export const VIEWPORTS = { mobile: { width: 375, height: 812 }, desktop: { width: 1280, height: 900 } } as const;

export interface BrowserApp {
  t: TestContext;
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The app on an ephemeral port, with SITE_URL naming that port: the browser's Origin must
 * match it (CSRF), and links the app builds must lead back to it.
 */
export async function listenForBrowser(env: Env = {}): Promise<{ t: TestContext; server: Server; baseUrl: string }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await createTestContext({ SITE_URL: baseUrl, ...env });
  server.on('request', t.app);
  return { t, server, baseUrl };
}

export async function startBrowserApp(env: Env = {}): Promise<BrowserApp> {
  const { t, server, baseUrl } = await listenForBrowser(env);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return {
    t,
    baseUrl,
    browser,
    close: async () => {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** axe-core on the page; answers the serious and critical violations (empty is good). */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; nodes: string[] }>> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  // Colours are only final once fades and transitions end: axe measuring a panel half faded in
  // reports its text as low contrast. Endless animations (a spinner) are left running.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  // Legacy mode runs axe.run() in the page itself. The default (runPartial + finishRun) opens a
  // blank page per call to merge frame results: 2.5x slower here (3.2 s against 1.3 s on a hub
  // page), with the same violations, passes and incompletes. It skips cross-origin frames only,
  // and the only one we have is YouTube's player.
  const result = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: String(v.impact), help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
}

/** How many pixels the page is wider than the window (0 when nothing scrolls sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * What every page type must be, in any viewport: one h1, no serious or critical axe
 * violations, and nothing wider than the screen. `label` names the viewport in failures.
 */
export async function expectReadablePage(page: Page, label: string): Promise<void> {
  expect(await page.locator('h1').count()).toBe(1);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect([label, (await horizontalOverflow(page)) <= 1]).toEqual([label, true]);
}

/** Logs in through the login page's form (no JavaScript needed) and waits for the home page it leads to. */
export async function logInThroughPage(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/accounts/login`);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);
}

/**
 * A page in a context of its own at `viewport`, waiting 15 s at most for anything, whose
 * uncaught errors go to `errors` (a test's afterEach expects it empty).
 */
export async function newPageIn(b: Pick<BrowserApp, 'browser'>, viewport: { width: number; height: number }, errors: string[]): Promise<Page> {
  const page = await (await b.browser.newContext({ viewport })).newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (e) => errors.push(e.message));
  return page;
}

/**
 * Opens `path` as a guest, is sent to the login form (with ?next=), signs in as `who` and
 * waits to be back on `path`: how staff reach a staff page, checking that it asks a guest to sign in.
 */
export async function logInAtPage(page: Page, baseUrl: string, path: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL(`${baseUrl}/accounts/login?next=${encodeURIComponent(path)}`);
  await page.locator('#login-email').fill(who.email);
  await page.locator('#login-password').fill(who.password);
  await Promise.all([page.waitForURL(`${baseUrl}${path}`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);
}

/** A new staff member (`role`: their newsroom role, if any), signed in on `page` by logInAtPage; the member. */
export async function logInAsStaff(b: Pick<BrowserApp, 't' | 'baseUrl'>, page: Page, path: string, opts: { email?: string; role?: NewsroomRole } = {}): Promise<MemberFixture> {
  const staff = await createMember(b.t.ctx, { email: opts.email, is_staff: true });
  if (opts.role) await b.t.ctx.db('profiles').where({ id: staff.id }).update({ newsroom_role: opts.role });
  await logInAtPage(page, b.baseUrl, path, staff);
  return staff;
}
