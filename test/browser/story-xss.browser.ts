import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { BrowserContext, Page } from 'playwright-core';
import { describeInBrowser } from './chromium';
import { startBrowserApp, VIEWPORTS, type BrowserApp } from './browser-app';
import { createMember, memberAgent, memberSessionCookie, type Agent, type MemberFixture } from '../../server/testing/test-app';
import { createArticleType, createListing, createListingType } from '../../server/testing/fixtures';
import { waitFor } from '../../server/testing/wait-for';
import { storyFieldsSchema } from '../../server/apps/newsroom/schemas';
import { renderStoryDoc } from '../../server/apps/articles/story-render';
import { storyDocError, type StoryDoc, type StoryNode } from '../../shared/newsroom';
import {
  executableMarkupProblems,
  pageBaseline,
  payloadDocPlaces,
  PAYLOAD_TEXT_FIELDS,
  SAFE_FIELD_VALUES,
  SAFE_KEY,
  SAFE_VIDEO,
  XSS_PAYLOADS,
  type PayloadTextField,
} from '../../server/apps/newsroom/test-xss-corpus';

// The XSS corpus (server/apps/newsroom/test-xss-corpus.ts) in a real browser (issue 37): ONE
// story holding every payload in every place the schema lets it stand, published by an editor
// over its checks, loaded once at 1280 px and scrolled, with a sentinel installed before any
// script of the page: payloads call window.__xss.push(...), and alert/prompt/confirm push
// 'dialog'. Nothing may have run, no inline script may have been blocked by the CSP (which
// would mean markup got through and only the policy stopped it), and nothing may have been
// fetched from evil.example. Then a paste of hostile HTML into the story editor's body, saved
// by its autosave, must come back from the API as a valid document that renders harmlessly.

const EDITOR_ENTRY = path.resolve(__dirname, '..', '..', 'islands', 'story-editor', 'main.tsx');
const MANIFEST = path.resolve(__dirname, '..', '..', 'static', 'dist', '.vite', 'manifest.json');

interface Sentinel {
  xss: unknown[];
  csp: Array<{ directive: string; blocked: string; sample: string; source: string; element: string }>;
}

/** Before any page script: the sentinel, the dialogs, and CSP reports. */
async function installSentinel(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __xss: unknown[]; __csp: Sentinel['csp'] };
    w.__xss = [];
    w.__csp = [];
    const dialog = () => {
      w.__xss.push('dialog');
      return null;
    };
    window.alert = dialog as typeof window.alert;
    window.prompt = dialog as typeof window.prompt;
    window.confirm = (() => Boolean(dialog())) as typeof window.confirm;
    document.addEventListener('securitypolicyviolation', (e) => {
      // Where: the script that made the element, and the element (an inline handler's violation targets it).
      const target = e.target instanceof Element ? e.target.outerHTML.slice(0, 160) : String(e.target && (e.target as Node).nodeName);
      w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`, element: target });
    });
  });
}

async function sentinel(page: Page): Promise<Sentinel> {
  return page.evaluate(() => {
    const w = window as unknown as { __xss: unknown[]; __csp: Sentinel['csp'] };
    return { xss: w.__xss, csp: w.__csp };
  });
}

/** Scrolls to the bottom a screen at a time, each time waiting for the pictures on screen to settle. */
async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 700) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForFunction(() => [...document.images].filter((i) => i.getBoundingClientRect().top < window.innerHeight && i.loading !== 'lazy').every((i) => i.complete));
  }
  await page.waitForFunction(() => [...document.images].every((i) => i.loading === 'lazy' || i.complete));
  // Over the story once with the mouse, for handlers that want a pointer.
  const box = await page.locator('.article-body').boundingBox();
  if (box) for (let k = 0; k <= 10; k++) await page.mouse.move(box.x + box.width / 2, box.y + (box.height * k) / 10);
}

/** What each text field can hold of the corpus: as many payloads as its rule accepts, a different run for each field. */
function fieldValues(): Record<PayloadTextField, string> {
  const out = { ...SAFE_FIELD_VALUES };
  PAYLOAD_TEXT_FIELDS.forEach((f, i) => {
    let value = '';
    for (let k = 0; k < XSS_PAYLOADS.length; k++) {
      const next = value + XSS_PAYLOADS[(i * 7 + k) % XSS_PAYLOADS.length].payload;
      if (storyFieldsSchema.safeParse({ [f]: next }).success) value = next;
    }
    if (value) out[f] = value;
  });
  return out;
}

describeInBrowser('the XSS corpus in a browser', () => {
  let b: BrowserApp;
  let editor: Agent;
  let member: MemberFixture;
  let typeId: number;
  let placeId: number;

  const api = {
    get: (p: string) => editor.get(`/api/v2/staff/${p}`),
    post: (p: string, body: object = {}) => editor.post(`/api/v2/staff/${p}`).set('X-CSRFToken', editor.csrfToken).send(body),
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    member = await createMember(b.t.ctx, { full_name: 'Xss Editor', email: 'xss-browser@example.com' });
    await b.t.ctx.db('profiles').where({ id: member.id }).update({ newsroom_role: 'editor' });
    editor = await memberAgent(b.t, member);
    typeId = await createArticleType(b.t.ctx.db, 'food', 'Food');
    const lt = await createListingType(b.t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    placeId = await createListing(b.t.ctx.db, { name: 'Safe Place Diner', type_id: lt });
  }, 60_000);
  afterAll(() => b?.close());

  /** A browser context at 1280 px with the sentinel, that fetches nothing from other sites (and says what it tried). */
  async function guardedContext(opts: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; elsewhere: string[] }> {
    const context = await b.browser.newContext({ viewport: VIEWPORTS.desktop, bypassCSP: opts.bypassCSP ?? false });
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(b.baseUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    await installSentinel(context);
    return { context, elsewhere };
  }

  test('one story with every payload everywhere: nothing runs, nothing is blocked inline, nothing loads from elsewhere', async () => {
    const intro: StoryNode = { type: 'paragraph', content: [{ type: 'text', text: 'An ordinary first paragraph.' }] };
    const nodes: StoryNode[] = [intro];
    let placed = 0;
    for (const x of XSS_PAYLOADS) {
      for (const pl of payloadDocPlaces(x.payload, { placeId })) {
        if (storyDocError({ type: 'doc', content: pl.nodes }) === null) {
          nodes.push(...pl.nodes);
          placed += 1;
        }
      }
    }
    expect(placed).toBeGreaterThan(XSS_PAYLOADS.length * 8);
    const fields = fieldValues();
    // NUL cannot be stored: the API refuses it whole (server/apps/newsroom/xss.test.ts).
    const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll('\\u0000', ''));
    const created = await api.post('stories/', { fields: strip({ ...fields, type_id: typeId, is_sponsored: true, doc: { type: 'doc', content: nodes } }) as object });
    expect({ status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ status: 201, body: null });
    const pub = await api.post(`stories/${created.body.id}/publish/`, { override_reason: 'XSS corpus in a browser' }).expect(200);

    // A safe story of the same shape, for what the page's own scripts and elements are.
    const safe = await api.post('stories/', { fields: { ...SAFE_FIELD_VALUES, canonical_url: 'https://example.com/safe/', type_id: await createArticleType(b.t.ctx.db, 'safe', 'Safe'), is_sponsored: true, doc: { type: 'doc', content: [intro, ...payloadDocPlaces('Safe words', { placeId }).filter((pl) => !pl.checked).flatMap((pl) => pl.nodes), { type: 'image', attrs: { key: SAFE_KEY, alt: 'a', credit: 'c' } }, { type: 'youtube', attrs: { videoId: SAFE_VIDEO } }] } } }).expect(201);
    const safePub = await api.post(`stories/${safe.body.id}/publish/`, { override_reason: 'baseline' }).expect(200);
    const baseline = pageBaseline((await request(b.t.app).get(safePub.body.path).expect(200)).text);
    const served = (await request(b.t.app).get(pub.body.path).expect(200)).text;
    expect(executableMarkupProblems(served, baseline, b.baseUrl)).toEqual([]);

    const { context, elsewhere } = await guardedContext();
    const dialogs: string[] = [];
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      const res = await page.goto(b.baseUrl + pub.body.path, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      await scrollThrough(page);
      // The story is there, payloads as text.
      expect(await page.locator('.article-body p').count()).toBeGreaterThan(XSS_PAYLOADS.length);
      const s = await sentinel(page);
      expect(s.xss).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(s.csp.filter((v) => /script|inline|eval/i.test(`${v.directive} ${v.blocked} ${v.sample}`))).toEqual([]);
      expect(elsewhere.filter((u) => u.includes('evil.example'))).toEqual([]);
      // Only YouTube's player may be asked for from elsewhere (and is not fetched here).
      expect(elsewhere.filter((u) => !u.startsWith('https://www.youtube-nocookie.com/embed/'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  // The story editor (islands/story-editor/, being built in the same issue): hostile HTML pasted
  // into its body is cleaned by the editor's schema, saved by autosave, and the API's copy is a
  // valid document whose HTML runs nothing.
  test('a hostile paste into the story editor is saved as a valid document that renders harmlessly', async () => {
    const built = fs.existsSync(MANIFEST) && (JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, unknown>)['islands/story-editor/main.tsx'] !== undefined;
    if (!fs.existsSync(EDITOR_ENTRY) || !built) {
      console.warn(`NOT RUN: the story editor paste test needs islands/story-editor/main.tsx built into ${MANIFEST} (npm run build:islands).`);
      return;
    }
    const story = await api.post('stories/', { fields: { name: 'Paste story', type_id: typeId, doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Before the paste.' }] }] } } }).expect(201);
    const marker = 'PASTED-WORDS-37';
    const html = [
      `<meta charset="utf-8"><p>${marker} <b>bold</b> <a href="javascript:window.__xss.push('paste-link')">js link</a> <a href="https://example.com/ok" onclick="window.__xss.push('paste-onclick')">ok link</a></p>`,
      `<script>window.__xss.push('paste-script')</script>`,
      `<img src="x" onerror="window.__xss.push('paste-img')">`,
      `<svg onload="window.__xss.push('paste-svg')"><circle r="5"></circle></svg>`,
      `<iframe src="https://evil.example/"></iframe>`,
      `<p style="background:url(javascript:window.__xss.push('paste-style'))" onmouseover="window.__xss.push('paste-hover')">styled</p>`,
      `<table><tr><td onclick="window.__xss.push('paste-td')">cell</td></tr></table>`,
      `<a href="data:text/html,<script>window.__xss.push('paste-data')</script>">data link</a>`,
      `<details open ontoggle="window.__xss.push('paste-toggle')"><summary>s</summary></details>`,
    ].join('');

    // Without the CSP: chromium checks an inline handler against the policy when it parses one,
    // in any document of the page, inert or not, so the paste cleaner's DOMParser (which never
    // runs anything) would file a violation per handler pasted, and a handler that did reach a
    // live element would be blocked rather than seen. With the policy off, the sentinel shows
    // what would run if the policy were ever loosened.
    const { context, elsewhere } = await guardedContext({ bypassCSP: true });
    const [name, value] = (await memberSessionCookie(b.t, member)).split('=');
    await context.addCookies([{ name, value, url: b.baseUrl }]);
    const page = await context.newPage();
    try {
      await page.goto(`${b.baseUrl}/staff/stories/${story.body.id}/`, { waitUntil: 'load' });
      const body = page.locator('.ProseMirror');
      await body.waitFor({ state: 'visible' });
      await body.click();
      await page.keyboard.press('End');
      await body.evaluate((el, pasted) => {
        const data = new DataTransfer();
        data.setData('text/html', pasted);
        data.setData('text/plain', 'PASTED-WORDS-37 bold js link ok link');
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, html);
      await page.waitForFunction((m) => document.querySelector('.ProseMirror')?.textContent?.includes(m), marker);
      // Autosave: the server's copy gets the pasted words.
      let saved: StoryDoc | null = null;
      await waitFor('the autosave of the pasted words', async () => {
        const res = await api.get(`stories/${story.body.id}/`).expect(200);
        if (JSON.stringify(res.body.fields.doc).includes(marker)) saved = res.body.fields.doc as StoryDoc;
        return saved !== null;
      }, 30_000);
      if (!saved) throw new Error('not saved');
      expect(storyDocError(saved)).toBeNull();
      const rendered = renderStoryDoc(saved).html;
      expect(rendered).toContain(marker);
      // The rendered body in a page of the same shape as any other: nothing executable.
      const baselineHtml = '<!doctype html><html><head></head><body><div class="article-body"></div></body></html>';
      expect(executableMarkupProblems(`<!doctype html><html><head></head><body><div class="article-body">${rendered}</div></body></html>`, pageBaseline(baselineHtml), b.baseUrl)).toEqual([]);
      // Over the body with the mouse, for handlers that want a pointer; then nothing has run.
      const box = await body.boundingBox();
      if (box) for (let k = 0; k <= 5; k++) await page.mouse.move(box.x + box.width / 2, box.y + (box.height * k) / 5);
      expect((await sentinel(page)).xss).toEqual([]);
      expect(elsewhere.filter((u) => u.includes('evil.example'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
