// Latency of a member's saved-things lists: GET /api/v2/favourites/ and
// /api/v2/article-bookmarks/ for a member with 1,000 favourites and 1,000 article bookmarks.
//
//   npx tsx scripts/bench/saves.ts [--db postgres://root@127.0.0.1:5432/guide_city]
//                                  [--pglite] [--port 3320] [--connections 20] [--seconds 10]
//
// Database: --db, else DATABASE_URL, else the city-scale `guide_city` when it answers; with
// --pglite (or when none answers) a fresh PGlite in /tmp seeded by this script with 5,000 listings and 5,000 articles. The
// script adds a bench member with the saves (through the same counters the API keeps), starts
// the real server (`tsx server/index.ts`) in its own process on the port, signs the member in
// with a session row, runs autocannon against both lists (and, for comparison, against
// GET /api/v2/profiles/me/, which only loads the session and the member), then removes the
// member again.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { sign } from 'cookie-signature';
import { openDatabase, type DbHandle } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../../server/apps/accounts/session';

const root = path.resolve(__dirname, '../..');
const SAVES = 1000;
const CITY_URL = 'postgres://root@127.0.0.1:5432/guide_city';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function reachable(url: string): Promise<boolean> {
  const probe = await openDatabase({ databaseUrl: url, poolMax: 1 });
  try {
    await probe.db.raw('select 1 from listings limit 1');
    return true;
  } catch {
    return false;
  } finally {
    await probe.close();
  }
}

/** A fresh embedded database with enough listings and articles to save 1,000 of each. */
async function seedPglite(dataDir: string): Promise<DbHandle> {
  fs.rmSync(dataDir, { recursive: true, force: true });
  const handle = await openDatabase({ dataDir });
  const { db } = handle;
  await migrateLatest(db);
  const [type] = await db('listing_types').insert({ name: 'Restaurants', slug: 'restaurants' }).returning('id');
  const [articleType] = await db('article_types').insert({ name: 'News', slug: 'news' }).returning('id');
  for (let start = 0; start < 5000; start += 1000) {
    const n = Array.from({ length: 1000 }, (_, i) => start + i);
    await db('listings').insert(n.map((i) => ({ name: `Bench place ${i}`, slug: `bench-place-${i}`, type_id: type.id, latitude: 43.65, longitude: -79.38 })));
    await db('articles').insert(
      n.map((i) => ({ type_id: articleType.id, name: `Bench article ${i}`, slug: `bench-article-${i}`, path: `/news/2026/01/bench-article-${i}/`, date_published: new Date(Date.UTC(2026, 0, 1) + i * 60_000) })),
    );
  }
  await db.raw('VACUUM ANALYZE');
  return handle;
}

/** The bench member, their saves and a signed session cookie. */
async function createBenchMember(handle: DbHandle, sessionSecret: string): Promise<{ profileId: number; cookie: string }> {
  const { db } = handle;
  const [profile] = await db('profiles').insert({ email: `bench-saves-${Date.now()}@example.com`, full_name: 'Bench Saver', password_hash: null }).returning('id');
  const profileId = Number(profile.id);
  await db.transaction(async (trx) => {
    const listings = await trx('listings').orderByRaw('random()').limit(SAVES).pluck('id');
    const articles = await trx('articles').where({ status: 'published' }).orderByRaw('random()').limit(SAVES).pluck('id');
    const spread = (i: number) => new Date(Date.now() - i * 3_600_000);
    await trx('favourites').insert(listings.map((id: number, i: number) => ({ profile_id: profileId, listing_id: id, date_created: spread(i) })));
    await trx('listings').whereIn('id', listings).increment('favourite_count', 1);
    await trx('article_bookmarks').insert(articles.map((id: number, i: number) => ({ profile_id: profileId, article_id: id, date_created: spread(i) })));
  });
  const sid = crypto.randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + SESSION_IDLE_MS);
  const sess = { cookie: { originalMaxAge: SESSION_IDLE_MS, expires: expires.toISOString(), httpOnly: true, path: '/', sameSite: 'lax' }, passport: { user: profileId } };
  await db('sessions').insert({ sid, sess: JSON.stringify(sess), expired: expires });
  await db.raw('ANALYZE favourites, article_bookmarks');
  return { profileId, cookie: `${SESSION_COOKIE}=${encodeURIComponent(`s:${sign(sid, sessionSecret)}`)}` };
}

async function removeBenchMember(handle: DbHandle, profileId: number): Promise<void> {
  await handle.db.transaction(async (trx) => {
    const listings = await trx('favourites').where({ profile_id: profileId }).pluck('listing_id');
    await trx('listings').whereIn('id', listings).update({ favourite_count: trx.raw('greatest(favourite_count - 1, 0)') });
    await trx('profiles').where({ id: profileId }).delete(); // saves and sessions go with it
  });
}

function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/index.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'false' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitUntilUp(url: string, deadline = Date.now() + 120_000): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server never answered at ${url}`);
}

async function measure(url: string, cookie: string, connections: number, duration: number, expectCount: number | null = SAVES) {
  const check = await fetch(url, { headers: { cookie } });
  const body = (await check.json()) as { count?: number; results?: unknown[] };
  if (check.status !== 200 || (expectCount !== null && body.count !== expectCount)) throw new Error(`${url} answered ${check.status} with count ${body.count}`);
  await autocannon({ url, headers: { cookie }, connections, duration: 2 }); // warm-up
  const r = await autocannon({ url, headers: { cookie }, connections, duration });
  return { requests: r.requests.total, non2xx: r.non2xx, reqPerSec: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, maxMs: r.latency.max, pageItems: body.results?.length };
}

async function main() {
  const port = Number(arg('port', '3320'));
  const connections = Number(arg('connections', '20'));
  const seconds = Number(arg('seconds', '10'));
  const sessionSecret = crypto.randomBytes(32).toString('base64url');
  const embedded = process.argv.includes('--pglite');
  let databaseUrl: string | undefined = embedded ? undefined : arg('db', process.env.DATABASE_URL ?? '');
  if (!databaseUrl && !embedded && (await reachable(CITY_URL).catch(() => false))) databaseUrl = CITY_URL;
  const dataDir = path.join('/tmp', `bench-saves-${port}`);

  let handle = databaseUrl ? await openDatabase({ databaseUrl, poolMax: 2 }) : await seedPglite(dataDir);
  const sizes = await handle.db.raw(`select (select count(*) from listings)::int as listings, (select count(*) from articles)::int as articles,
    (select count(*) from favourites)::int as favourites, (select count(*) from article_bookmarks)::int as article_bookmarks`);
  const { profileId, cookie } = await createBenchMember(handle, sessionSecret);
  // PGlite has one writer: the server must have the data directory to itself.
  if (!databaseUrl) await handle.close();

  const server = startServer(port, { SESSION_SECRET: sessionSecret, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const results: Record<string, unknown> = {};
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${base}/healthz`);
    // The cost of any signed-in request (session, member), for comparison.
    results['baseline GET /api/v2/profiles/me/'] = await measure(`${base}/api/v2/profiles/me/`, cookie, connections, seconds, null);
    results['GET /api/v2/favourites/'] = await measure(`${base}/api/v2/favourites/`, cookie, connections, seconds);
    results['GET /api/v2/article-bookmarks/'] = await measure(`${base}/api/v2/article-bookmarks/`, cookie, connections, seconds);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    if (!databaseUrl) handle = await openDatabase({ dataDir });
    await removeBenchMember(handle, profileId);
    await handle.close();
  }
  const database = databaseUrl ? databaseUrl.replace(/\/\/[^@]*@/, '//') : `PGlite ${dataDir}`;
  console.log(JSON.stringify({ database, tables: (sizes.rows ?? sizes)[0], member: { favourites: SAVES, articleBookmarks: SAVES }, connections, seconds, results }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
