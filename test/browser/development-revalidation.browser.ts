import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeInBrowser } from './chromium';
import { screenshot, VIEWPORTS } from './browser-app';
import { createApp } from '../../server/app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { createArticle } from '../../server/testing/fixtures';

// Issue 23 item 6, as a person meets it: in development (`npm run dev` builds the app this way,
// less the live-reload route, whose folder watchers would outlive the test), a reader who
// reloads an article page gets the server's 304 for the copy chromium holds, at 375 and 1280 px.
// The statuses are the server's own: chromium reports a 304 to the page as its cached 200.

describeInBrowser('development mode: a reload of an article page revalidates', () => {
  let t: TestContext;
  let server: http.Server;
  let browser: Browser;
  let baseUrl: string;
  let path: string;
  const statuses: number[] = [];

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestContext({ NODE_ENV: 'development', SITE_URL: baseUrl });
    const app = createApp(t.ctx, { watchManifest: true });
    const id = await createArticle(t.ctx.db, { name: 'Ferry season opens at Jack Layton terminal' });
    path = (await t.ctx.db('articles').where({ id }).first('path')).path;
    server.on('request', (req, res) => {
      if (req.url === path) res.on('finish', () => statuses.push(res.statusCode));
      app(req, res);
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  test('the first visit is a 200; the reload a 304, and the page still reads right', async () => {
    expect(t.ctx.config.env).toBe('development');
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        statuses.length = 0;
        await page.goto(baseUrl + path, { waitUntil: 'load' });
        await page.reload({ waitUntil: 'load' });
        await page.getByRole('heading', { level: 1, name: 'Ferry season opens at Jack Layton terminal' }).waitFor();
        expect([label, statuses]).toEqual([label, [200, 304]]);
        await screenshot(page, `development-revalidation-${label}`);
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});
