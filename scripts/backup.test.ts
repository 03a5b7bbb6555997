import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { loadConfig, type Config } from '../server/config';
import { openDatabase, type Db } from '../server/db';
import { createListing, createPhoto } from '../server/testing/fixtures';
import { PGLITE_SNAPSHOT, PG_TEMPLATE_ENV, testDatabaseUrl, withDatabase } from '../server/testing/test-db';
import { createLocalStorage, newKey } from '../server/storage/storage';
import { createBackup, parseArgs as parseBackupArgs } from './backup';
import { parseArgs as parseRestoreArgs, restoreBackup } from './restore';

// npm run backup then npm run restore into a new place: a member, their favourite and their
// photo come back, the photo's file with the same bytes. On PostgreSQL (TEST_DATABASE_URL)
// through pg_dump/pg_restore between two databases of this test; else the embedded database.

jest.setTimeout(120_000);

const pgUrl = testDatabaseUrl();
const databases: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-backup-'));

async function admin<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = knexFactory({ client: 'pg', connection: pgUrl!, pool: { min: 0, max: 1 } });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** A place to back up from or restore into: a data directory and, on PostgreSQL, a database. */
async function newPlace(name: string, opts: { migrated: boolean }): Promise<Config> {
  const dataDir = path.join(tmp, name);
  fs.mkdirSync(dataDir);
  if (!pgUrl) {
    if (opts.migrated) {
      const { PGlite } = await import('@electric-sql/pglite');
      const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: new Blob([fs.readFileSync(PGLITE_SNAPSHOT)]) });
      await pglite.close();
    }
    return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  }
  const database = `guide_backup_${process.pid}_${name}_${crypto.randomBytes(3).toString('hex')}`;
  const template = process.env[PG_TEMPLATE_ENV];
  if (opts.migrated && !template) throw new Error(`${PG_TEMPLATE_ENV} is not set: run through jest`);
  await admin((db) => (opts.migrated ? db.raw('CREATE DATABASE ?? TEMPLATE ??', [database, template!]) : db.raw('CREATE DATABASE ??', [database])));
  databases.push(database);
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: withDatabase(pgUrl, database) });
}

async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

afterAll(async () => {
  if (pgUrl) await admin(async (db) => {
    for (const d of databases) await db.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [d]);
  });
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('reads its arguments: backup [DIR], restore FILE [--force]', () => {
  expect(parseBackupArgs(['/srv/b'], {})).toEqual({ outDir: '/srv/b' });
  expect(parseBackupArgs([], { BACKUP_DIR: '/srv/env' })).toEqual({ outDir: '/srv/env' });
  expect(() => parseBackupArgs(['a', 'b'])).toThrow(/^usage: backup/);
  expect(parseRestoreArgs(['/b/x.tar.gz', '--force'])).toEqual({ file: '/b/x.tar.gz', force: true });
  expect(parseRestoreArgs(['/b/x.tar.gz'])).toEqual({ file: '/b/x.tar.gz', force: false });
  for (const bad of [[], ['--force'], ['a', 'b'], ['a', '--yes']]) expect(() => parseRestoreArgs(bad)).toThrow(/^usage: restore/);
});

test(`a member, a favourite and a photo with its file come back in a new place (${pgUrl ? 'PostgreSQL' : 'PGlite'})`, async () => {
  const source = await newPlace('source', { migrated: true });
  const email = `backed.up.${crypto.randomBytes(3).toString('hex')}@example.com`;
  const bytes = crypto.randomBytes(200_000); // incompressible, as a JPEG is
  const imageKey = newKey('photos', 'jpg');
  const { memberId, listingId, photoId } = await withDb(source, async (db) => {
    const [member] = await db('profiles').insert({ email, password_hash: 'x', full_name: 'Backed Up' }).returning('id');
    const listing = await createListing(db);
    await db('favourites').insert({ profile_id: member.id, listing_id: listing });
    const photo = await createPhoto(db, { profile_id: member.id, image_key: imageKey, title: 'Kept' });
    return { memberId: member.id as number, listingId: listing, photoId: photo };
  });
  const storage = createLocalStorage(source.mediaDir);
  await storage.put(imageKey, bytes);
  fs.writeFileSync(path.join(source.mediaDir, 'photos', 'half-written.jpg.123.tmp'), 'x'); // an upload in progress

  const file = await createBackup(source, path.join(tmp, 'backups'), new Date('2026-11-27T06:42:21.500Z'));
  expect(path.basename(file)).toBe('guide-backup-20261127T064221Z.tar.gz');
  expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]); // no staging left behind

  const target = await newPlace('target', { migrated: false });
  const done = await restoreBackup(target, { file, force: false });
  expect(done).toEqual([expect.stringMatching(/^database restored/), `media restored into ${target.mediaDir}`]);

  const found = await withDb(target, async (db) => ({
    member: await db('profiles').where({ email }).first('id', 'full_name'),
    favourites: await db('favourites').where({ profile_id: memberId }).select('listing_id'),
    photo: await db('photos').where({ id: photoId }).first('profile_id', 'image_key', 'title'),
  }));
  expect(found).toEqual({
    member: { id: memberId, full_name: 'Backed Up' },
    favourites: [{ listing_id: listingId }],
    photo: { profile_id: memberId, image_key: imageKey, title: 'Kept' },
  });
  expect(Buffer.compare((await createLocalStorage(target.mediaDir).get(imageKey))!, bytes)).toBe(0);
  expect(fs.existsSync(path.join(target.mediaDir, 'photos', 'half-written.jpg.123.tmp'))).toBe(false);

  // Again into the same place: refused, nothing changed; with --force, replaced.
  await withDb(target, (db) => db('profiles').where({ id: memberId }).update({ full_name: 'Changed since' }));
  await expect(restoreBackup(target, { file, force: false })).rejects.toThrow(/^Refusing to overwrite: .* and .*media holds files\. .*--force/);
  expect(await withDb(target, (db) => db('profiles').where({ id: memberId }).first('full_name'))).toEqual({ full_name: 'Changed since' });

  await restoreBackup(target, { file, force: true });
  expect(await withDb(target, (db) => db('profiles').where({ email }).select('id', 'full_name'))).toEqual([{ id: memberId, full_name: 'Backed Up' }]);
  expect(Buffer.compare(fs.readFileSync(path.join(target.mediaDir, imageKey)), bytes)).toBe(0);
  // What --force replaced on disk is kept aside, not deleted.
  const aside = fs.readdirSync(target.dataDir).filter((n) => n.includes('before-restore')).sort();
  expect(aside).toEqual(pgUrl ? [expect.stringMatching(/^media\.before-restore-/)] : [expect.stringMatching(/^media\.before-restore-/), expect.stringMatching(/^pglite\.before-restore-/)]);
});
