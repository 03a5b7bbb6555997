// Publish to visible (issue 37): how long after the newsroom's Publish answers a reader of
// another server process sees the story on every page that lists it.
//
// Builds nothing (`npm run build` must have run, as for every bench). Needs PostgreSQL: two
// processes share one database only there (PGlite takes one process). On the server of
// BENCH_DATABASE_URL it makes a scratch database `bench_publish_<pid>` (dropped afterwards),
// migrates it and seeds it: the News type, an administrator of the newsroom and
// BENCH_EXISTING (60) published News stories, so the hub's and search's lists are long
// enough to be kept by the shared-answer cache too. Then it starts TWO server processes in
// production mode (NODE_ENV=production: each keeps its page cache, the home's lists, the
// navbar's menus, the shared answers) on that database, A and B, and for each of
// BENCH_STORIES (20) stories:
//
// 1. creates a draft through A's newsroom API, its headline holding a word nobody else uses;
// 2. asks B, as a returning guest, for each page twice, so B keeps each page (the second
//    answer says `X-Guest-Cache: hit`) and each shows the old list;
// 3. publishes the story through A's API (POST /api/v2/staff/stories/{id}/publish/);
// 4. from the moment that answer arrives, asks B for each page every BENCH_POLL_MS (20 ms),
//    all five at once, until it shows the story: the home `/`, the type's hub `/news/`, its
//    feed `/news/rss.xml` (the headline), the sitemap that lists articles,
//    `/sitemaps/articles-{n}.xml` (the story's address; `/sitemap.xml` is the index of those
//    files), and `/search?q=<the word>` (the story's address: the results mark the words
//    found inside the headline).
//
// B hears of the change through PostgreSQL's LISTEN/NOTIFY (server/cache/change-notices.ts);
// without it B's page cache would keep the old page up to 10 s and its home lists a minute.
// Prints p50, p99 and max per page with the target (≤ 2 s everywhere) and the load average.
//
//   BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npx tsx scripts/bench/publish-visible.ts
//   BENCH_STORIES=50 BENCH_PORT=3370 BENCH_DATABASE_URL=… npx tsx scripts/bench/publish-visible.ts
//
// Ports BENCH_PORT (3370) for A and the next one for B. Exits 1 when a target is missed with BENCH_STRICT=1.
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { startBenchServer } from './bench-server';
import { loadAverage, RETURNING_GUEST, table } from './measure';
import { percentile, scratchDatabase, seedDatabase, seedNewsroom, staffClient } from './newsroom-bench';

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const PORT = Number(process.env.BENCH_PORT ?? 3370);
const A = `http://127.0.0.1:${PORT}`;
const B = `http://127.0.0.1:${PORT + 1}`;
const STORIES = Number(process.env.BENCH_STORIES ?? 20);
const EXISTING = Number(process.env.BENCH_EXISTING ?? 60);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 20);
const GIVE_UP_MS = 30_000;
const TARGET_MS = 2_000;
const SITEMAP_CHUNK = 10_000; // server/apps/seo/sitemap-queries.ts

interface PageCheck {
  name: string;
  path: (s: Published) => string;
  /** What shows the story on that page. */
  shows: (body: string, s: Published) => boolean;
}

interface Published {
  id: number;
  headline: string;
  word: string;
  path: string;
}

const PAGES: PageCheck[] = [
  { name: 'home /', path: () => '/', shows: (b, s) => b.includes(s.headline) },
  { name: 'hub /news/', path: () => '/news/', shows: (b, s) => b.includes(s.headline) },
  { name: 'feed /news/rss.xml', path: () => '/news/rss.xml', shows: (b, s) => b.includes(s.headline) },
  { name: 'sitemap /sitemaps/articles-N.xml', path: (s) => `/sitemaps/articles-${Math.ceil(s.id / SITEMAP_CHUNK)}.xml`, shows: (b, s) => b.includes(`${s.path}</loc>`) },
  { name: 'search /search?q=word', path: (s) => `/search?q=${s.word}`, shows: (b, s) => b.includes(`href="${s.path}"`) },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(base: string, urlPath: string): Promise<{ status: number; body: string; cached: boolean }> {
  const res = await fetch(base + urlPath, { headers: { cookie: RETURNING_GUEST, 'accept-encoding': 'gzip, br' } });
  return { status: res.status, body: await res.text(), cached: res.headers.get('x-guest-cache') === 'hit' };
}

/** A word of letters only that no other story holds: 'qv' and eight letters. */
const uniqueWord = () => `qv${[...crypto.randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;

async function main(): Promise<void> {
  if (!DATABASE_URL) {
    console.error('publish-visible needs PostgreSQL (two processes on one database): BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/postgres npx tsx scripts/bench/publish-visible.ts');
    process.exit(2);
  }
  const target = await scratchDatabase('bench_publish', DATABASE_URL);
  const servers: ChildProcess[] = [];
  try {
    const typeId = await seedDatabase(target, async (db) => {
      const id = await seedNewsroom(db);
      const start = Date.UTC(2026, 0, 1);
      const rows = Array.from({ length: EXISTING }, (_, i) => ({
        type_id: id,
        name: `Earlier city story ${i + 1}`,
        slug: `earlier-city-story-${i + 1}`,
        path: `/news/2026/01/earlier-city-story-${i + 1}/`,
        excerpt: 'An earlier story.',
        body: 'The streetcar ran late again.',
        date_published: new Date(start + i * 3_600_000),
      }));
      if (rows.length) await db('articles').insert(rows);
      return id;
    });
    servers.push(await startBenchServer({ port: PORT, databaseUrl: target.databaseUrl }));
    servers.push(await startBenchServer({ port: PORT + 1, databaseUrl: target.databaseUrl }));
    const staff = await staffClient(A);

    console.log(`Publish to visible: ${STORIES} stories published through A (${A}), read from B (${B}), both production mode on ${target.label}; polled every ${POLL_MS} ms; load average ${loadAverage()}`);
    const times = new Map<string, number[]>(PAGES.map((p) => [p.name, []]));
    const keptBefore = new Map<string, number>(PAGES.map((p) => [p.name, 0]));
    const publishMs: number[] = [];
    const loadStart = loadAverage();
    for (let n = 1; n <= STORIES; n += 1) {
      const word = uniqueWord();
      const headline = `Ferry timetable ${word} changes for the island`;
      const draft = await staff.call<{ id: number }>('POST', 'stories/', {
        fields: {
          name: headline,
          type_id: typeId,
          excerpt: 'The island ferries keep a new timetable from Monday.',
          doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `The island ferries (${word}) keep a new timetable from Monday.` }] }] },
        },
      });
      // B keeps every page as it is now (the sitemap chunk is the one the new id falls in).
      const pending: Published = { id: draft.id, headline, word, path: '\u0000' };
      for (const p of PAGES) {
        await get(B, p.path(pending));
        const again = await get(B, p.path(pending));
        if (again.status !== 200) throw new Error(`B answered ${again.status} for ${p.path(pending)}`);
        if (again.cached) keptBefore.set(p.name, keptBefore.get(p.name)! + 1);
        if (again.body.includes(headline)) throw new Error(`${p.path(pending)} shows the story before it is published`);
      }
      const sent = performance.now();
      const story = await staff.call<{ path: string; status: string }>('POST', `stories/${draft.id}/publish/`, {});
      const answered = performance.now();
      publishMs.push(answered - sent);
      if (story.status !== 'published') throw new Error(`story ${draft.id} is ${story.status} after publishing`);
      const published: Published = { ...pending, path: story.path };
      const seen = await Promise.all(
        PAGES.map(async (p) => {
          for (;;) {
            const res = await get(B, p.path(published));
            const at = performance.now() - answered;
            if (res.status === 200 && p.shows(res.body, published)) return at;
            if (at > GIVE_UP_MS) return Infinity;
            await sleep(POLL_MS);
          }
        }),
      );
      PAGES.forEach((p, i) => times.get(p.name)!.push(seen[i]));
      console.log(`  ${n}/${STORIES} ${story.path}: publish answered in ${(answered - sent).toFixed(0)} ms; on B after ${seen.map((ms, i) => `${PAGES[i].name.split(' ')[0]} ${Number.isFinite(ms) ? ms.toFixed(0) : '> 30000'}`).join(', ')} ms`);
      await sleep(300);
    }
    const loadEnd = loadAverage();
    const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : `> ${GIVE_UP_MS / 1000} s`);
    let ok = true;
    const rows = PAGES.map((p) => {
      const xs = times.get(p.name)!;
      const max = Math.max(...xs);
      const pass = max <= TARGET_MS;
      ok &&= pass;
      return [p.name, String(xs.length), `${keptBefore.get(p.name)}/${xs.length}`, fmt(percentile(xs, 50)), fmt(percentile(xs, 99)), fmt(max), pass ? 'pass' : 'FAIL'];
    });
    console.log(`\n${table(['page on B', 'stories', 'kept by B before', 'p50', 'p99', 'max', 'target ≤ 2 s'], rows)}\n`);
    console.log(`Publish (A's answer): p50 ${percentile(publishMs, 50).toFixed(0)} ms, max ${Math.max(...publishMs).toFixed(0)} ms. Load average at the start ${loadStart}, at the end ${loadEnd}.`);
    if (!ok && process.env.BENCH_STRICT === '1') process.exitCode = 1;
  } finally {
    for (const s of servers) {
      s.kill('SIGTERM');
      await new Promise((r) => (s.exitCode !== null ? r(null) : s.once('exit', r)));
    }
    await target.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
