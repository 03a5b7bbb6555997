import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { noiseJpeg } from '../../server/apps/media/test-images';
import { openDatabase, type Db, type DbHandle } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { createListing } from '../../server/testing/fixtures';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { waitFor } from '../../server/testing/wait-for';
import type { ServerProcess } from './server-process';
import { signUpSecure, startProductionServerProcess, type SecureMember } from './production-server';

// SIGTERM (a deploy, a scale-in) while a member's five photo uploads are in flight: the
// production server process finishes every one (201), keeps each photo's file in
// DATA_DIR/media beside its row with nothing half-written left there, and exits 0. On the
// suite's database: PGlite, or PostgreSQL with TEST_DATABASE_URL.

jest.setTimeout(180_000);

const UPLOADS = 5;
/** Generous bounds for what takes a few seconds: each fails the test when it runs out. */
const WAIT_MS = 60_000;

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

interface Upload {
  /** The server has the request (it answered `100 Continue` to its headers). */
  received: boolean;
  answer?: { status: number; connection?: string; body: string } | { error: string };
  send(): void;
}

describe('SIGTERM with five photo uploads in flight (production server process)', () => {
  let dataDir: string;
  let pgDatabase: DbHandle | undefined;
  let databaseUrl: string | undefined;
  let listing: number;
  let server: ServerProcess | undefined;
  let member: SecureMember;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-sigterm-uploads-'));
    // A listing to upload to, written before the process starts (PGlite's data directory is
    // then the process's alone).
    if (testDatabaseUrl()) {
      pgDatabase = await openTestDatabase();
      listing = await createListing(pgDatabase.db);
      const name = (await pgDatabase.db.raw('select current_database() as name')).rows[0].name as string;
      await pgDatabase.db.destroy(); // the process is the database's only client
      databaseUrl = withDatabase(testDatabaseUrl()!, name);
    } else {
      const handle = await openDatabase({ dataDir });
      try {
        await migrateLatest(handle.db);
        listing = await createListing(handle.db);
      } finally {
        await handle.close();
      }
    }
    // The grace as long as the waits here: on a busy machine five uploads can outlast the default
    // 9 s, after which they are cut off by design; this test is about finishing them.
    server = await startProductionServerProcess({ databaseUrl, env: { DATA_DIR: dataDir, SHUTDOWN_GRACE_SECONDS: String(WAIT_MS / 1000) } });
    member = await signUpSecure(server.port);
  });

  afterAll(async () => {
    await server?.dispose();
    await pgDatabase?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The photos table, read once the process has gone (and released PGlite's data directory). */
  async function photoRows(): Promise<{ id: number; image_key: string }[]> {
    const read = (db: Db) => db('photos').where({ listing_id: listing }).orderBy('id').select('id', 'image_key');
    if (databaseUrl) {
      const db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
      try {
        return await read(db);
      } finally {
        await db.destroy();
      }
    }
    const handle = await openDatabase({ dataDir });
    try {
      return await read(handle.db);
    } finally {
      await handle.close();
    }
  }

  test('answers all five 201, keeps each photo with its file and nothing half-written, and exits 0', async () => {
    const port = server!.port;
    // Real photos, each its own: noise does not compress, so each is ~1.5 MB of JPEG to decode.
    const photos = await Promise.all(Array.from({ length: UPLOADS }, () => noiseJpeg(1_500_000)));

    // Each upload asks `Expect: 100-continue`, as curl does for a large body: the server's
    // `100 Continue` says it has the request (in flight: its graceful close must finish it),
    // and only then is the body sent.
    const uploads: Upload[] = photos.map((photo, i) => {
      const body = JSON.stringify({ image: photo.toString('base64'), title: `Upload ${i + 1}`, listing });
      const upload: Upload = { received: false, send: () => req.end(body) };
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v2/photos/',
          method: 'POST',
          agent: false,
          headers: { ...member.jsonHeaders, 'Content-Length': String(Buffer.byteLength(body)), Expect: '100-continue' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => (upload.answer = { status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
          res.on('error', (err) => (upload.answer = { error: err.message }));
        },
      );
      req.on('continue', () => (upload.received = true));
      req.on('error', (err: NodeJS.ErrnoException) => (upload.answer ??= { error: err.code ?? err.message }));
      req.flushHeaders();
      return upload;
    });
    await waitFor('the server to have all five uploads', () => uploads.every((u) => u.received || u.answer), WAIT_MS);
    expect(uploads.map((u) => u.answer)).toEqual(uploads.map(() => undefined));

    // The five bodies go out and SIGTERM follows at once: nothing has been answered yet.
    for (const upload of uploads) upload.send();
    server!.child.kill('SIGTERM');
    expect(uploads.filter((u) => u.answer)).toEqual([]);

    await waitFor('all five uploads to be answered', () => uploads.every((u) => u.answer), WAIT_MS);
    const answers = uploads.map((u) => u.answer!);
    expect(answers.map((a) => ('status' in a ? a.status : a.error))).toEqual(uploads.map(() => 201));
    const ids = answers.map((a) => ('body' in a ? (JSON.parse(a.body) as { id: number }).id : 0));

    let exitCode: number | null | undefined;
    void server!.exited.then((code) => (exitCode = code));
    await waitFor('the process to exit', () => exitCode !== undefined, WAIT_MS);
    expect(exitCode).toBe(0);
    expect(server!.output()).not.toMatch(/cut off|request failed|unhandled promise rejection/);

    // One row per answer, each with its file; no other file and no temporary one in the media
    // directory, none in the renditions' cache either.
    const rows = await photoRows();
    expect(rows.map((r) => Number(r.id))).toEqual([...ids].sort((a, b) => a - b));
    expect(filesUnder(path.join(dataDir, 'media'))).toEqual(rows.map((r) => r.image_key).sort());
    expect(filesUnder(path.join(dataDir, 'media-cache')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
