import type { Page } from 'playwright-core';
import { probeLiveDocument } from './live-probe';
import { describeInBrowser } from './chromium';
import { logInAtPage, newPageIn, pageFetch, screenshot, seriousA11yViolations, startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createArticleType } from '../../server/testing/fixtures';
import { createMember, type MemberFixture } from '../../server/testing/test-app';
import { liveDocumentName, type NewsroomRole, type StoryDoc } from '../../shared/newsroom';

// Live co-editing in the story editor (issue 42) in a real browser, against the app's own
// websocket (needs `npm run build:islands` first). One app and one browser for the file. An
// editor (on a phone) and a writer (on a desktop) are in one story: each sees the other's
// typing, name and caret; the editor goes offline and types while the writer types, and on
// return both bodies are the same and equal what the server stored. The editor comments on a
// passage, the writer sees it and resolves it, and the published page has none of it. A
// contributor gets no document of another's story, and their editor says it cannot be edited live.

const PASSWORD = 'king-streetcar-504';
const LONG = 120_000;

type Person = MemberFixture & { name: string };

/**
 * In the page: the body's paragraphs' text without the carets' names (and their word joiners);
 * with `want`, whether they hold `want.has` or are exactly `want.equals`.
 */
function readBody(want?: { has?: string; equals?: string[] }): string[] | boolean {
  const copy = document.querySelector('.story-body-editor')!.cloneNode(true) as HTMLElement;
  for (const c of copy.querySelectorAll('.story-caret')) c.remove();
  const paragraphs = Array.from(copy.children).map((p) => (p.textContent ?? '').replace(/\u2060/g, '')).filter(Boolean);
  if (!want) return paragraphs;
  return want.has !== undefined ? paragraphs.join('\n').includes(want.has) : JSON.stringify(paragraphs) === JSON.stringify(want.equals);
}

describeInBrowser('live co-editing in the story editor', () => {
  let b: BrowserApp;
  let typeId: number;
  const errors: string[] = [];
  const people: Record<'ana' | 'ben' | 'cam', Person> = {} as never;

  beforeAll(async () => {
    b = await startBrowserApp();
    typeId = await createArticleType(b.t.ctx.db, 'news', 'News');
    const staff: Array<['ana' | 'ben' | 'cam', string, NewsroomRole]> = [
      ['ana', 'Ana Ruiz', 'editor'],
      ['ben', 'Ben Okafor', 'writer'],
      ['cam', 'Cam Leblanc', 'contributor'],
    ];
    for (const [key, name, role] of staff) {
      const m = await createMember(b.t.ctx, { email: `${key}@example.com`, password: PASSWORD, full_name: name, is_staff: true });
      await b.t.ctx.db('profiles').where({ id: m.id }).update({ newsroom_role: role });
      people[key] = { ...m, password: PASSWORD, name };
    }
  });
  afterAll(async () => {
    await b?.close();
  });
  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  const body = (page: Page) => page.locator('.story-body-editor');

  /** A page signed in as `who` on the story list. */
  async function signedIn(who: Person, viewport: { width: number; height: number }): Promise<Page> {
    const page = await newPageIn(b, viewport, errors);
    await logInAtPage(page, b.baseUrl, '/staff/stories/', who);
    return page;
  }

  /** The page's fetch, with the CSRF token, as the signed-in member. */
  const call = pageFetch;

  const doc = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });
  const paragraphsOf = (d: StoryDoc) => (d.content ?? []).map((n) => (n.content ?? []).map((c) => c.text ?? '').join('')).filter(Boolean);

  async function newStory(page: Page, name: string, first: string): Promise<number> {
    const res = await call<{ id: number }>(page, 'POST', '/api/v2/staff/stories/', { fields: { name, type_id: typeId, excerpt: 'A dek.', doc: doc(first) } });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** Opens the story's editor and waits until its body is bound to the shared document. */
  async function openLive(page: Page, id: number): Promise<void> {
    await page.goto(`${b.baseUrl}/staff/stories/${id}/`);
    await page.waitForFunction(() => document.querySelector('.story-body-editor')?.getAttribute('contenteditable') === 'true' && !document.querySelector('.story-body__live'));
  }

  /** The body's paragraphs as the writer reads them (the others' carets and names left out). */
  const shownParagraphs = (page: Page) => page.evaluate(readBody, undefined) as Promise<string[]>;

  const untilBody = (page: Page, want: { has?: string; equals?: string[] }) => page.waitForFunction(readBody, want, { timeout: 10_000 });

  /** Waits until the body, as the writer reads it, holds `text`. */
  async function showsText(page: Page, text: string): Promise<void> {
    try {
      await untilBody(page, { has: text });
    } catch (err) {
      throw new Error(`The body never showed “${text}”: ${JSON.stringify(await shownParagraphs(page))} (${(err as Error).message.split('\n')[0]})`);
    }
  }

  async function typeAtEnd(page: Page, text: string): Promise<void> {
    await body(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(text);
  }

  /**
   * A page whose network can be cut: the browser's offline, and its websockets too, which
   * Chromium's emulated offline leaves open (microsoft/playwright#4910): while cut, each
   * connection to the live socket is closed as it opens. Playwright routes websockets by
   * replacing the page's WebSocket, so the route is set before the page is opened.
   */
  async function cuttable(page: Page): Promise<(on: boolean) => Promise<void>> {
    let blocked = false;
    await page.context().routeWebSocket(/\/api\/v2\/staff\/live\/$/, (ws) => (blocked ? ws.close() : void ws.connectToServer()));
    return async (on) => {
      blocked = on;
      await page.context().setOffline(on);
    };
  }

  const statusIs = (page: Page, text: string) => page.waitForFunction((t) => document.querySelector('.story-save__status')?.textContent === t, text, { timeout: 20_000 });

  test('two people in one story: typing, names and carets live; offline typing merges on return and is what the server stores', async () => {
    const ben = await signedIn(people.ben, VIEWPORTS.desktop);
    const ana = await signedIn(people.ana, VIEWPORTS.mobile);
    const id = await newStory(ben, 'Streetcar diversions on King', 'The 504 leaves King Street this weekend.');
    const offline = await cuttable(ana);
    await openLive(ben, id);
    await openLive(ana, id);

    // Each sees the other's typing, their name in the list of who is in the story, and their caret.
    await typeAtEnd(ben, ' Shuttle buses run every five minutes.');
    await showsText(ana, 'Shuttle buses run every five minutes.');
    await typeAtEnd(ana, ' Expect crowds at Spadina.');
    await showsText(ben, 'Expect crowds at Spadina.');
    await ana.getByRole('list', { name: 'In this story now' }).getByText('Ben Okafor is editing').waitFor();
    await ben.getByRole('list', { name: 'In this story now' }).getByText('Ana Ruiz is editing').waitFor();
    await ana.locator('.story-caret__name', { hasText: 'Ben Okafor' }).waitFor();
    await ben.locator('.story-caret__name', { hasText: 'Ana Ruiz' }).waitFor();
    // The heartbeat's list is the fallback, not shown beside the live one.
    expect(await ana.getByText(/has this story open/).count()).toBe(0);
    await statusIs(ben, 'Saved');
    await ana.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ana, 'co-editing-375');
    await screenshot(ben, 'co-editing-1280');

    // Ana goes offline and types while Ben types at the top.
    await offline(true);
    await statusIs(ana, 'Offline — kept on this device');
    await typeAtEnd(ana, ' Typed on the subway, offline.');
    await body(ben).click();
    await ben.keyboard.press('Control+Home');
    await ben.keyboard.type('UPDATE: ');
    await showsText(ben, 'UPDATE: The 504');
    // Not through while she is offline.
    expect((await shownParagraphs(ben)).join(' ')).not.toContain('Typed on the subway');
    await ana.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ana, 'co-editing-offline-375');

    // Back online: no dialog, both bodies converge, and the server stores that body.
    await offline(false);
    await showsText(ben, 'Typed on the subway, offline.');
    await showsText(ana, 'UPDATE: The 504');
    const bens = await shownParagraphs(ben);
    await untilBody(ana, { equals: bens });
    expect(bens.join(' ')).toMatch(/^UPDATE: The 504 leaves King Street this weekend\. Shuttle buses run every five minutes\. Expect crowds at Spadina\. Typed on the subway, offline\.$/);
    expect(await ana.locator('[role=dialog], dialog[open]').count()).toBe(0);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const stored = await call<{ fields: { doc: StoryDoc } }>(ben, 'GET', `/api/v2/staff/stories/${id}/`);
      if (JSON.stringify(paragraphsOf(stored.body.fields.doc)) === JSON.stringify(bens)) break;
      if (Date.now() > deadline) throw new Error(`The server never stored the shared body: ${JSON.stringify(stored.body.fields.doc).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await statusIs(ana, 'Saved');
    await statusIs(ben, 'Saved');
    await ana.context().close();
    await ben.context().close();
  }, LONG);

  /** Selects the first occurrence of `text` in the page's body, as a mouse drag would. */
  const selectInBody = (page: Page, text: string) =>
    page.evaluate((text) => {
      const el = document.querySelector<HTMLElement>('.story-body-editor')!;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = (n.textContent ?? '').indexOf(text);
        if (i < 0) continue;
        el.focus();
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + text.length);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(range);
        return;
      }
      throw new Error(`No “${text}” in the body`);
    }, text);

  test('an editor comments on a passage and rewrites it; the writer sees it highlighted and resolves it; nothing of it is published', async () => {
    const NOTE = 'Which Friday? Give the date.';
    const ben = await signedIn(people.ben, VIEWPORTS.desktop);
    const ana = await signedIn(people.ana, VIEWPORTS.mobile);
    const id = await newStory(ben, 'Patio season on Ossington', 'Ossington patios open on Friday. Bring a sweater.');
    await openLive(ben, id);
    await openLive(ana, id);

    // Ana selects a passage (Ben sees her selection, so her editor has it) and comments on it.
    await selectInBody(ana, 'open on Friday');
    await ben.locator('.story-caret-selection', { hasText: 'open on Friday' }).first().waitFor();
    await ana.getByRole('toolbar', { name: 'Body formatting' }).getByRole('button', { name: 'Comment', exact: true }).click();
    await ana.getByLabel('Comment on the selected passage').fill(NOTE);
    await ana.getByRole('button', { name: 'Save comment' }).click();
    const anasOpen = ana.getByRole('list', { name: 'Open comments' });
    await anasOpen.getByText(NOTE).waitFor();

    // Ben sees the passage highlighted and the comment, live; a click on the highlight shows it.
    const mark = ben.locator('mark.story-comment-mark');
    await mark.waitFor();
    expect(await mark.textContent()).toBe('open on Friday');
    expect(await mark.getAttribute('title')).toBe(`Comment by Ana Ruiz: ${NOTE}`);
    const bens = ben.getByRole('list', { name: 'Open comments' }).getByRole('listitem', { name: 'Comment by Ana Ruiz' });
    await bens.getByText('“open on Friday”').waitFor();
    // Ben (a writer, not its author) may resolve it, not edit or delete it.
    expect([await bens.getByRole('button', { name: 'Delete' }).count(), await bens.getByRole('button', { name: 'Edit' }).count()]).toEqual([0, 0]);

    // Ana rewrites her comment; Ben sees the new words, in the list and on the passage.
    const EDITED = 'Which Friday? Give the date and the time.';
    await anasOpen.getByRole('button', { name: 'Edit' }).click();
    const field = ana.getByLabel('Your comment');
    expect(await field.inputValue()).toBe(NOTE);
    await field.fill(EDITED);
    await screenshot(ana, 'co-editing-comment-edit-375');
    await ana.getByRole('button', { name: 'Save comment' }).click();
    await anasOpen.getByText(EDITED).waitFor();
    await ana.waitForFunction(() => document.activeElement?.textContent === 'Edit');
    await bens.getByText(EDITED).waitFor();
    await ben.waitForFunction((t) => document.querySelector('mark.story-comment-mark')?.getAttribute('title') === t, `Comment by Ana Ruiz: ${EDITED}`);
    await mark.click();
    await ben.waitForFunction(() => document.activeElement?.matches('li.story-comment') === true);
    expect(await seriousA11yViolations(ben)).toEqual([]);
    await ana.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ana, 'co-editing-comment-375');
    await screenshot(ben, 'co-editing-comment-1280');

    // Ben resolves it: no highlight for either; Ana sees it resolved by him, folded.
    await bens.getByRole('button', { name: 'Resolve' }).click();
    await ana.getByText('Resolved (1)').click();
    await ana.getByRole('list', { name: 'Resolved comments' }).getByText('resolved by Ben Okafor').waitFor();
    await ana.getByRole('list', { name: 'Resolved comments' }).getByRole('button', { name: 'Reopen' }).waitFor();
    expect(await anasOpen.count()).toBe(0);
    await ana.waitForFunction(() => !document.querySelector('mark.story-comment-mark'));
    await ben.waitForFunction(() => !document.querySelector('mark.story-comment-mark'));

    // Published: the page has the passage and nothing of the comment.
    const published = await call<{ public_url: string }>(ana, 'POST', `/api/v2/staff/stories/${id}/publish/`, {});
    expect(published.status).toBe(200);
    const html = await (await fetch(new URL(published.body.public_url, b.baseUrl))).text();
    expect(html).toContain('Ossington patios open on Friday.');
    for (const trace of [NOTE, 'Which Friday', 'story-comment', 'data-comment-id', 'Resolved (']) expect(html).not.toContain(trace);
    await ana.context().close();
    await ben.context().close();
  }, LONG);

  test('a contributor gets no document of another’s story; their editor says it cannot be edited live and saves as before', async () => {
    const ben = await signedIn(people.ben, VIEWPORTS.desktop);
    const bens = await newStory(ben, 'Ben’s story', 'Not for contributors.');
    await ben.context().close();
    const cam = await signedIn(people.cam, VIEWPORTS.desktop);

    // Straight at the socket: refused, and no sync or awareness message comes first.
    const answer = await probeLiveDocument(cam, liveDocumentName(bens));
    expect(answer.denied).toBe(true);
    expect(answer.types.filter((t) => t === 0 || t === 1)).toEqual([]);

    // Cam's own story is live until it becomes an editor's (reassigned); the next connection is refused.
    const own = await newStory(cam, 'Cam’s story', 'A contributor’s first draft.');
    await openLive(cam, own);
    await b.t.ctx.db('articles').where({ id: own }).update({ author_id: people.ana.id });
    await cam.context().setOffline(true);
    await statusIs(cam, 'Offline — kept on this device');
    await cam.context().setOffline(false);
    await cam.getByText('This story cannot be edited live: you may not join it. Your changes are saved as before.').waitFor();
    expect(await body(cam).getAttribute('contenteditable')).toBe('true');
    // Comments are the shared document's: none without it.
    await cam.getByText('Comments need the live connection.').waitFor();
    expect(await cam.getByRole('button', { name: 'Comment', exact: true }).count()).toBe(0);
    expect(await shownParagraphs(cam)).toEqual(['A contributor’s first draft.']);
    await cam.context().close();
  }, LONG);
});
