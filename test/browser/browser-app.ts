import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
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
  server.on('upgrade', (req, socket, head) => t.ctx.sharedStories.handleUpgrade(req, socket, head));
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

/**
 * The axe-core build that @axe-core/playwright carries (the same version its AxeBuilder
 * injected), read once per test file rather than once per scan.
 */
let axeSourceCache: string | undefined;
function axeSource(): string {
  axeSourceCache ??= (createRequire(require.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;
  return axeSourceCache;
}

/** axe-core on the page; answers the serious and critical violations (empty is good). */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; nodes: string[] }>> {
  // Colours are only final once fades and transitions end: axe measuring a panel half faded in
  // reports its text as low contrast. Endless animations (a spinner) are left running.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  // What AxeBuilder's legacy mode did (axe.run() in the page itself, axe in every frame, only
  // same-origin frames asked; the default runPartial + finishRun opens a blank page per call:
  // 2.5x slower, same results), without its cost: it sent axe's 560 KB source twice per frame
  // per scan and carried every pass and inapplicable rule back to node. Here axe goes into
  // a frame once (a frame that navigates loses it and gets it again) and only the serious
  // and critical violations leave the page. Same rules, same options (none), same verdicts.
  for (const frame of page.frames()) {
    const inject = async () => {
      const present = await frame.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
      if (present) return;
      await frame.evaluate(axeSource());
      await frame.evaluate(() => (window as unknown as { axe: { configure(c: object): void } }).axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }));
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      // A frame that never answers (detached, still loading elsewhere) must not hold the scan;
      // AxeBuilder gave each frame a second and went on. The top frame must take axe: its
      // failure is the test's.
      await (frame === page.mainFrame() ? inject() : Promise.race([inject(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('frame did not answer')), 5_000)))]));
    } catch (e) {
      if (frame === page.mainFrame()) throw e;
    } finally {
      clearTimeout(timer);
    }
  }
  const outcome = await page.evaluate(async () => {
    type Violation = { id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown[] }> };
    const axe = (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: Violation[] }> } }).axe;
    try {
      const { violations } = await axe.run(document, {});
      return {
        error: null,
        violations: violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({ id: v.id, impact: String(v.impact), help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
      };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e), violations: [] };
    }
  });
  if (outcome.error) throw new Error(outcome.error);
  return outcome.violations;
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

/**
 * Opens `path` at both VIEWPORTS, each in a fresh context (a first visit, as a reader would
 * see it), expects `status`, keeps a full-page screenshot `${name}-${label}.png` and expects
 * a readable page. The two widths run at once: each spends much of its time waiting on the
 * app or on chromium, which the other fills. `prepare` runs on each page before it opens.
 */
export async function expectReadableAtBothWidths(
  b: Pick<BrowserApp, 'browser' | 'baseUrl'>,
  path: string,
  name: string,
  opts: { status?: number; prepare?: (page: Page) => Promise<void> } = {},
): Promise<void> {
  const results = await Promise.allSettled(
    Object.entries(VIEWPORTS).map(async ([label, viewport]) => {
      const context = await b.browser.newContext({ viewport });
      try {
        const page = await context.newPage();
        await opts.prepare?.(page);
        const res = await page.goto(b.baseUrl + path, { waitUntil: 'load' });
        expect([label, res?.status()]).toEqual([label, opts.status ?? 200]);
        await screenshot(page, `${name}-${label}`);
        await expectReadablePage(page, label);
      } finally {
        await context.close();
      }
    }),
  );
  // Both widths finish (and close their contexts) before a failure is reported.
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
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
/**
 * A JSON call from the page, as its own scripts make it: the page's cookies, and the CSRF token
 * from its csrftoken cookie in X-CSRFToken.
 */
export function pageFetch<T>(page: Page, method: string, path: string, data?: object): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, data }) => {
      const token = /(?:^|; )csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch(path, { method, credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-CSRFToken': decodeURIComponent(token) }, body: data ? JSON.stringify(data) : undefined });
      return { status: res.status, body: (await res.json()) as T };
    },
    { method, path, data },
  );
}

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
