import crypto from 'node:crypto';
import { probeLiveDocument } from '../browser/live-probe';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { DbHandle } from '../../server/db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { startTcpProxy, type TcpProxy } from '../../server/testing/tcp-proxy';
import { createArticleType } from '../../server/testing/fixtures';
import { liveDocumentName, type NewsroomRole, type StoryDoc } from '../../shared/newsroom';
import { CHROMIUM_ARGS, CHROMIUM_PATH, describeInBrowser } from '../browser/chromium';
import { pageFetch, screenshot, VIEWPORTS } from '../browser/browser-app';
import { signUp, startServerProcess, type ServerProcess } from './server-process';

// Live co-editing (issue 42) across two server processes on one PostgreSQL database, in a real
// browser: three editors in one story, two on process A and one on B, whose edits reach each
// other only through the database's relay (LISTEN/NOTIFY). They type in one paragraph at once;
// one goes offline for 30 s while the others type; A is stopped with SIGTERM and started again
// while its editors type on, then killed with SIGKILL and started again. Every time, all three
// bodies converge, nothing typed is lost, and the story stores that body. A contributor gets nothing of another writer's story.
//
// A is reached through a TCP proxy, as a deployment's balancer: the browser's address for A stays
// while A's process is replaced (the new one comes up on a port of its own; the proxy is pointed
// at it). SITE_URL is the address the browser uses, so the live socket's Origin check passes.
// Plain HTTP in development mode: production's cookies are Secure, which http:// would not send.
// Needs built islands (`npm run build`). One browser and one pair of processes for the file.

const LONG = 240_000;
/** Bound for every editor to show what another typed (a relay through PostgreSQL on a busy machine). */
const CONVERGE_MS = 30_000;
const OFFLINE_MS = 30_000;
/** Between keys: a quick typist's pace, so others' changes arrive while each line is typed. */
const KEY_MS = 80;

type Key = 'ana' | 'ben' | 'dee' | 'cam';

interface Editor {
  page: Page;
  /** Cuts (true) or restores (false) the page's network, its live socket included. */
  offline(on: boolean): Promise<void>;
}

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

interface CaretWant {
  first?: boolean;
  last?: boolean;
  before?: string;
  after?: string;
}

/** In the page: whether the caret is where `want` says (see untilCaret). */
function caretIs(want: CaretWant): boolean {
  const sel = window.getSelection();
  const editor = document.querySelector('.story-body-editor');
  if (!sel?.anchorNode || !sel.isCollapsed || !editor) return false;
  const paragraphs = Array.from(editor.children);
  const at = paragraphs.findIndex((p) => p.contains(sel.anchorNode));
  if (at < 0) return false;
  const text = (from: [Node, number], to: [Node, number]) => {
    const range = document.createRange();
    range.setStart(...from);
    range.setEnd(...to);
    const copy = range.cloneContents();
    for (const c of copy.querySelectorAll('.story-caret')) c.remove();
    return (copy.textContent ?? '').replace(/\u2060/g, '');
  };
  const p = paragraphs[at];
  const caret: [Node, number] = [sel.anchorNode, sel.anchorOffset];
  return (
    (!want.first || at === 0) &&
    (!want.last || at === paragraphs.length - 1) &&
    (want.before === undefined || text([p, 0], caret) === want.before) &&
    (want.after === undefined || text(caret, [p, p.childNodes.length]) === want.after)
  );
}

const shownParagraphs = (page: Page) => page.evaluate(readBody, undefined) as Promise<string[]>;
const doc = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });
const paragraphsOf = (d: StoryDoc) => (d.content ?? []).map((n) => (n.content ?? []).map((c) => c.text ?? '').join('')).filter(Boolean);
const sorted = (xs: string[]) => [...xs].sort();

describeInBrowser('live co-editing across two server processes', () => {
  let handle: DbHandle;
  let databaseUrl: string;
  let env: Record<string, string>;
  let balancerA: TcpProxy;
  /** Where the proxy sends A's connections: read at each new connection, so changing it re-points A. */
  const upstreamA = { host: '127.0.0.1', port: 0 };
  let processA: ServerProcess;
  let processB: ServerProcess;
  let urlA: string;
  let urlB: string;
  let browser: Browser;
  let typeId: number;
  const errors: string[] = [];
  const people = {} as Record<Key, { id: number; name: string; cookie: string }>;
  const editors = {} as Record<'ana' | 'ben' | 'dee', Editor>;
  let storyId: number;

  const processLogs = () => `A:\n${processA?.output() ?? ''}\nB:\n${processB?.output() ?? ''}`;

  beforeAll(async () => {
    handle = await openTestDatabase();
    const database = (await handle.db.raw('select current_database() as name')).rows[0].name as string;
    databaseUrl = withDatabase(testDatabaseUrl()!, database);
    balancerA = await startTcpProxy(upstreamA);
    urlA = `http://127.0.0.1:${balancerA.port}`;
    // One session secret: a cookie is read by both processes, as in a deployment.
    env = { SESSION_SECRET: crypto.randomBytes(48).toString('base64url') };
    processA = await startServerProcess({ databaseUrl, env: { ...env, SITE_URL: urlA } });
    upstreamA.port = processA.port;
    // B is reached at its own address; with SITE_URL unset, that address is a trusted origin.
    processB = await startServerProcess({ databaseUrl, env });
    urlB = `http://127.0.0.1:${processB.port}`;
    typeId = await createArticleType(handle.db, 'news', 'News');
    const staff: Array<[Key, string, NewsroomRole]> = [
      ['ana', 'Ana Ruiz', 'editor'],
      ['ben', 'Ben Okafor', 'writer'],
      ['dee', 'Dee Tran', 'editor'],
      ['cam', 'Cam Leblanc', 'contributor'],
    ];
    for (const [key, name, role] of staff) {
      const { cookie, email } = await signUp(processB.port);
      const { id } = await handle.db('profiles').where({ email }).first('id');
      await handle.db('profiles').where({ id }).update({ full_name: name, is_staff: true, newsroom_role: role });
      people[key] = { id, name, cookie };
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([processA?.dispose(), processB?.dispose()]);
    await balancerA?.close();
    await handle?.close();
  });

  afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });

  /**
   * A page of its own context, signed in as `who` (their session cookie, valid on both processes),
   * whose network can be cut: the browser's offline, and its websockets too, which Chromium's
   * emulated offline leaves open (microsoft/playwright#4910): while cut, each connection to the
   * live socket is closed as it opens. The route is set before the page opens (Playwright routes
   * websockets by replacing the page's WebSocket).
   */
  async function editorFor(who: Key, viewport: { width: number; height: number }): Promise<Editor> {
    const context = await browser.newContext({ viewport });
    await context.addCookies(
      people[who].cookie.split('; ').map((c) => {
        const [name, ...value] = c.split('=');
        return { name, value: value.join('='), domain: '127.0.0.1', path: '/' };
      }),
    );
    let blocked = false;
    await context.routeWebSocket(/\/api\/v2\/staff\/live\/$/, (ws) => (blocked ? ws.close() : void ws.connectToServer()));
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
    return {
      page,
      async offline(on) {
        blocked = on;
        await context.setOffline(on);
      },
    };
  }

  /** The page's fetch, with the CSRF token, as the signed-in member. */
  const call = pageFetch;

  /** Opens the story's editor at `base` and waits until its body is bound to the shared document. */
  async function openLive(page: Page, base: string, id: number): Promise<void> {
    await page.goto(`${base}/staff/stories/${id}/`);
    await page.waitForFunction(() => document.querySelector('.story-body-editor')?.getAttribute('contenteditable') === 'true' && !document.querySelector('.story-body__live'));
  }

  const body = (page: Page) => page.locator('.story-body-editor');
  const all = () => [editors.ana.page, editors.ben.page, editors.dee.page];

  /** Waits until the body, as the writer reads it, holds `text` (or is exactly `equals`). */
  async function untilBody(page: Page, want: { has?: string; equals?: string[] }): Promise<void> {
    try {
      await page.waitForFunction(readBody, want, { timeout: CONVERGE_MS, polling: 100 });
    } catch (err) {
      throw new Error(`The body never became ${JSON.stringify(want)}: ${JSON.stringify(await shownParagraphs(page))} (${(err as Error).message.split('\n')[0]})\n${processLogs().slice(-3000)}`);
    }
  }

  /**
   * Waits until the three editors show the same body, answers it, and waits until the story
   * stores it too (the server writes the body ~2 s after the last change).
   */
  async function converged(): Promise<string[]> {
    const deadline = Date.now() + CONVERGE_MS;
    let shown: string[][] = [];
    for (;;) {
      shown = await Promise.all(all().map(shownParagraphs));
      if (shown.every((s) => JSON.stringify(s) === JSON.stringify(shown[0]))) break;
      if (Date.now() > deadline) throw new Error(`The editors never showed one body:\n${shown.map((s) => JSON.stringify(s)).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const agreed = shown[0];
    // Asked of B: both processes read the one database.
    for (;;) {
      const stored = await call<{ fields: { doc: StoryDoc } }>(editors.dee.page, 'GET', `/api/v2/staff/stories/${storyId}/`);
      if (JSON.stringify(paragraphsOf(stored.body.fields.doc)) === JSON.stringify(agreed)) return agreed;
      if (Date.now() > deadline + CONVERGE_MS) throw new Error(`The story never stored the shared body ${JSON.stringify(agreed)}: ${JSON.stringify(stored.body.fields.doc).slice(0, 800)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Waits until the page's caret is where `want` says (its paragraph's text before and after it, without the others' carets). */
  async function untilCaret(page: Page, want: CaretWant): Promise<void> {
    try {
      await page.waitForFunction(caretIs, want, { timeout: 10_000, polling: 50 });
    } catch (err) {
      throw new Error(`The caret never came to ${JSON.stringify(want)} (${(err as Error).message.split('\n')[0]})`);
    }
  }

  /**
   * Focuses the body (not a click: ProseMirror puts the DOM caret back where a click left it a
   * moment later, undoing a key pressed at once), presses `key` and waits for the caret to be there.
   */
  async function caretTo(page: Page, key: string, want: CaretWant): Promise<void> {
    // Pressed again while the caret is elsewhere: another editor's change redrawn at that moment
    // (their caret, their text) can leave the DOM caret where it was on a busy machine.
    const deadline = Date.now() + 20_000;
    for (;;) {
      await body(page).focus();
      await page.keyboard.press(key);
      try {
        await page.waitForFunction(caretIs, want, { timeout: 2_000, polling: 50 });
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`The caret never came to ${JSON.stringify(want)} (${(err as Error).message.split('\n')[0]})`);
      }
    }
  }

  /**
   * Types `text` in a new paragraph at the end of the body, or at its top. (Two editors pressing
   * Enter at one place at the same moment get one paragraph with their keys interleaved: the
   * rounds below have them type at different places.)
   */
  async function newParagraph(page: Page, text: string, where: 'end' | 'top' = 'end'): Promise<void> {
    if (where === 'end') {
      await caretTo(page, 'Control+End', { last: true, after: '' });
      await page.keyboard.press('Enter');
      await page.keyboard.type(text, { delay: KEY_MS });
    } else {
      await caretTo(page, 'Control+Home', { first: true, before: '' });
      await page.keyboard.type(text, { delay: KEY_MS });
      await page.keyboard.press('Enter');
    }
  }

  /** Lines typed in new paragraphs (newParagraph), kept in the order typed. */
  function typingLog(): { typed: string[]; type(page: Page, line: string, where: 'end' | 'top'): Promise<void> } {
    const typed: string[] = [];
    return {
      typed,
      async type(page, line, where) {
        await newParagraph(page, line, where);
        typed.push(line);
      },
    };
  }

  test('three editors on two processes type in one paragraph at once: every editor converges on one body, which the story stores', async () => {
    editors.ben = await editorFor('ben', VIEWPORTS.desktop);
    editors.ana = await editorFor('ana', VIEWPORTS.mobile);
    editors.dee = await editorFor('dee', VIEWPORTS.desktop);
    await editors.ben.page.goto(`${urlA}/staff/stories/`);
    const first = 'The ferry to Centre Island runs again on Saturday.';
    const created = await call<{ id: number }>(editors.ben.page, 'POST', '/api/v2/staff/stories/', { fields: { name: 'Island ferries return', type_id: typeId, excerpt: 'A dek.', doc: doc(first) } });
    expect(created.status).toBe(201);
    storyId = created.body.id;
    await Promise.all([openLive(editors.ben.page, urlA, storyId), openLive(editors.ana.page, urlA, storyId), openLive(editors.dee.page, urlB, storyId)]);

    // Carets placed first, in one paragraph: Ben at its start, Dee after "Centre Island", Ana at its end.
    const { ben, ana, dee } = { ben: editors.ben.page, ana: editors.ana.page, dee: editors.dee.page };
    await caretTo(ben, 'Control+Home', { first: true, before: '' });
    await caretTo(dee, 'Control+Home', { first: true, before: '' });
    for (let i = 0; i < 'The ferry to Centre Island'.length; i++) await dee.keyboard.press('ArrowRight');
    await caretTo(ana, 'Control+End', { last: true, after: '' });
    await untilCaret(dee, { before: 'The ferry to Centre Island' });
    await untilCaret(ben, { before: '' });
    // All three at once, a key every 40 ms: the others' keys arrive while each types.
    await Promise.all([ben.keyboard.type('UPDATE: ', { delay: 40 }), dee.keyboard.type(' and Hanlan Point', { delay: 40 }), ana.keyboard.type(' Expect lines at the Jack Layton terminal.', { delay: 40 })]);

    const expected = ['UPDATE: The ferry to Centre Island and Hanlan Point runs again on Saturday. Expect lines at the Jack Layton terminal.'];
    await Promise.all(all().map((p) => untilBody(p, { equals: expected })));
    expect(await converged()).toEqual(expected);
    // On one process, each sees the other in the story and their caret.
    await ben.getByRole('list', { name: 'In this story now' }).getByText('Ana Ruiz is editing').waitFor();
    await ana.getByRole('list', { name: 'In this story now' }).getByText('Ben Okafor is editing').waitFor();
    await ben.locator('.story-caret__name', { hasText: 'Ana Ruiz' }).waitFor();
  }, LONG);

  // Awareness (who is in the story, carets) is relayed between processes as the document is.
  test('editors on different processes see each other in the story and each other’s carets', async () => {
    const { ben, dee } = { ben: editors.ben.page, dee: editors.dee.page };
    const seen = { timeout: 10_000 };
    await dee.getByRole('list', { name: 'In this story now' }).getByText('Ben Okafor is editing').waitFor(seen);
    await ben.getByRole('list', { name: 'In this story now' }).getByText('Dee Tran is editing').waitFor(seen);
    await dee.locator('.story-caret__name', { hasText: 'Ben Okafor' }).waitFor(seen);
  }, LONG);

  test('an editor offline for 30 s while the others type: back online, all three converge and nothing is lost', async () => {
    const { ben, ana, dee } = { ben: editors.ben.page, ana: editors.ana.page, dee: editors.dee.page };
    const before = await shownParagraphs(ben);
    const typed: string[] = [];
    await editors.ana.offline(true);
    await ana.waitForFunction(() => document.querySelector('.story-save__status')?.textContent === 'Offline — kept on this device');
    const t0 = Date.now();
    await newParagraph(ana, 'Ana offline, first.');
    typed.push('Ana offline, first.');
    // Ben (A, at the end) and Dee (B, at the top) type at once, round after round, each waiting to
    // see the other's, until 30 s have passed.
    for (let round = 1; Date.now() - t0 < OFFLINE_MS; round++) {
      const lines = [`Ben round ${round} on A.`, `Dee round ${round} on B.`];
      await Promise.all([newParagraph(ben, lines[0]), newParagraph(dee, lines[1], 'top')]);
      typed.push(...lines);
      await Promise.all([untilBody(ben, { has: lines[1] }), untilBody(dee, { has: lines[0] })]);
      if (round === 2) {
        await newParagraph(ana, 'Ana offline, second.');
        typed.push('Ana offline, second.');
      }
    }
    // Nothing crossed while she was offline.
    expect((await shownParagraphs(ana)).join('\n')).not.toContain('round 1');
    expect((await shownParagraphs(dee)).join('\n')).not.toContain('Ana offline');
    await ana.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ana, 'co-editing-processes-offline-375');

    await editors.ana.offline(false);
    const after = await converged();
    expect(sorted(after)).toEqual(sorted([...before, ...typed]));
    expect(await ana.locator('[role=dialog], dialog[open]').count()).toBe(0);
  }, LONG);

  test('process A restarted mid-session: its editors type through the outage, reconnect, and nothing is lost', async () => {
    const { ben, ana, dee } = { ben: editors.ben.page, ana: editors.ana.page, dee: editors.dee.page };
    const before = await shownParagraphs(ben);
    const { typed, type } = typingLog();

    // SIGTERM while Ben (A) and Dee (B) type: A stores the bodies it has and closes its editors' sockets.
    processA.child.kill('SIGTERM');
    await Promise.all([type(ben, 'Ben as A stops.', 'end'), type(dee, 'Dee as A stops.', 'top')]);
    expect(await processA.exited).toBe(0);
    // A is gone: its editors type on (neither hears the other now); nothing of theirs reaches B.
    await Promise.all([type(ben, 'Ben while A is down.', 'end'), type(ana, 'Ana while A is down.', 'end'), type(dee, 'Dee while A is down.', 'top')]);
    const old = processA;
    processA = await startServerProcess({ databaseUrl, env: { ...env, SITE_URL: urlA } });
    await old.dispose();
    const deeSaw = await shownParagraphs(dee);
    expect([deeSaw.includes('Ben while A is down.'), deeSaw.includes('Ana while A is down.')]).toEqual([false, false]);
    upstreamA.port = processA.port;

    const after = await converged();
    expect(sorted(after)).toEqual(sorted([...before, ...typed]));

    await ana.evaluate(() => window.scrollTo(0, 0));
    await screenshot(ana, 'co-editing-processes-ana-375');
    await screenshot(ben, 'co-editing-processes-ben-1280');
    await screenshot(dee, 'co-editing-processes-dee-1280');
  }, LONG);

  test('process A killed (SIGKILL) mid-session: nothing stored is lost, and what it never stored its editors send again', async () => {
    const { ben, ana, dee } = { ben: editors.ben.page, ana: editors.ana.page, dee: editors.dee.page };
    const before = await shownParagraphs(ben);
    const { typed, type } = typingLog();

    // A line of Ben's (on A) that Dee (on B) has seen: A stored it, as it stores every update it applies.
    await type(ben, 'Ben before the kill.', 'end');
    await untilBody(dee, { has: 'Ben before the kill.' });
    // Killed while Ben (A) and Dee (B) type: A stores nothing more and closes nothing.
    const typing = Promise.all([type(ben, 'Ben as A is killed.', 'end'), type(dee, 'Dee as A is killed.', 'top')]);
    await untilBody(ben, { has: 'Ben as' });
    processA.child.kill('SIGKILL');
    await typing;
    expect(await processA.exited).toBeNull();
    await Promise.all([type(ben, 'Ben while A is dead.', 'end'), type(ana, 'Ana while A is dead.', 'end'), type(dee, 'Dee while A is dead.', 'top')]);
    const old = processA;
    processA = await startServerProcess({ databaseUrl, env: { ...env, SITE_URL: urlA } });
    await old.dispose();
    upstreamA.port = processA.port;

    const after = await converged();
    expect(sorted(after)).toEqual(sorted([...before, ...typed]));
  }, LONG);

  test('a contributor gets no document of another writer’s story, and their editor says it cannot be edited live', async () => {
    const cam = await editorFor('cam', VIEWPORTS.desktop);
    await cam.page.goto(`${urlB}/staff/stories/`);

    // Straight at B's socket, for Ben's story (open on both processes): refused, and no sync or awareness message comes first.
    const answer = await probeLiveDocument(cam.page, liveDocumentName(storyId));
    expect(answer.denied).toBe(true);
    expect(answer.types.filter((t) => t === 0 || t === 1)).toEqual([]);

    // Cam's own story, live on B, becomes an editor's; the editor's next connection is refused and it says so.
    const own = await call<{ id: number }>(cam.page, 'POST', '/api/v2/staff/stories/', { fields: { name: 'Cam’s story', type_id: typeId, excerpt: 'A dek.', doc: doc('A contributor’s first draft.') } });
    expect(own.status).toBe(201);
    await openLive(cam.page, urlB, own.body.id);
    await handle.db('articles').where({ id: own.body.id }).update({ author_id: people.ana.id });
    await cam.page.context().setOffline(true);
    await cam.page.waitForFunction(() => document.querySelector('.story-save__status')?.textContent === 'Offline — kept on this device');
    await cam.page.context().setOffline(false);
    await cam.page.getByText('This story cannot be edited live: you may not join it. Your changes are saved as before.').waitFor();
    expect(await shownParagraphs(cam.page)).toEqual(['A contributor’s first draft.']);
    await cam.page.context().close();
  }, LONG);
});
