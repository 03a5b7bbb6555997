// npm run bench:inp: Interaction to Next Paint of the taps issue 41 names (target 2: "every tap
// within 100 ms"), each 10 times, in Debian's chromium at 375 px (a phone) with the CPU slowed
// 4x (CDP Emulation.setCPUThrottlingRate).
//
// Builds nothing itself: `npm run build` (or at least `npm run build:islands`) must have run;
// it runs build:islands only when static/dist has no manifest. Starts the server in production
// mode in its own process (scripts/bench/bench-server.ts) on the demo seed: a fresh embedded
// database seeded for this run (`npm run seed`, about 30 s), the PGlite directory INP_DATA_DIR
// already seeded, or a scratch database `bench_inp_<pid>` made and seeded on the PostgreSQL
// server of INP_DATABASE_URL (dropped afterwards).
//
// Measured in the page with the Event Timing API, INP's own definition: a PerformanceObserver
// of type 'event' (durationThreshold 16, the smallest the API allows) keeps the entries with an
// interactionId; an interaction's duration is its longest entry's (from the input's timestamp
// to the next paint after its handlers). A rep's figure is its longest interaction (a typed word
// is one rep of several keystrokes); a rep whose interactions all stayed under 16 ms reports no
// entry and counts as "< 16" (performance.interactionCount shows the tap was seen). A
// 'longtask' observer records the main thread's tasks over 50 ms: "blocks the frame" is a long
// task overlapping the interaction (input to its paint), "long work after" the longest task
// until what the tap asked for is on screen (results fetched and drawn, the viewer loaded).
//
// Interactions (phone, 375 x 812, touch taps; the member is the demo's nathan.shah):
//   listing hub (/restaurants/): the Filters button, the "Best of" checkbox, the sub-category
//   select (↓ on the keyboard: a tap opens the native picker, which is not the page's work),
//   the sort tabs, the place type-ahead (typing "pizz", a rep's worst key);
//   save toggle on a listing page (member); photo viewer (open from a thumbnail, Next);
//   navbar's panels (menu, search: open and close; profile: open, member);
//   dashboard (member): a list switch in its menu (Favourites / Saved Articles) and a sort tab.
//
//   npm run build && npm run bench:inp
//   INP_ONLY=hub npm run bench:inp                  (the rows whose name contains the word)
//   INP_REPS=20 npm run bench:inp                   (reps per interaction; default 10)
//   INP_THROTTLE=1 npm run bench:inp                (CPU slowdown; default 4)
//   INP_DATA_DIR=/tmp/demo npm run bench:inp        (PGlite made by `DATA_DIR=/tmp/demo npm run seed`)
//   INP_DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npm run bench:inp
//   INP_PROFILE=1 npm run bench:inp                 (also a CDP CPU profile of the slowest row's
//                                                    reps: the functions with the most self time,
//                                                    in artifacts/inp-<row>.cpuprofile)
//
// A benchmark, not a test: it exits 0 once it has printed the table (INP_STRICT=1: non-zero
// when a row is at 100 ms or over, or failed). BENCH_PORT (3370), CHROMIUM_PATH.
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { openDatabase } from '../../server/db';
import { DEMO_PASSWORD } from '../seed/members';
import { startBenchServer } from './bench-server';
import { runDemoSeed } from './demo-data-dir';
import { loadAverage, ROOT, signIn, table } from './measure';
import { percentile, scratchDatabase, type BenchDatabase } from './newsroom-bench';

const PORT = Number(process.env.BENCH_PORT ?? 3370);
const BASE = `http://127.0.0.1:${PORT}`;
const REPS = Math.max(1, Number(process.env.INP_REPS ?? 10) || 10);
const THROTTLE = Math.max(1, Number(process.env.INP_THROTTLE ?? 4) || 4);
const ONLY = process.env.INP_ONLY ?? '';
const PROFILE = process.env.INP_PROFILE === '1';
const STRICT = process.env.INP_STRICT === '1';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MEMBER_EMAIL = process.env.INP_MEMBER_EMAIL ?? 'nathan.shah@example.com';
const PHONE = { width: 375, height: 812 };
const TARGET_MS = 100;
const EVENT_FLOOR_MS = 16;

// Installed before any page script (a string: the scripts' tsconfig has no DOM types). Counts
// fetches in flight, so a rep waits for what the tap asked the server for.
const INSTALL = `(() => {
  const inp = (window.__inp = { events: [], longtasks: [], inflight: 0 });
  const fetch0 = window.fetch.bind(window);
  window.fetch = (...args) => { inp.inflight += 1; return fetch0(...args).finally(() => { inp.inflight -= 1; }); };
  const keep = (list) => {
    for (const e of list.getEntries()) {
      if (e.entryType === 'longtask') inp.longtasks.push({ startTime: e.startTime, duration: e.duration });
      else if (e.interactionId) inp.events.push({ name: e.name, id: e.interactionId, startTime: e.startTime, duration: e.duration,
        delay: e.processingStart - e.startTime, processing: e.processingEnd - e.processingStart, presentation: e.startTime + e.duration - e.processingEnd });
    }
  };
  const events = new PerformanceObserver(keep);
  events.observe({ type: 'event', durationThreshold: ${EVENT_FLOOR_MS}, buffered: true });
  const longtasks = new PerformanceObserver(keep);
  longtasks.observe({ type: 'longtask', buffered: true });
  // Entries are delivered in a task after the paint: take what is queued before reading.
  inp.flush = () => { keep({ getEntries: () => events.takeRecords() }); keep({ getEntries: () => longtasks.takeRecords() }); };
  inp.mark = () => ({ t: performance.now(), count: performance.interactionCount ?? 0 });
})()`;

interface EventEntry {
  name: string;
  id: number;
  startTime: number;
  duration: number;
  delay: number;
  processing: number;
  presentation: number;
}
interface LongTask {
  startTime: number;
  duration: number;
}

/** One rep: its longest interaction (0 when every one stayed under the 16 ms floor) and the long tasks around it. */
interface Rep {
  ms: number;
  worst: EventEntry | null;
  interactions: number;
  /** A long task overlapping an interaction (from its input to its paint). */
  blockingTaskMs: number;
  /** The longest task from the input until the outcome was on screen. */
  longestTaskMs: number;
}

interface Spec {
  name: string;
  member: boolean;
  /** Opens the page and gets it to where the first rep starts (not measured). */
  open(page: Page): Promise<void>;
  /** Before a rep, not measured (e.g. open the panel the rep closes). */
  before?(page: Page, i: number): Promise<void>;
  /** The interaction. */
  act(page: Page, i: number): Promise<void>;
  /** Resolves once what the interaction asked for is on screen. */
  settled(page: Page, i: number): Promise<void>;
  /** After a rep, not measured (e.g. close what the rep opened). */
  after?(page: Page, i: number): Promise<void>;
}

interface Result {
  name: string;
  reps: Rep[];
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two frames and a task: the interaction's paint is done and its entries are queued. */
const nextFrames = (page: Page) => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))');

/** No fetch of the page's in flight and no animation running (a fade, a slide), endless ones aside. */
const quiet = async (page: Page): Promise<void> => {
  await page.waitForFunction(
    '(() => window.__inp.inflight === 0 && document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity))()',
    undefined,
    { polling: 50 },
  );
};

async function goto(page: Page, urlPath: string, ready: string): Promise<void> {
  await page.goto(BASE + urlPath, { waitUntil: 'load' });
  await page.locator(ready).first().waitFor({ state: 'attached' });
  await quiet(page);
}

const attr = (page: Page, selector: string, name: string) => page.locator(selector).first().getAttribute(name);

/** Taps `selector` and waits until its attribute `name` is no longer `was`. */
function toggleSpec(name: string, url: string, ready: string, selector: string, attribute: string, member = false, extra: Partial<Spec> = {}): Spec {
  let was: string | null = null;
  return {
    name,
    member,
    open: (page) => goto(page, url, ready),
    act: async (page) => {
      was = await attr(page, selector, attribute);
      await page.locator(selector).first().tap();
    },
    settled: async (page) => {
      await page.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.getAttribute(${JSON.stringify(attribute)}) !== ${JSON.stringify(was)}`);
      await quiet(page);
    },
    ...extra,
  };
}

/** Outside the measured window: clicks a panel's button and waits until it says aria-expanded="`expanded`" (search opens 100 ms late, on purpose). */
async function clickUntil(page: Page, button: string, expanded: 'true' | 'false'): Promise<void> {
  await page.locator(button).click();
  await page.locator(`${button}[aria-expanded="${expanded}"]`).waitFor();
  await quiet(page);
}

const HUB = '/restaurants/';
const HUB_READY = '.listing-search[data-enhanced]';
const HUB_IDLE = 'section.hub-results[aria-busy="false"]';
const BURGER = '.navbar__burger';
const SEARCH_BUTTON = '.navbar__search-button';

/** The interactions, in the order they run. `photos` is a listing's photo page with the most photos. */
function specs(photos: string | null, listing: string | null): Spec[] {
  const hubSettled = async (page: Page) => {
    await page.locator(HUB_IDLE).waitFor({ state: 'attached' });
    await quiet(page);
  };
  const openHubWithFilters = async (page: Page) => {
    await goto(page, HUB, HUB_READY);
    const toggle = page.locator('.hub-filters__toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await quiet(page);
  };
  const list: Spec[] = [
    {
      // The method's floor on this machine at this slowdown: a tap on a button no script listens to.
      name: 'floor: a bare <button> (no script)',
      member: false,
      open: async (page) => {
        await page.goto(`${BASE}/robots.txt`);
        await page.setContent('<meta name="viewport" content="width=device-width"><button style="font-size:2rem">Tap</button>');
      },
      act: (page) => page.locator('button').tap(),
      settled: (page) => quiet(page),
    },
    toggleSpec('hub: Filters button (fold/unfold)', HUB, HUB_READY, '.hub-filters__toggle', 'aria-expanded'),
    {
      name: 'hub: filter "Best of" checkbox',
      member: false,
      open: openHubWithFilters,
      act: (page) => page.locator('.hub-filters label.checkbox', { hasText: 'Best of' }).locator('input').tap(),
      settled: async (page, i) => {
        await page.waitForFunction(`[...document.querySelectorAll('.hub-filters label.checkbox')].find((l) => l.textContent.includes('Best of'))?.querySelector('input')?.checked === ${i % 2 === 0}`);
        await hubSettled(page);
      },
    },
    {
      name: 'hub: filter sub-category (key ↓/↑)',
      member: false,
      open: openHubWithFilters,
      // Focus again before each rep: the select is disabled while results load, which blurs it.
      before: (page) => page.getByLabel('Sub-category').focus(),
      act: (page, i) => page.keyboard.press(i % 2 === 0 ? 'ArrowDown' : 'ArrowUp'),
      settled: async (page, i) => {
        await page.waitForFunction(`document.querySelector('.hub-filters select[id$="-sub"]')?.selectedIndex ${i % 2 === 0 ? '>' : '==='} 0`);
        await hubSettled(page);
      },
    },
    {
      name: 'hub: sort tab',
      member: false,
      open: (page) => goto(page, HUB, HUB_READY),
      act: (page, i) => page.locator('nav[aria-label="Sort by"] a.tabs__link').nth(i % 2 === 0 ? 1 : 0).tap(),
      settled: async (page, i) => {
        await page.locator('nav[aria-label="Sort by"] a.tabs__link').nth(i % 2 === 0 ? 1 : 0).and(page.locator('[aria-current="true"]')).waitFor();
        await hubSettled(page);
      },
    },
    {
      name: 'hub: place type-ahead (typing "pizz")',
      member: false,
      open: (page) => goto(page, HUB, HUB_READY),
      before: async (page) => {
        const input = page.getByRole('combobox', { name: 'Name or place' });
        await input.fill('');
        await input.focus();
        await quiet(page);
      },
      act: async (page) => {
        // A typist's pace: each key once the previous one was painted, 120 ms apart.
        for (const ch of 'pizz') {
          await page.keyboard.type(ch);
          await nextFrames(page);
          await sleep(120);
        }
      },
      settled: async (page) => {
        await page
          .waitForFunction('(() => document.querySelectorAll(".place-search__list [role=option]").length > 0 || (document.querySelector(".place-search__message")?.textContent ?? "").trim() !== "")()', undefined, { timeout: 10_000 })
          .catch(() => undefined);
        await quiet(page);
      },
      after: (page) => page.keyboard.press('Escape'),
    },
  ];
  if (listing) {
    list.push(toggleSpec('save toggle (Favourite, member)', listing, '.save-control--listing.is-enhanced', '.save-control--listing button.save-toggle--favourites', 'aria-pressed', true));
  }
  if (photos) {
    const dialogImg = '[role=dialog] .yarl__slide_current img';
    list.push(
      {
        name: 'photo viewer: open (thumbnail)',
        member: false,
        open: (page) => goto(page, photos, '[data-island="photo-viewer"][data-mounted]'),
        act: (page, i) => page.locator('[data-island="photo-viewer"] a[href*="/photos/"]').nth(i % 3).tap(),
        settled: async (page) => {
          await page.locator(dialogImg).first().waitFor();
          await quiet(page);
        },
        after: async (page) => {
          await page.keyboard.press('Escape');
          await page.locator('[role=dialog]').waitFor({ state: 'detached' });
          await quiet(page);
        },
      },
      {
        name: 'photo viewer: Next photo',
        member: false,
        open: async (page) => {
          await goto(page, photos, '[data-island="photo-viewer"][data-mounted]');
          await page.locator('[data-island="photo-viewer"] a[href*="/photos/"]').first().click();
          await page.locator(dialogImg).first().waitFor();
          await quiet(page);
        },
        act: async (page) => {
          const next = page.getByRole('button', { name: 'Next photo' });
          await ((await next.isVisible()) ? next : page.getByRole('button', { name: 'Previous photo' })).tap();
        },
        settled: async (page) => {
          await quiet(page);
        },
      },
    );
  }
  const navbarRows = (panel: string, button: string, url: string, member: boolean): Spec[] => [
    toggleSpec(`navbar: ${panel} panel open`, url, '.navbar.is-enhanced', button, 'aria-expanded', member, { after: (page) => clickUntil(page, button, 'false') }),
    toggleSpec(`navbar: ${panel} panel close`, url, '.navbar.is-enhanced', button, 'aria-expanded', member, { before: (page) => clickUntil(page, button, 'true') }),
  ];
  list.push(...navbarRows('menu', BURGER, '/', false), ...navbarRows('search', SEARCH_BUTTON, '/', false));
  list.push(toggleSpec('navbar: profile panel open (member)', '/', '.navbar.is-enhanced', '.navbar__profile-button', 'aria-expanded', true, { after: (page) => clickUntil(page, '.navbar__profile-button', 'false') }));
  const DASH = '/accounts/dashboard/';
  const dashLink = (page: Page, i: number) => page.locator('nav.dash-menu').getByRole('link', { name: i % 2 === 0 ? 'Favourites' : 'Saved Articles', exact: true });
  list.push(
    {
      name: 'dashboard: list switch (menu)',
      member: true,
      open: (page) => goto(page, `${DASH}#/home/`, 'nav.dash-menu'),
      before: async (page, i) => {
        // At 375 px the menu may be folded: the rep is the tap on the list's link.
        if (!(await dashLink(page, i).isVisible())) throw new Error('the dashboard menu link is not visible at 375 px');
      },
      act: (page, i) => dashLink(page, i).tap(),
      settled: async (page, i) => {
        await page.waitForFunction(`location.hash === '${i % 2 === 0 ? '#/favourites/' : '#/articles/'}'`);
        await quiet(page);
      },
    },
    {
      name: 'dashboard: sort tab (Saved Articles)',
      member: true,
      open: (page) => goto(page, `${DASH}#/articles/`, '.dash-sort__tab'),
      act: (page, i) => page.locator('.dash-sort__tab').nth(i % 2 === 0 ? 1 : 0).tap(),
      settled: async (page, i) => {
        await page.locator('.dash-sort__tab').nth(i % 2 === 0 ? 1 : 0).and(page.locator('[aria-pressed="true"]')).waitFor();
        await quiet(page);
      },
    },
  );
  return list.filter((s) => s.name.includes(ONLY));
}

/** What the page's observers saw since `since`: the rep's figure. */
async function takeRep(page: Page, since: { t: number; count: number }): Promise<Rep & { counted: number }> {
  const { events, longtasks, count } = (await page.evaluate(
    `(() => { window.__inp.flush(); const r = { events: window.__inp.events.filter((e) => e.startTime >= ${since.t}), longtasks: window.__inp.longtasks.filter((l) => l.startTime + l.duration >= ${since.t}), count: performance.interactionCount ?? 0 }; window.__inp.events = []; window.__inp.longtasks = []; return r; })()`,
  )) as { events: EventEntry[]; longtasks: LongTask[]; count: number };
  const byId = new Map<number, EventEntry>();
  for (const e of events) if (!byId.has(e.id) || byId.get(e.id)!.duration < e.duration) byId.set(e.id, e);
  const worst = [...byId.values()].sort((a, b) => b.duration - a.duration)[0] ?? null;
  const overlaps = (l: LongTask) => [...byId.values()].some((e) => l.startTime < e.startTime + e.duration && l.startTime + l.duration > e.startTime);
  return {
    ms: worst?.duration ?? 0,
    worst,
    interactions: byId.size,
    counted: count - since.count,
    blockingTaskMs: Math.max(0, ...longtasks.filter(overlaps).map((l) => l.duration)),
    longestTaskMs: Math.max(0, ...longtasks.map((l) => l.duration)),
  };
}

async function runSpec(context: BrowserContext, spec: Spec, profile: boolean): Promise<Result> {
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const reps: Rep[] = [];
  let cdp: CDPSession | null = null;
  try {
    cdp = await context.newCDPSession(page);
    await spec.open(page);
    // Slowed once the page is up: the taps are measured, not the load.
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    for (let i = 0; i < REPS; i += 1) {
      await spec.before?.(page, i);
      await nextFrames(page);
      const since = (await page.evaluate('window.__inp.mark()')) as { t: number; count: number };
      await spec.act(page, i);
      await spec.settled(page, i);
      await nextFrames(page);
      const rep = await takeRep(page, since);
      if (rep.counted === 0) throw new Error(`rep ${i + 1}: the browser counted no interaction (performance.interactionCount did not move)`);
      reps.push(rep);
      await spec.after?.(page, i);
    }
    if (profile && cdp) await writeProfile(cdp, spec.name);
    if (errors.length) return { name: spec.name, reps, error: `page errors: ${errors.slice(0, 2).join('; ')}` };
    return { name: spec.name, reps };
  } catch (err) {
    return { name: spec.name, reps, error: (err as Error).message.split('\n')[0] };
  } finally {
    await cdp?.send('Emulation.setCPUThrottlingRate', { rate: 1 }).catch(() => undefined);
    await page.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** Stops the profiler; prints the functions with the most self time over the row's reps. */
async function writeProfile(cdp: CDPSession, name: string): Promise<void> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  const out = path.join(ROOT, 'artifacts', `inp-${name.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(profile));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    const key = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}` : ''}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + (self.get(node.id) ?? 0));
  }
  const top = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`\nCPU profile of "${name}", ${REPS} reps at ${THROTTLE}x (${path.relative(ROOT, out)}), the functions with the most self time:`);
  console.log(table(['function (self time)', 'ms', 'ms a rep'], top.map(([k, ms]) => [k, ms.toFixed(1), (ms / REPS).toFixed(1)])));
}

const fmtMs = (ms: number) => (ms < EVENT_FLOOR_MS ? `< ${EVENT_FLOOR_MS}` : String(Math.round(ms)));

function resultRow(r: Result): string[] {
  if (!r.reps.length) return [r.name, '', '', '', '', '', '', `FAILED: ${r.error}`];
  const ms = r.reps.map((x) => x.ms);
  const worstRep = r.reps.reduce((a, b) => (b.ms > a.ms ? b : a));
  const w = worstRep.worst;
  const parts = w ? `${w.name}: ${Math.round(w.delay)} / ${Math.round(w.processing)} / ${Math.round(w.presentation)}` : '';
  const blocking = r.reps.filter((x) => x.blockingTaskMs > 0);
  const ok = Math.max(...ms) < TARGET_MS && !r.error && r.reps.length === REPS;
  return [
    r.name,
    fmtMs(Math.max(...ms)),
    fmtMs(percentile(ms, 50)),
    parts,
    blocking.length ? `${blocking.length} of ${r.reps.length} (≤ ${Math.round(Math.max(...blocking.map((x) => x.blockingTaskMs)))} ms)` : 'no',
    (() => {
      const l = Math.max(...r.reps.map((x) => x.longestTaskMs));
      return l ? `${Math.round(l)} ms` : 'none';
    })(),
    `${r.reps.length}`,
    `${ok ? 'yes' : 'NO'}${r.error ? ` (${r.error})` : ''}`,
  ];
}

/** A fresh database with the demo seed, unless INP_DATA_DIR names one already seeded. */
async function demoDatabase(): Promise<BenchDatabase> {
  if (process.env.INP_DATA_DIR) return { pgliteDir: process.env.INP_DATA_DIR, label: `PGlite in ${process.env.INP_DATA_DIR}`, drop: async () => undefined };
  const target = await scratchDatabase('bench_inp', process.env.INP_DATABASE_URL);
  const seconds = await runDemoSeed(target.pgliteDir ? { dataDir: target.pgliteDir } : { databaseUrl: target.databaseUrl! });
  console.log(`demo seed on ${target.label} in ${seconds.toFixed(0)} s`);
  return target;
}

/** The photo page of the listing with the most photos, and that listing's page (for the save toggle). */
async function findPages(target: BenchDatabase): Promise<{ photos: string | null; listing: string | null }> {
  const handle = target.pgliteDir ? await openDatabase({ dataDir: target.pgliteDir }) : await openDatabase({ databaseUrl: target.databaseUrl!, poolMax: 1 });
  try {
    const row = (await handle
      .db('photos as p')
      .join('listings as l', 'l.id', 'p.listing_id')
      .join('listing_types as t', 't.id', 'l.type_id')
      .where('t.slug', 'restaurants')
      .groupBy('l.id', 'l.slug', 't.slug')
      .orderByRaw('count(*) desc, l.id')
      .first('l.id', 'l.slug', 't.slug as type_slug')) as { id: number; slug: string; type_slug: string } | undefined;
    if (!row) return { photos: null, listing: null };
    const listing = `/${row.type_slug}/${row.slug}-${row.id}/`;
    return { photos: `${listing}photos/`, listing };
  } finally {
    await handle.close();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'static/dist/.vite/manifest.json'))) {
    console.log('static/dist has no manifest: npm run build:islands');
    execFileSync('npm', ['run', 'build:islands'], { cwd: ROOT, stdio: 'inherit' });
  }
  const loadStart = loadAverage();
  const target = await demoDatabase();
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  try {
    const { photos, listing } = await findPages(target);
    if (!photos) console.warn('no restaurant with photos in the database: the photo viewer and save rows are skipped');
    server = await startBenchServer({ port: PORT, databaseUrl: target.databaseUrl, pgliteDir: target.pgliteDir });
    const memberCookie = await signIn(BASE, MEMBER_EMAIL, process.env.INP_MEMBER_PASSWORD ?? DEMO_PASSWORD);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const newContext = async (member: boolean) => {
      // A phone: 375 px and a touch screen (locator.tap() sends touch events, as a finger does).
      // bypassCSP: the site's CSP (script-src 'self') forbids the string predicates the rep
      // waits on (this script's tsconfig has no DOM types); it changes nothing else on the page.
      const context = await browser!.newContext({ viewport: PHONE, hasTouch: true, bypassCSP: true });
      await context.addInitScript(INSTALL);
      if (member) {
        // The login API's cookies (csrftoken and the session), as the browser would hold them.
        await context.addCookies(
          memberCookie.split('; ').map((c) => {
            const i = c.indexOf('=');
            return { name: c.slice(0, i), value: c.slice(i + 1), url: BASE };
          }),
        );
      }
      return context;
    };
    const guest = await newContext(false);
    const member = await newContext(true);

    console.log(`Interaction to Next Paint, ${REPS} reps each, CPU ${THROTTLE}x, ${CHROMIUM_PATH} at ${PHONE.width} x ${PHONE.height} (touch); server in production mode on ${target.label}; load average ${loadStart}`);
    const results: Result[] = [];
    for (const spec of specs(photos, listing)) {
      const r = await runSpec(spec.member ? member : guest, spec, false);
      results.push(r);
      const ms = r.reps.map((x) => x.ms);
      console.log(`  ${r.name}: ${ms.map(fmtMs).join(', ')}${r.error ? ` (${r.error})` : ''}`);
    }
    const loadEnd = loadAverage();
    console.log(`\n${table(['interaction (375 px, CPU ' + THROTTLE + 'x)', 'worst ms', 'median ms', 'worst: event, delay / processing / presentation ms', 'long task in the interaction', 'longest task after the tap', 'reps', `< ${TARGET_MS} ms`], results.map(resultRow))}\n`);
    console.log(`load average at the start ${loadStart}, at the end ${loadEnd}`);

    if (PROFILE) {
      const slowest = results.filter((r) => r.reps.length).sort((a, b) => Math.max(...b.reps.map((x) => x.ms)) - Math.max(...a.reps.map((x) => x.ms)))[0];
      const spec = slowest && specs(photos, listing).find((s) => s.name === slowest.name);
      if (spec) await runSpec(spec.member ? member : guest, spec, true);
    }
    if (STRICT && results.some((r) => r.error || !r.reps.length || Math.max(...r.reps.map((x) => x.ms)) >= TARGET_MS)) process.exitCode = 1;
  } finally {
    await browser?.close();
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((r) => server!.once('exit', r));
    await target.drop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
