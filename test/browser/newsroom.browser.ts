import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { describeInBrowser } from './chromium';
import { expectReadablePage, horizontalOverflow, pageFetch, screenshot, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticle, createArticleType, createListing, createListingType } from '../../server/testing/fixtures';
import { createMember } from '../../server/testing/test-app';
import type { NewsroomRole, StoryDoc, StoryNode } from '../../shared/newsroom';

// The newsroom (issue 37) in a real browser, as staff use it (needs `npm run build:islands`
// first). One app and one browser for the file; each person signs in through the login form
// in a context of their own. An editor writes a story with every kind of block, previews,
// schedules, unschedules and publishes it, and a guest reads it at phone and desktop widths;
// nothing typed is lost when saves cannot get through; two editors in one story merge by
// field and choose between bodies; a revision is compared and restored; a contributor
// cannot publish, and a member without a role cannot open the newsroom.

const PASSWORD = 'spadina-streetcar-510';
const EDITOR_URL = /\/staff\/stories\/(\d+)\/$/;
// Each save waits for the autosave's 3 s pause, and (a) and (c) make several: more than the
// browser project's 60 s on a busy machine.
const LONG = 150_000;

type Person = { id: number; email: string; name: string };

describeInBrowser('the newsroom in the browser', () => {
  let b: BrowserApp;
  const errors: string[] = [];
  const people: Record<string, Person> = {};
  let linkedStory: { name: string; path: string };
  let placeId: number;

  beforeAll(async () => {
    b = await startBrowserApp();
    const db = b.t.ctx.db;
    await createArticleType(db, 'food', 'Food');
    const cheese = await createArticle(db, { name: 'Kensington Market cheese guide', type_slug: 'food' });
    linkedStory = await db('articles').where({ id: cheese }).first('name', 'path');
    const restaurants = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    placeId = await createListing(db, { name: 'Grey Gardens', type_id: restaurants, address: '199 Augusta Ave' });
    const staff: Array<[string, string, NewsroomRole | null]> = [
      ['ana', 'Ana Ruiz', 'editor'],
      ['ben', 'Ben Okafor', 'editor'],
      ['cam', 'Cam Leblanc', 'contributor'],
      ['dee', 'Dee Member', null],
    ];
    for (const [key, name, role] of staff) {
      const m = await createMember(b.t.ctx, { email: `${key}@example.com`, password: PASSWORD, full_name: name });
      if (role) await db('profiles').where({ id: m.id }).update({ newsroom_role: role });
      people[key] = { id: m.id, email: m.email, name };
    }
  });
  afterAll(async () => {
    await b?.close();
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  /** A new context for `who`: opens `path`, is sent to the login form, signs in, and comes back. */
  async function signIn(who: Person, path: string, viewport: { width: number; height: number } = VIEWPORTS.desktop, opts: { live?: boolean } = {}): Promise<Page> {
    const context = await b.browser.newContext({ viewport });
    // Without live co-editing (its socket refused, as a proxy without websockets would): the
    // editor falls back to saving the body by field, with its conflicts (co-editing.browser.ts is the live case).
    if (opts.live === false) await context.routeWebSocket(/\/api\/v2\/staff\/live\/?$/, (ws) => ws.close({ code: 4403, reason: 'Forbidden' }));
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(`${who.name}: ${e.message}`));
    await page.goto(`${b.baseUrl}${path}`);
    await page.waitForURL(/\/accounts\/login\?next=/);
    await page.locator('#login-email').fill(who.email);
    await page.locator('#login-password').fill(PASSWORD);
    await Promise.all([page.waitForURL(`${b.baseUrl}${path}`), page.locator('form[action="/accounts/login"] button[type=submit]').click()]);
    return page;
  }

  /** The editor island is up (the server's "Loading the editor…" is replaced). */
  async function editorReady(page: Page): Promise<void> {
    await page.locator('.story-editor .story-body-editor').waitFor();
  }

  const status = (page: Page) => page.locator('.story-save__status');
  const body = (page: Page) => page.locator('.story-body-editor');
  const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Body formatting' });
  const tool = (page: Page, name: string) => toolbar(page).getByRole('button', { name, exact: true });

  /** Waits until the status line says exactly `text`. */
  async function statusIs(page: Page, text: string): Promise<void> {
    await page.waitForFunction((t) => document.querySelector('.story-save__status')?.textContent === t, text);
  }

  /** Every text the status line shows from now on, kept in the page. */
  async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
    await status(page).evaluate((el) => {
      const w = window as unknown as { statuses: string[] };
      w.statuses = [];
      new MutationObserver(() => w.statuses.push(el.textContent ?? '')).observe(el, { childList: true, characterData: true, subtree: true });
    });
    return () => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
  }

  interface ServerStory { name: string; excerpt: string; body: string; doc: StoryDoc; status: string; path: string; version: number }

  /** The story as the server keeps it. */
  async function serverStory(id: number): Promise<ServerStory> {
    const row = await b.t.ctx.db('articles').where({ id }).first('name', 'excerpt', 'body', 'doc', 'status', 'path', 'version');
    return { ...row, doc: typeof row.doc === 'string' ? JSON.parse(row.doc) : row.doc };
  }

  /** Polls the server until `ok` holds for the story (a save is asynchronous). */
  async function untilServer(id: number, ok: (s: ServerStory) => boolean, what: string): Promise<ServerStory> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const s = await serverStory(id);
      if (ok(s)) return s;
      if (Date.now() > deadline) throw new Error(`The server never had ${what}: ${JSON.stringify(s).slice(0, 800)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A full-page screenshot from the top, so the sticky bar, toolbar and side column are drawn where they stand. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, name);
  }

  /** axe on one part of a page in a state the page scans do not see (a panel opened). */
  async function regionViolations(page: Page, selector: string) {
    const { AxeBuilder } = await import('@axe-core/playwright');
    const result = await new AxeBuilder({ page }).include(selector).setLegacyMode(true).analyze();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  }

  const storyIdOf = (page: Page) => Number(EDITOR_URL.exec(page.url())?.[1]);
  const jpeg = (colour: { r: number; g: number; b: number }) => sharp({ create: { width: 900, height: 600, channels: 3, background: colour } }).jpeg().toBuffer();
  const typesIn = (doc: StoryDoc) => (doc.content ?? []).map((n: StoryNode) => n.type);

  /** Starts a story: headline and first words; answers its id once the server has created it. */
  async function newStory(page: Page, headline: string, words: string): Promise<number> {
    await editorReady(page);
    await page.getByLabel('Headline').fill(headline);
    await body(page).click();
    await page.keyboard.type(words);
    await page.waitForURL(EDITOR_URL);
    const id = storyIdOf(page);
    await untilServer(id, (s) => s.body.includes(words), 'the first words');
    await statusIs(page, 'Saved');
    return id;
  }

  test('at 1280 px an editor writes a story with every block, previews, schedules and publishes it; a guest reads it at 375 and 1280 px', async () => {
    const page = await signIn(people.ana, '/staff/stories/new/');
    await editorReady(page);
    const statuses = await recordStatuses(page);
    await page.getByLabel('Headline').fill('Six new bakeries on Ossington');
    await page.getByLabel('Excerpt (dek)').fill('Croissants, cardamom buns and a line out the door by nine.');
    await page.getByLabel('Type').selectOption({ label: 'Food' });

    // The text blocks, through the toolbar as a writer makes them.
    await body(page).click();
    await page.keyboard.type('Six bakeries opened on Ossington this autumn.');
    await page.keyboard.press('Enter');
    await tool(page, 'Heading').click();
    await page.keyboard.type('Where to start');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Start at the north end, by the streetcar stop.');
    await page.keyboard.press('Enter');
    await tool(page, 'Subheading').click();
    await page.keyboard.type('The croissant question');
    await page.keyboard.press('Enter');
    await tool(page, 'Bulleted list').click();
    await page.keyboard.type('Laminated dough');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Cardamom buns');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await tool(page, 'Numbered list').click();
    await page.keyboard.type('Arrive early');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Bring cash');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await tool(page, 'Quote').click();
    await page.keyboard.type('We sold out by ten on the first day.');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // A link to a published story, found by name in the link dialog.
    await page.keyboard.type('Then read our cheese guide');
    for (let i = 0; i < 'cheese guide'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await tool(page, 'Link').click();
    const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
    await linkDialog.getByLabel('Find a story or place').fill('cheese');
    await linkDialog.getByText('1 found').waitFor();
    await screenshot(page, 'newsroom-link-dialog-1280');
    await linkDialog.getByRole('button', { name: /Kensington Market cheese guide/ }).click();
    await linkDialog.waitFor({ state: 'detached' });
    await body(page).locator(`a[href="${linkedStory.path}"]`).getByText('cheese guide').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.type(' for the rest of the street.');
    await page.keyboard.press('Enter');

    // A picture through the image button, with its alt text and credit typed into its block.
    const [pictureChooser] = await Promise.all([page.waitForEvent('filechooser'), tool(page, 'Picture').click()]);
    await pictureChooser.setFiles({ name: 'bakery.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 200, g: 150, b: 90 }) });
    const picture = body(page).locator('.story-node--image');
    await picture.waitFor();
    await picture.getByLabel('Alt text').fill('A tray of croissants in the window of a bakery');
    await picture.getByLabel('Credit').fill('Ana Ruiz');
    await picture.getByLabel('Caption').fill('The first tray, at 7 a.m.');
    await picture.locator('.story-node__warning').waitFor({ state: 'detached' });

    // A gallery of two.
    const [galleryChooser] = await Promise.all([page.waitForEvent('filechooser'), tool(page, 'Gallery').click()]);
    await galleryChooser.setFiles([
      { name: 'buns.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 170, g: 110, b: 60 }) },
      { name: 'line.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 60, g: 90, b: 140 }) },
    ]);
    const gallery = body(page).locator('.story-node--gallery');
    await gallery.getByText('Gallery, 2 pictures').waitFor();
    const slides = gallery.locator('.story-node__gallery-item');
    await slides.nth(0).getByLabel('Alt text').fill('Cardamom buns cooling on a rack');
    await slides.nth(0).getByLabel('Credit').fill('Ana Ruiz');
    await slides.nth(1).getByLabel('Alt text').fill('A line of people outside a bakery on Ossington');
    await slides.nth(1).getByLabel('Credit').fill('Ben Okafor');
    await gallery.locator('.story-node__warning').first().waitFor({ state: 'detached' });

    // A YouTube address pasted into the body becomes a video; then a rule and a live card.
    await body(page).evaluate((el, url) => {
      const data = new DataTransfer();
      data.setData('text/plain', url);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s');
    await body(page).locator('.story-node--youtube').getByText('dQw4w9WgXcQ').waitFor();
    await tool(page, 'Divider').click();
    await tool(page, 'Live card').click();
    const cardDialog = page.getByRole('dialog', { name: 'Add a live card' });
    await cardDialog.getByLabel('Name').fill('Grey');
    await cardDialog.getByRole('button', { name: /Grey Gardens/ }).click();
    await cardDialog.waitFor({ state: 'detached' });
    await body(page).locator('.story-node--card').getByText('Grey Gardens').waitFor();

    // Saved: the status line went "Saving…" then "Saved", and the server has every block.
    await page.waitForURL(EDITOR_URL);
    const id = storyIdOf(page);
    const saved = await untilServer(id, (s) => typesIn(s.doc).includes('liveCard'), 'the live card');
    await statusIs(page, 'Saved');
    const seen = await statuses();
    expect(seen).toContain('Saving…');
    expect(seen.indexOf('Saved')).toBeGreaterThan(seen.indexOf('Saving…'));
    expect(new Set(typesIn(saved.doc))).toEqual(new Set(['paragraph', 'heading', 'bulletList', 'orderedList', 'blockquote', 'image', 'gallery', 'youtube', 'horizontalRule', 'liveCard']));
    expect(saved.doc.content.find((n) => n.type === 'youtube')?.attrs).toMatchObject({ videoId: 'dQw4w9WgXcQ', start: 42 });
    expect(saved.doc.content.find((n) => n.type === 'liveCard')?.attrs).toMatchObject({ kind: 'place', id: placeId, label: 'Grey Gardens' });
    expect(saved.doc.content.find((n) => n.type === 'image')?.attrs).toMatchObject({ alt: 'A tray of croissants in the window of a bakery', credit: 'Ana Ruiz' });
    expect(saved).toMatchObject({ name: 'Six new bakeries on Ossington', excerpt: 'Croissants, cardamom buns and a line out the door by nine.', status: 'draft' });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(1);
    await shot(page, 'newsroom-editor-1280');

    // The checks, before publishing.
    const panel = page.getByRole('region', { name: 'Publishing' });
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    const publishDialog = page.getByRole('dialog', { name: 'Publish' });
    await publishDialog.getByText('All checks pass.').waitFor();
    await shot(page, 'newsroom-checks-1280');
    await publishDialog.getByRole('button', { name: 'Cancel' }).click();

    // A preview link, opened as its reader would.
    const previews = page.getByRole('region', { name: 'Preview links' });
    await previews.getByRole('button', { name: 'Create preview link' }).click();
    const previewHref = await previews.locator('.story-preview a').first().getAttribute('href');
    const preview = await page.context().newPage();
    await preview.goto(new URL(previewHref!, b.baseUrl).href);
    await preview.locator('.preview-banner').getByText('Preview').waitFor();
    await preview.getByText('Start at the north end, by the streetcar stop.').waitFor();
    await screenshot(preview, 'newsroom-preview-1280');
    await preview.close();

    // Scheduled for a time ahead (the job queue does not run here), then unscheduled, then published.
    await panel.getByRole('button', { name: 'Schedule…' }).click();
    await panel.getByLabel('Publish at (Toronto time)').fill('2030-01-15T09:00');
    await panel.getByRole('button', { name: 'Schedule', exact: true }).click();
    await panel.locator('.story-badge').getByText('Scheduled').waitFor();
    await panel.getByText(/^Publishes .*2030.* \(Toronto time\)\.$/).waitFor();
    expect((await serverStory(id)).status).toBe('scheduled');
    await panel.getByRole('button', { name: 'Unschedule' }).click();
    await panel.locator('.story-badge').getByText('Draft').waitFor();
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    await publishDialog.getByRole('button', { name: 'Publish now' }).click();
    await panel.locator('.story-badge').getByText('Published').waitFor();
    const live = panel.getByRole('link', { name: 'View the live story' });
    const publicUrl = (await live.getAttribute('href'))!;
    const published = await serverStory(id);
    expect(published.status).toBe('published');

    // The editor on a phone.
    await page.setViewportSize(VIEWPORTS.mobile);
    await expectReadablePage(page, 'editor 375');
    await shot(page, 'newsroom-editor-375');
    await page.context().close();

    // A guest reads it: every block is drawn.
    const guest = await (await b.browser.newContext({ viewport: VIEWPORTS.mobile })).newPage();
    guest.on('pageerror', (e) => errors.push(`guest: ${e.message}`));
    await guest.goto(new URL(publicUrl, b.baseUrl).href);
    const article = guest.locator('main');
    await article.getByRole('heading', { level: 1, name: 'Six new bakeries on Ossington' }).waitFor();
    await article.getByRole('heading', { level: 2, name: 'Where to start' }).waitFor();
    await article.getByRole('heading', { level: 3, name: 'The croissant question' }).waitFor();
    expect(await article.locator('ul li').filter({ hasText: 'Cardamom buns' }).count()).toBe(1);
    expect(await article.locator('ol li').filter({ hasText: 'Bring cash' }).count()).toBe(1);
    await article.locator('blockquote').getByText('We sold out by ten on the first day.').waitFor();
    await article.locator(`a[href="${linkedStory.path}"]`).getByText('cheese guide', { exact: true }).waitFor();
    const figure = article.locator('figure.story-image');
    expect(await figure.locator('img').getAttribute('alt')).toBe('A tray of croissants in the window of a bakery');
    await figure.locator('.story-credit').getByText('Ana Ruiz').waitFor();
    await figure.getByText('The first tray, at 7 a.m.').waitFor();
    expect(await article.locator('.story-gallery img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      'Cardamom buns cooling on a rack',
      'A line of people outside a bakery on Ossington',
    ]);
    expect(await article.locator('.story-video iframe').getAttribute('src')).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?.*start=42/);
    expect(await article.locator('hr').count()).toBeGreaterThanOrEqual(1);
    await article.locator('.live-card').getByText('Grey Gardens').waitFor();
    // The pictures load (they are lazy: each is brought into view first).
    for (const img of await article.locator('.story-image img, .story-gallery img').all()) {
      await img.scrollIntoViewIfNeeded();
      await img.evaluate((el: HTMLImageElement) => (el.complete && el.naturalWidth > 0) || new Promise((resolve, reject) => ((el.onload = resolve), (el.onerror = reject))));
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    }
    await expectReadablePage(guest, 'story 375');
    await screenshot(guest, 'newsroom-story-375');
    await guest.setViewportSize(VIEWPORTS.desktop);
    expect(await horizontalOverflow(guest)).toBeLessThanOrEqual(1);
    await screenshot(guest, 'newsroom-story-1280');
    await guest.context().close();
  }, LONG);

  test('nothing lost: words typed while saves cannot get through are kept on the device, restored after a reload and saved', async () => {
    const page = await signIn(people.ana, '/staff/stories/new/');
    const id = await newStory(page, 'Nothing lost on Queen West', 'The first words reach the server.');
    const context: BrowserContext = page.context();

    // Offline: the browser says so, and nothing is sent.
    await context.setOffline(true);
    await body(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Typed while offline.');
    await statusIs(page, 'Offline — kept on this device');
    // Back online, but the server is out of reach: the save fails the same way.
    await page.route('**/api/v2/staff/stories/*/', (route) => (route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback()));
    await context.setOffline(false);
    await Promise.all([
      page.waitForEvent('requestfailed', (r) => r.method() === 'PATCH'),
      page.keyboard.type(' And while the server was out of reach.'),
    ]);
    await statusIs(page, 'Offline — kept on this device');
    await shot(page, 'newsroom-offline-1280');
    // The device's copy holds every word before the page goes.
    await page.waitForFunction(
      async ({ key, words }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open('newsroom-drafts');
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        const copy = await new Promise<{ fields: { doc: unknown } } | undefined>((resolve) => {
          const r = db.transaction('drafts').objectStore('drafts').get(key);
          r.onsuccess = () => resolve(r.result as { fields: { doc: unknown } } | undefined);
          r.onerror = () => resolve(undefined);
        });
        db.close();
        return Boolean(copy && JSON.stringify(copy.fields.doc).includes(words));
      },
      { key: String(id), words: 'And while the server was out of reach.' },
    );
    expect((await serverStory(id)).body).toBe('The first words reach the server.');

    await page.unroute('**/api/v2/staff/stories/*/');
    await page.reload();
    await editorReady(page);
    await page.getByText('Changes kept on this device were restored; they are being saved.').waitFor();
    await body(page).getByText('The first words reach the server. Typed while offline. And while the server was out of reach.').waitFor();
    const saved = await untilServer(id, (s) => s.body.includes('And while the server was out of reach.'), 'the words typed offline');
    expect(saved.body).toContain('The first words reach the server. Typed while offline. And while the server was out of reach.');
    await statusIs(page, 'Saved');
    await context.close();
  });

  test('two editors in one story without the live link: each sees the other; different fields merge; the same body is a choice', async () => {
    const a = await signIn(people.ana, '/staff/stories/new/', VIEWPORTS.desktop, { live: false });
    const id = await newStory(a, 'Two editors on Dundas', 'The opening paragraph.');
    const b2 = await signIn(people.ben, `/staff/stories/${id}/`, VIEWPORTS.desktop, { live: false });
    await editorReady(b2);
    await b2.locator('.story-presence').getByText(/^Ana Ruiz has this story open/).waitFor();
    // Ana's page says Ben is there from its next heartbeat; opening the story again shows it now.
    await a.reload();
    await editorReady(a);
    await a.locator('.story-presence').getByText(/^Ben Okafor has this story open/).waitFor();

    // A changes the headline, B the excerpt: both kept.
    await a.getByLabel('Headline').fill('Two editors on Dundas West');
    await untilServer(id, (s) => s.name === 'Two editors on Dundas West', 'A’s headline');
    await statusIs(a, 'Saved');
    await b2.getByLabel('Excerpt (dek)').fill('Both of them had something to add.');
    await untilServer(id, (s) => s.excerpt === 'Both of them had something to add.', 'B’s excerpt');
    await statusIs(b2, 'Saved');
    // B's save brought A's headline into B's form (B had not touched it).
    expect(await b2.getByLabel('Headline').inputValue()).toBe('Two editors on Dundas West');
    expect(await serverStory(id)).toMatchObject({ name: 'Two editors on Dundas West', excerpt: 'Both of them had something to add.' });
    for (const p of [a, b2]) {
      await p.reload();
      await editorReady(p);
      expect(await p.getByLabel('Headline').inputValue()).toBe('Two editors on Dundas West');
      expect(await p.getByLabel('Excerpt (dek)').inputValue()).toBe('Both of them had something to add.');
    }

    // Both edit the body without reloading: A saves first; B's save meets A's body.
    await body(a).click();
    await a.keyboard.press('Control+End');
    await a.keyboard.press('Enter');
    await a.keyboard.type('Ana adds the bakery hours.');
    await untilServer(id, (s) => s.body.includes('Ana adds the bakery hours.'), 'A’s body');
    await statusIs(a, 'Saved');
    await body(b2).click();
    await b2.keyboard.press('Control+End');
    await b2.keyboard.press('Enter');
    await b2.keyboard.type('Ben adds the patio.');
    const conflicts = b2.getByRole('region', { name: 'Someone else changed this story' });
    await conflicts.waitFor();
    await statusIs(b2, 'Someone else changed this story: choose which version to keep below.');
    const sides = conflicts.locator('.story-conflict__side');
    await sides.filter({ hasText: 'Yours' }).getByText('Ben adds the patio.').waitFor();
    await sides.filter({ hasText: 'Theirs' }).getByText('Ana adds the bakery hours.').waitFor();
    expect(await regionViolations(b2, '.story-conflicts')).toEqual([]);
    await shot(b2, 'newsroom-conflict-1280');
    await conflicts.getByRole('button', { name: 'Combine' }).click();
    await conflicts.waitFor({ state: 'detached' });
    const combined = await untilServer(id, (s) => s.body.includes('Ben adds the patio.') && s.body.includes('Ana adds the bakery hours.'), 'both bodies');
    await statusIs(b2, 'Saved');
    expect(typesIn(combined.doc)).toContain('horizontalRule');
    const text = combined.body;
    expect(text.indexOf('Ben adds the patio.')).toBeLessThan(text.indexOf('Ana adds the bakery hours.'));
    await body(b2).getByText('Ana adds the bakery hours.').waitFor();
    await a.context().close();
    await b2.context().close();
  }, LONG);

  test('a revision is compared with another and restored: the editor shows the older text, saved', async () => {
    const page = await signIn(people.ana, '/staff/stories/new/');
    const id = await newStory(page, 'Revisions on Roncesvalles', 'Version one of the body.');
    // Change the body and save it as a revision with the Save button.
    await body(page).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Version two of the body, rewritten.');
    await page.locator('.story-save').getByRole('button', { name: 'Save' }).click();
    await untilServer(id, (s) => s.body === 'Version two of the body, rewritten.', 'version two');
    await statusIs(page, 'Saved');

    const revisions = page.getByRole('region', { name: 'Revisions' });
    await revisions.getByRole('button', { name: 'Show revisions' }).click();
    const rows = revisions.locator('.story-revision');
    await rows.filter({ hasText: '· saved' }).first().waitFor();
    const count = await rows.count();
    expect(count).toBeGreaterThanOrEqual(2);
    await rows.first().getByRole('checkbox').check();
    await rows.last().getByRole('checkbox').check();
    await revisions.getByRole('button', { name: 'Compare the two picked' }).click();
    const diff = revisions.locator('.story-compare__diff');
    await diff.locator('del').getByText(/one/).waitFor();
    await diff.locator('ins').getByText(/two/).waitFor();
    expect(await regionViolations(page, '.story-editor__side')).toEqual([]);
    await shot(page, 'newsroom-revisions-1280');

    page.once('dialog', (d) => void d.accept());
    await rows.last().getByRole('button', { name: /^Restore version \d+ as new draft$/ }).click();
    await revisions.getByText(/^Version \d+ restored as the working draft\.$/).waitFor();
    await body(page).getByText('Version one of the body.').waitFor();
    expect(await body(page).textContent()).not.toContain('Version two');
    await untilServer(id, (s) => s.body === 'Version one of the body.', 'the restored body');
    await statusIs(page, 'Saved');
    await page.context().close();
  });

  test('a contributor writes and submits for review but cannot publish; a member without a role gets 403', async () => {
    const page = await signIn(people.cam, '/staff/stories/new/');
    const id = await newStory(page, 'A contributor on College Street', 'Words from a contributor.');
    const panel = page.getByRole('region', { name: 'Publishing' });
    await panel.getByRole('button', { name: 'Submit for review' }).waitFor();
    expect(await panel.getByRole('button', { name: /^(Publish|Schedule…)$/ }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Submit for review' }).click();
    await panel.locator('.story-badge').getByText('In review').waitFor();
    await shot(page, 'newsroom-contributor-1280');
    const direct = await pageFetch<{ detail: string }>(page, 'POST', `/api/v2/staff/stories/${id}/publish/`, {});
    expect(direct.status).toBe(403);
    expect(direct.body.detail).toMatch(/Contributors cannot publish/);
    expect((await serverStory(id)).status).toBe('review');
    await page.context().close();

    const member = await signIn(people.dee, '/staff/stories/');
    const res = await member.reload();
    expect(res?.status()).toBe(403);
    await member.getByText('The newsroom is for staff with a newsroom role.').waitFor();
    await screenshot(member, 'newsroom-403-1280');
    await member.context().close();
  });
});
