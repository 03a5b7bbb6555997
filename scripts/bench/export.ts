// Memory of a member's data export (Dashboard → Your data, issue 16): peak RSS and heap growth
// while writing the ZIP of a member with 10,000 saves, against one with a tenth as many. The
// export is streamed (rows in batches, the ZIP into the response), so the peak must not grow
// with the number of saves.
//
// Each member is exported twice: once as is (time, peak RSS and heap growth, which count
// garbage V8 has not collected yet), and once with a GC every 50 ms (needs --expose-gc), whose
// peak ("after GC") is what the export really holds at once.
//
//   npx tsx --expose-gc scripts/bench/export.ts [--saves 10000] [--photos 100] [--db postgres://root@127.0.0.1:5432/postgres]
//
// Database: a fresh PGlite in /tmp, or with --db a new database `bench_export_<pid>` made on
// that server (dropped afterwards). PGlite runs inside this process, so its WASM memory counts
// in RSS; the JS heap growth is the export's own, and --db shows RSS without the database.
// Saves: 40% favourites, 20% to-dos, 20% ratings, 20% article bookmarks; plus --photos photos
// of 100 KB each in a temporary storage. The ZIP goes to a file in /tmp through a write stream
// (real backpressure), and is checked afterwards: favourites.json holds every favourite.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { unzipSync, strFromU8 } from 'fflate';
import { openDatabase, type DbHandle } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { loadConfig } from '../../server/config';
import { createLocalStorage } from '../../server/storage/storage';
import { writeMemberExport } from '../../server/apps/member-data/export';
import type { Member } from '../../server/apps/profiles/member';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const SAVES = Number(arg('saves', '10000'));
const PHOTOS = Number(arg('photos', '100'));
const SERVER_URL = arg('db', '');
const MB = 1024 * 1024;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function openBenchDatabase(): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  if (!SERVER_URL) {
    const handle = await openDatabase({ dataDir: path.join(tmp, 'pglite') });
    return { handle, drop: async () => handle.close() };
  }
  const name = `bench_export_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: SERVER_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ??', [name]);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolMax: 4 });
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      await admin.destroy();
    },
  };
}

type Db = DbHandle['db'];

async function insertInChunks(db: Db, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await db(table).insert(rows.slice(i, i + 1000));
}

/** A member with `saves` saves and `photos` photos (each 100 KB of random bytes in the storage). */
async function createMember(db: Db, storage: ReturnType<typeof createLocalStorage>, tag: string, saves: number, photos: number): Promise<Member> {
  const [profile] = await db('profiles').insert({ email: `bench-export-${tag}@example.com`, full_name: `Bench ${tag}` }).returning('id');
  const id = Number(profile.id);
  const [type] = await db('listing_types').insert({ name: `Type ${tag}`, slug: `type-${tag}` }).returning('id');
  const [articleType] = await db('article_types').insert({ name: `News ${tag}`, slug: `news-${tag}` }).returning('id');
  const places = Math.round(saves * 0.4);
  const quarter = Math.round(saves * 0.2);
  const listingIds: number[] = [];
  for (let start = 0; start < places; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, places - start) }, (_, i) => ({
      name: `Bench place ${tag} ${start + i}`, slug: `bench-place-${start + i}`, type_id: type.id, address: `${start + i} Queen St W`, latitude: 43.65 + i / 1e5, longitude: -79.38,
    }));
    listingIds.push(...(await db('listings').insert(batch).returning('id')).map((r: { id: number }) => r.id));
  }
  const articleIds: number[] = [];
  for (let start = 0; start < quarter; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, quarter - start) }, (_, i) => ({
      type_id: articleType.id, name: `Bench article ${tag} ${start + i}`, slug: `bench-${tag}-${start + i}`, path: `/news-${tag}/2026/01/bench-${start + i}/`, date_published: new Date(),
    }));
    articleIds.push(...(await db('articles').insert(batch).returning('id')).map((r: { id: number }) => r.id));
  }
  await insertInChunks(db, 'favourites', listingIds.map((l) => ({ profile_id: id, listing_id: l })));
  await insertInChunks(db, 'todos', listingIds.slice(0, quarter).map((l) => ({ profile_id: id, listing_id: l })));
  await insertInChunks(db, 'ratings', listingIds.slice(0, quarter).map((l, i) => ({ profile_id: id, listing_id: l, rating: 1 + (i % 5) })));
  await insertInChunks(db, 'article_bookmarks', articleIds.map((a) => ({ profile_id: id, article_id: a })));
  for (let i = 0; i < photos; i++) {
    const key = `photos/bench/${tag}-${i}.jpg`;
    await storage.put(key, crypto.randomBytes(100 * 1024));
    await db('photos').insert({ profile_id: id, listing_id: listingIds[i % listingIds.length], image_key: key, width: 1200, height: 800, title: `Photo ${i}` });
  }
  return db('profiles').where({ id }).first();
}

interface Measure {
  saves: number;
  seconds: number;
  zipMb: number;
  peakRssGrowthMb: number;
  peakHeapGrowthMb: number;
  peakRetainedGrowthMb: number;
  favourites: number;
}

/** One export into a file. With `collect`, a GC every 50 ms (slow: its time is not reported) finds the retained peak. */
async function measure(ctx: Parameters<typeof writeMemberExport>[0], member: Member, saves: number, collect: boolean): Promise<Measure> {
  const file = path.join(tmp, `export-${member.id}.zip`);
  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  // Peak heap counts garbage not yet collected; what a collection leaves is what the export holds.
  let peakRetained = base.heapUsed;
  const collector = collect
    ? setInterval(() => {
        gc();
        peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed);
      }, 50)
    : undefined;
  const started = process.hrtime.bigint();
  const out = fs.createWriteStream(file);
  const closed = new Promise<void>((resolve, reject) => out.on('close', () => resolve()).on('error', reject));
  await writeMemberExport(ctx, member, out);
  await closed;
  sample();
  clearInterval(timer);
  clearInterval(collector);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const zipBytes = fs.statSync(file).size;
  // Checked after the measurement: the ZIP is whole and holds every favourite.
  const favourites = JSON.parse(strFromU8(unzipSync(fs.readFileSync(file), { filter: (f) => f.name === 'favourites.json' })['favourites.json'])).length;
  fs.rmSync(file);
  return { saves, seconds, zipMb: zipBytes / MB, peakRssGrowthMb: (peakRss - base.rss) / MB, peakHeapGrowthMb: (peakHeap - base.heapUsed) / MB, peakRetainedGrowthMb: (peakRetained - base.heapUsed) / MB, favourites };
}

async function main() {
  const { handle, drop } = await openBenchDatabase();
  try {
    await migrateLatest(handle.db);
    const storage = createLocalStorage(path.join(tmp, 'media'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmp });
    const ctx = { db: handle.db, config, storage, now: () => new Date() };
    const small = await createMember(handle.db, storage, 'small', SAVES / 10, PHOTOS / 10);
    const large = await createMember(handle.db, storage, 'large', SAVES, PHOTOS);
    // A first run warms up the code paths and the database's caches; it is not reported.
    await measure(ctx, small, SAVES / 10, false);
    const results = [];
    for (const [member, saves] of [[small, SAVES / 10], [large, SAVES]] as const) {
      const plain = await measure(ctx, member, saves, false);
      const collected = await measure(ctx, member, saves, true);
      results.push({ ...plain, peakRetainedGrowthMb: collected.peakRetainedGrowthMb });
    }
    console.log(`database: ${SERVER_URL ? 'PostgreSQL' : 'PGlite (in this process)'}; gc exposed: ${Boolean((globalThis as { gc?: unknown }).gc)}`);
    for (const r of results) {
      console.log(
        `${String(r.saves).padStart(6)} saves, ${PHOTOS / (r.saves === SAVES ? 1 : 10)} photos: zip ${r.zipMb.toFixed(1)} MB in ${r.seconds.toFixed(2)} s; ` +
          `peak growth RSS ${r.peakRssGrowthMb.toFixed(1)} MB, heap ${r.peakHeapGrowthMb.toFixed(1)} MB (after GC ${r.peakRetainedGrowthMb.toFixed(1)} MB); favourites.json rows ${r.favourites}`,
      );
    }
  } finally {
    await drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
