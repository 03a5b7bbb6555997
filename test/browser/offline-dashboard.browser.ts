import type { Page } from 'playwright-core';
import { createArticle, createEvent, createListing } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import { waitFor } from '../../server/testing/wait-for';
import { describeInBrowser } from './chromium';
import { horizontalOverflow, screenshot, seriousA11yViolations, startBrowserApp, type BrowserApp, logInThroughPage } from './browser-app';

// Issue 28 part 2: saved lists that work offline. Online, a member opens the dashboard; once
// the service worker controls the page and has kept it, the network goes off and the page is
// reloaded: the lists are read from the device with 'Offline — saved on', a to-do is ticked
// and queued, and when the network is back the tick reaches the database. Logging out leaves
// nothing of the member in the caches or IndexedDB. Expects `npm run build:islands` first
// (the worker is static/dist/sw/sw.js). http://127.0.0.1 counts as a secure origin.
jest.setTimeout(120_000);

/** What the browser keeps for this site: every cache with its URLs, and the IndexedDB databases. */
function storedHere(page: Page) {
  return page.evaluate(async () => {
    const caches_: Record<string, string[]> = {};
    const bodies: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const requests = await cache.keys();
      caches_[name] = requests.map((r) => new URL(r.url).pathname);
      for (const r of requests) {
        const res = await cache.match(r);
        if (res && /html|json/.test(res.headers.get('Content-Type') ?? '')) bodies.push(await res.text());
      }
    }
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '');
    return { caches: caches_, bodies, databases };
  });
}

/** How many saved lists the dashboard has kept in IndexedDB for offline reading. */
function keptLists(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('tcg-offline');
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('lists')) return resolve(0);
          const count = db.transaction('lists').objectStore('lists').count();
          count.onsuccess = () => {
            resolve(count.result);
            db.close();
          };
        };
      }),
  );
}

/** A screenshot once the route's fade has ended (the dashboard fades each route in). */
async function settledShot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await screenshot(page, name);
}

describeInBrowser('saved lists offline in the browser', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(() => app?.close());

  for (const width of [375, 1280]) {
    test(`at ${width} px: read offline, tick a to-do offline, sent when back; logging out leaves nothing`, async () => {
      const { db } = app.t.ctx;
      const member = await createMember(app.t.ctx, { email: `offline-${width}@example.com`, full_name: `Marilla Cuthbert ${width}` });
      const favourite = await createListing(db, { name: `Lake of Shining Waters ${width}` });
      const todo = await createListing(db, { name: `White Sands Hotel ${width}` });
      await db('favourites').insert({ profile_id: member.id, listing_id: favourite });
      await db('todos').insert({ profile_id: member.id, listing_id: todo });
      await db('article_bookmarks').insert({ profile_id: member.id, article_id: await createArticle(db, { name: `Picnic at Avonlea ${width}` }) });
      await db('event_bookmarks').insert({ profile_id: member.id, event_id: await createEvent(db, { title: `Carmody Concert ${width}` }) });

      const context = await app.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      await logInThroughPage(page, app.baseUrl, member.email, member.password);

      // Online: the dashboard, and the worker taking control of it
      await page.goto(`${app.baseUrl}/accounts/dashboard/#/todos/`);
      await page.getByText(`White Sands Hotel ${width}`).first().waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // …and keeping the page, its files and the four saved lists (open and done to-dos: five)
      await page.waitForFunction(async (id) => {
        const kept = await caches.open(`tcg-member-${id}`).then((c) => c.match('/accounts/dashboard/'));
        const files = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src)
          .concat([...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet], link[rel=modulepreload]')].map((l) => l.href));
        const filesKept = await Promise.all(files.map((f) => caches.match(f)));
        return Boolean(kept) && filesKept.every(Boolean);
      }, member.id);
      await waitFor('the saved lists kept in IndexedDB', async () => (await keptLists(page)) >= 5, 15_000);

      // Offline: reload and read the lists from the device
      await context.setOffline(true);
      await page.reload();
      const offlineLine = page.getByText(/^Offline — saved on [A-Z][a-z]+ \d{1,2}, \d{4}$/);
      await offlineLine.waitFor();
      await page.getByText(`White Sands Hotel ${width}`).first().waitFor();
      await settledShot(page, `offline-dashboard-${width}-todos`);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      const menu = page.getByRole('navigation', { name: 'Dashboard' });
      await menu.getByRole('link', { name: 'Favourites' }).click();
      await page.getByText(`Lake of Shining Waters ${width}`).first().waitFor();
      await offlineLine.waitFor();
      await menu.getByRole('link', { name: 'Saved Articles' }).click();
      await page.getByRole('link', { name: `Picnic at Avonlea ${width}` }).waitFor();
      await menu.getByRole('link', { name: 'Events' }).click();
      await page.getByRole('link', { name: `Carmody Concert ${width}` }).waitFor();
      await offlineLine.waitFor();
      await settledShot(page, `offline-dashboard-${width}-events`);

      // Tick the to-do offline: shown done at once, queued
      await menu.getByRole('link', { name: 'To-Do List' }).click();
      await page.getByLabel('Mark as completed').click();
      await page.getByText("1 change will be sent when you're back online.").waitFor();
      await page.getByRole('heading', { name: '1 Completed To-Do' }).waitFor();
      await settledShot(page, `offline-dashboard-${width}-ticked`);
      expect((await db('todos').where({ profile_id: member.id }).first('is_done')).is_done).toBe(false);

      // Back online: the tick reaches the server
      await context.setOffline(false);
      await waitFor('the tick saved on the server', async () => (await db('todos').where({ profile_id: member.id }).first('is_done')).is_done === true, 20_000);
      await page.getByText('Your change made offline was saved.').waitFor();
      await settledShot(page, `offline-dashboard-${width}-sent`);

      // Log out: nothing of the member is left in this browser
      await page.goto(`${app.baseUrl}/profiles/logout?next=/`);
      await Promise.all([page.waitForURL(`${app.baseUrl}/`), page.locator('main').getByRole('button', { name: 'Log out now' }).click()]);
      await waitFor(
        "the member's caches and saved lists gone",
        async () => {
          const stored = await storedHere(page);
          return !Object.keys(stored.caches).some((n) => n.startsWith('tcg-member-')) && !stored.databases.includes('tcg-offline');
        },
        15_000,
      );
      const stored = await storedHere(page);
      expect(Object.values(stored.caches).flat().filter((p) => p.startsWith('/accounts/') || p.startsWith('/api/'))).toEqual([]);
      for (const body of stored.bodies) {
        expect(body).not.toContain(member.email);
        expect(body).not.toContain(`Marilla Cuthbert ${width}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
