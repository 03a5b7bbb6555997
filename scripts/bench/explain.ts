// EXPLAIN (ANALYZE, BUFFERS) of every query the public read paths run, on the city-scale
// database: each case calls the real service function once through a knex that records its
// SQL, then explains every recorded statement and prints the plan with its execution time.
//
//   npx tsx scripts/bench/explain.ts [filter]         (cases whose name contains the filter)
//   EXPLAIN_DATABASE_URL=postgres://... npx tsx scripts/bench/explain.ts
//   npx tsx scripts/bench/explain.ts --saves     (a member's favourites and article bookmarks)
//   npx tsx scripts/bench/explain.ts --page / /restaurants/   (the queries a page runs, through
//                                     the real app in-process on port 3374, second request)
import pg from 'pg';
import { openDatabase } from '../../server/db';
import { parseListingSearchParams } from '../../server/apps/listings/search-params';
import { searchListings } from '../../server/apps/listings/queries';
import { listArticles, parseArticleListParams } from '../../server/apps/articles/queries';
import { listEvents, parseEventListParams } from '../../server/apps/events/queries';
import { listContests, parseContestListParams } from '../../server/apps/contests/queries';
import { listVideos, parseVideoListParams } from '../../server/apps/videos/queries';
import { createSearchService } from '../../server/apps/search/service';
import { parseSiteSearchParams } from '../../server/apps/search/params';

const URL = process.env.EXPLAIN_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/guide_city';
const site = 'http://localhost';

type Seen = Array<{ sql: string; bindings: unknown[] }>;

async function explainAll(db: import('knex').Knex, client: pg.Client, seen: Seen) {
  for (const q of seen) {
    if (/^(begin|commit|rollback|select set_config|explain)/i.test(q.sql.trim())) continue;
    // The recorded SQL has knex's ? placeholders; pg wants $n (what knex sends).
    const native = (db.client as unknown as { positionBindings(sql: string): string }).positionBindings(q.sql);
    await client.query('begin');
    for (const s of seen.filter((x) => x.sql.startsWith('select set_config'))) {
      await client.query((db.client as unknown as { positionBindings(sql: string): string }).positionBindings(s.sql), s.bindings as never);
    }
    const rows = (await client.query(`explain (analyze, buffers) ${native}`, q.bindings as never)).rows as Array<{ 'QUERY PLAN': string }>;
    await client.query('rollback');
    console.log(`-- ${q.sql.slice(0, 300)}${q.sql.length > 300 ? '…' : ''}`);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
}

async function pages(urls: string[]) {
  Object.assign(process.env, { NODE_ENV: 'production', DATABASE_URL: URL, PORT: '3374', HOST: '127.0.0.1', DATA_DIR: '/tmp/perf-explain-3374', LOG_LEVEL: 'warn', RATE_LIMITS: 'false' });
  process.env.SESSION_SECRET ??= 'x'.repeat(64);
  const { startServer } = await import('../../server/index.js');
  const { ctx, stop } = await startServer();
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  for (const url of urls) {
    await fetch(`http://127.0.0.1:3374${url}`).then((r) => r.text());
    const seen: Seen = [];
    const listener = (q: { sql: string; bindings: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    ctx.db.on('query', listener);
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:3374${url}`);
    const body = await res.text();
    const ms = performance.now() - t;
    ctx.db.off('query', listener);
    console.log(`\n=== page ${url}: ${res.status}, ${body.length} bytes, ${ms.toFixed(1)} ms for ${seen.length} queries (second request)`);
    await explainAll(ctx.db, client, seen);
  }
  await client.end();
  await stop();
}

/** A member's saved lists with 1,000 favourites and 1,000 article bookmarks (a temporary member, removed after). */
async function saves() {
  const { db, close } = await openDatabase({ databaseUrl: URL, poolMax: 4 });
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  const { listSaves } = await import('../../server/apps/saves/save-queries.js');
  const { appServices } = await import('../../server/apps/index.js');
  // Only the save kinds are used: live editing, which would need a whole context, is never started.
  const { favourites: favouritesKind, articleBookmarks: articleBookmarksKind } = appServices(() => {
    throw new Error('no context in this script');
  }).saveKinds;
  const [profile] = await db('profiles').insert({ email: `explain-saves-${Date.now()}@example.com`, full_name: 'Explain Saver', password_hash: null }).returning('id');
  const profileId = Number(profile.id);
  try {
    const listings = await db('listings').orderByRaw('random()').limit(1000).pluck('id');
    const articles = await db('articles').where({ status: 'published' }).orderByRaw('random()').limit(1000).pluck('id');
    const spread = (i: number) => new Date(Date.now() - i * 3_600_000);
    await db('favourites').insert(listings.map((id: number, i: number) => ({ profile_id: profileId, listing_id: id, date_created: spread(i) })));
    await db('article_bookmarks').insert(articles.map((id: number, i: number) => ({ profile_id: profileId, article_id: id, date_created: spread(i) })));
    await db.raw('ANALYZE favourites, article_bookmarks');
    for (const kind of [favouritesKind, articleBookmarksKind] as const) {
      const k = kind as unknown as Parameters<typeof listSaves>[1];
      for (const ordering of Object.keys(k.list.orderings)) {
        const seen: Seen = [];
        const listener = (q: { sql: string; bindings: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
        db.on('query', listener);
        const t = performance.now();
        await listSaves(db, k, profileId, { limit: k.list.pageSize, offset: 0, ordering: k.list.orderings[ordering] }, new Date());
        const ms = performance.now() - t;
        db.off('query', listener);
        console.log(`\n=== ${k.table} ordering ${ordering}: ${ms.toFixed(1)} ms for ${seen.length} queries`);
        await explainAll(db, client, seen);
      }
    }
  } finally {
    await db('profiles').where({ id: profileId }).delete();
    await client.end();
    await close();
  }
}

async function main() {
  if (process.argv[2] === '--page') return pages(process.argv.slice(3));
  if (process.argv[2] === '--saves') return saves();
  const { db, close } = await openDatabase({ databaseUrl: URL, poolMax: 4 });
  const now = new Date();
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  const stop = await db('subway_stops').orderBy('id').first('id', 'latitude', 'longitude');
  const busy = await db('event_occurrences').groupBy('local_date').orderByRaw('count(*) desc').first(db.raw('local_date::text as d'));
  const lat = stop.latitude, lng = stop.longitude;
  const L = (q: Record<string, string>) => () => searchListings(db, parseListingSearchParams(q), { siteUrl: site });
  const search = createSearchService();
  const S = (q: Record<string, string>) => () => search.searchSite(db, { ...parseSiteSearchParams(q) }, site, { now });
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['listings plain', L({})],
    ['listings smart_review', L({ ordering: 'smart_review' })],
    ['listings distance', L({ latitude: String(lat), longitude: String(lng), ordering: 'distance' })],
    ['listings subway', L({ subway_stop: String(stop.id) })],
    ['listings bbox', L({ bbox: `${lng - 0.02},${lat - 0.015},${lng + 0.02},${lat + 0.015}` })],
    ['listings features', L({ features: process.env.FEATURES ?? 'wheelchair-accessible,vegetarian-options' })],
    ['listings keywords', L({ keywords: 'pi', bundle_type: 'simple', limit: '10' })],
    ['listings keywords3', L({ keywords: 'piz', bundle_type: 'simple', limit: '10' })],
    ['events date', () => listEvents(db, parseEventListParams({ date: busy.d }), { siteUrl: site, now })],
    ['events upcoming', () => listEvents(db, parseEventListParams({ ordering: 'start_date_time' }), { siteUrl: site, now })],
    ['articles', () => listArticles(db, parseArticleListParams({}), { siteUrl: site, now })],
    ['articles type', () => listArticles(db, parseArticleListParams({ type: 'food' }), { siteUrl: site, now })],
    ['contests', () => listContests(db, parseContestListParams({}), { siteUrl: site, now })],
    ['videos', () => listVideos(db, parseVideoListParams({}), { siteUrl: site, now })],
    ['search common', S({ q: 'toronto' })],
    ['search rare', S({ q: 'pizza' })],
    ['search date', S({ q: 'toronto', ordering: '-date_published' })],
    ['search typo', S({ q: 'resturant' })],
  ];
  const only = process.argv[2];
  for (const [name, fn] of cases) {
    if (only && !name.includes(only)) continue;
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const listener = (q: { sql: string; bindings: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.on('query', listener);
    const t = performance.now();
    await fn();
    const ms = performance.now() - t;
    db.off('query', listener);
    console.log(`\n=== ${name}: ${ms.toFixed(1)} ms for ${seen.length} queries (first call)`);
    await explainAll(db, client, seen);
  }
  await client.end();
  await close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
