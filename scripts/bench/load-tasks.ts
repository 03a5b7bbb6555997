// npm run bench:load-tasks: the main thread's long tasks while each of the six page types loads
// on a phone (issue 41, target 1: "no main-thread task over 100 ms at load"), in Debian's
// chromium at 375 px with the CPU slowed 4x (CDP Emulation.setCPUThrottlingRate), as a first
// visit (a fresh context: no cookie, no cache). Lighthouse (npm run lighthouse) gives the score;
// this gives the tasks themselves, runs in seconds and repeats cheaply, so a change's effect can
// be read as the median of many loads on a busy machine.
//
// A 'longtask' PerformanceObserver (buffered, installed before the page's first script) keeps
// every task over 50 ms from navigation until the main thread has had no long task for
// LOAD_TASKS_QUIET_MS (default 3000) after the load event; a load's figures are its
// longest task and its total blocking time (the sum of each task's time past 50 ms).
//
// Builds and starts nothing, like npm run lighthouse: run it against a production server.
//
//   npm run build && NODE_ENV=production PORT=3500 SITE_URL=http://127.0.0.1:3500 \
//     SESSION_SECRET=$(openssl rand -hex 24) DATA_DIR=/tmp/demo node server &
//   npm run bench:load-tasks                        (http://127.0.0.1:3500, 7 loads a page)
//   npm run bench:load-tasks -- http://127.0.0.1:3000 (or LOAD_TASKS_URL=…)
//   LOAD_TASKS_RUNS=15 LOAD_TASKS_ONLY=hub npm run bench:load-tasks
//   LOAD_TASKS_THROTTLE=1 npm run bench:load-tasks  (no CPU slowdown)
//
// A benchmark, not a test: it exits 0 once it has printed the table (LOAD_TASKS_STRICT=1: non-zero
// when a page's median longest task is 100 ms or more). CHROMIUM_PATH defaults to /usr/bin/chromium.
import { chromium, type Browser } from 'playwright-core';
import { loadAverage, table } from './measure';
import { percentile } from './newsroom-bench';
import { findPageTypes } from './page-types';

const base = (process.argv[2] ?? process.env.LOAD_TASKS_URL ?? 'http://127.0.0.1:3500').replace(/\/+$/, '');
const RUNS = Math.max(1, Number(process.env.LOAD_TASKS_RUNS ?? 7) || 7);
const THROTTLE = Math.max(1, Number(process.env.LOAD_TASKS_THROTTLE ?? 4) || 4);
const QUIET_MS = Math.max(500, Number(process.env.LOAD_TASKS_QUIET_MS ?? 3000) || 3000);
const ONLY = process.env.LOAD_TASKS_ONLY ?? '';
const STRICT = process.env.LOAD_TASKS_STRICT === '1';
const TARGET_MS = 100;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PHONE = { width: 375, height: 812 };

// In the page before its first script. A string: this script's tsconfig has no DOM types.
const INSTALL = `
  window.__loadTasks = [];
  window.__lastLongTaskEnd = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__loadTasks.push({ start: e.startTime, duration: e.duration });
      window.__lastLongTaskEnd = Math.max(window.__lastLongTaskEnd, e.startTime + e.duration);
    }
  }).observe({ type: 'longtask', buffered: true });
`;

interface Load {
  longestMs: number;
  tbtMs: number;
  tasks: number;
}

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  // bypassCSP: the site's CSP (script-src 'self') forbids the string predicate the load waits on.
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, bypassCSP: true });
  try {
    await context.addInitScript(INSTALL);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.goto(url, { waitUntil: 'load' });
    // Settled: no long task for QUIET_MS since the load event or the last long task (islands
    // mount after their data arrives, and the lazy ones near the viewport, so there is no one
    // element to wait for).
    await page.waitForFunction(
      `performance.now() - Math.max(window.__lastLongTaskEnd, performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? 0) > ${QUIET_MS}`,
      undefined,
      { timeout: 60_000, polling: 250 },
    );
    const tasks = (await page.evaluate('window.__loadTasks')) as Array<{ start: number; duration: number }>;
    return {
      longestMs: Math.max(0, ...tasks.map((t) => t.duration)),
      tbtMs: tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
      tasks: tasks.length,
    };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const pages = await findPageTypes(base, { only: ONLY });
  const loadStart = loadAverage();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const rows: string[][] = [];
  let failed = false;
  try {
    console.log(`Long tasks at load, ${RUNS} first visits a page, CPU ${THROTTLE}x, ${CHROMIUM_PATH} at ${PHONE.width} x ${PHONE.height} on ${base}; load average ${loadStart}`);
    for (const p of pages) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await loadOnce(browser, base + p.path));
      const longest = loads.map((l) => l.longestMs);
      const tbt = loads.map((l) => l.tbtMs);
      const median = percentile(longest, 50);
      if (median >= TARGET_MS) failed = true;
      console.log(`  ${p.page} ${p.path}: longest ${longest.map((ms) => Math.round(ms)).join(', ')} ms; TBT ${tbt.map((ms) => Math.round(ms)).join(', ')} ms`);
      rows.push([p.page, p.path, `${Math.round(median)}`, `${Math.round(Math.max(...longest))}`, `${Math.round(percentile(tbt, 50))}`, `${loads.filter((l) => l.longestMs >= TARGET_MS).length} of ${RUNS}`, median < TARGET_MS ? 'yes' : 'NO']);
    }
  } finally {
    await browser.close();
  }
  console.log(`\n${table(['page (375 px, CPU ' + THROTTLE + 'x)', 'path', 'longest task, median ms', 'worst ms', 'TBT median ms', `loads with a task ≥ ${TARGET_MS} ms`, `median < ${TARGET_MS} ms`], rows)}\n`);
  console.log(`load average at the start ${loadStart}, at the end ${loadAverage()}`);
  if (STRICT && failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
