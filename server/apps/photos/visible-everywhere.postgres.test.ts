import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { DbHandle } from '../../db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../testing/test-db';
import { createListing } from '../../testing/fixtures';
import { httpRequest, type ServerProcess } from '../../../test/process/server-process';
import { signUpSecure, startProductionServerProcess, type SecureMember } from '../../../test/process/production-server';

// Issue 40, "one truth for every cache", with three real server processes (production mode:
// each keeps its own page cache, which holds a guest's photo list for 10 s) on one PostgreSQL
// database. A member removes a photo through one process, in turn through each; every process,
// the one that made the change included, stops listing it within 2 s (p99), told through
// LISTEN/NOTIFY (cache/change-notices.ts). Before each removal the list is a cache hit on all
// three, so only the notice can explain the fresh answer: by age it would be up to 10 s.

jest.setTimeout(240_000);

const PROCESSES = 3;
const REMOVALS = 9;
const TARGET_P99_MS = 2_000;
/** A bound for the wait itself on a busy machine; the figure is checked against the target. */
const WAIT_MS = 30_000;

describe('a change made through one process reaches every process’s caches (three processes, PostgreSQL)', () => {
  let handle: DbHandle;
  let db: Knex;
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    handle = await openTestDatabase();
    db = handle.db;
    const database = (await db.raw('select current_database() as name')).rows[0].name as string;
    const databaseUrl = withDatabase(testDatabaseUrl()!, database);
    const sessionSecret = crypto.randomBytes(48).toString('base64url');
    for (let i = 0; i < PROCESSES; i++) processes.push(await startProductionServerProcess({ databaseUrl, env: { SESSION_SECRET: sessionSecret, RATE_LIMITS: 'false' } }));
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.dispose()));
    await handle?.close();
  });

  test(`a removed photo leaves every process’s photo list within ${TARGET_P99_MS} ms (p99)`, async () => {
    const listing = await createListing(db);
    const member: SecureMember = await signUpSecure(processes[0].port);
    const { id: profileId } = await db('profiles').where({ email: member.email }).first('id');
    const photoIds: number[] = [];
    for (let i = 0; i < REMOVALS; i++) {
      const [row] = await db('photos')
        .insert({ profile_id: profileId, listing_id: listing, title: `Photo ${i}`, description: '', image_key: `photos/test-${i}.jpg`, width: 800, height: 600, creation_date: new Date() })
        .returning('id');
      photoIds.push(Number(row.id ?? row));
    }
    const list = (p: ServerProcess) => httpRequest(p.port, `/api/v2/photos/?listing=${listing}`, { headers: { 'X-Forwarded-Proto': 'https' } });
    const listed = async (p: ServerProcess): Promise<number[]> => (JSON.parse((await list(p)).body).results as Array<{ id: number }>).map((r) => r.id);

    const delays: number[] = [];
    for (const [i, photoId] of photoIds.entries()) {
      // Every process holds the list with the photo in it (a hit: its page cache serves it).
      for (const p of processes) {
        expect(await listed(p)).toContain(photoId);
        const again = await list(p);
        expect(again.headers['x-guest-cache']).toBe('hit');
        expect((JSON.parse(again.body).results as Array<{ id: number }>).map((r) => r.id)).toContain(photoId);
      }
      const through = processes[i % PROCESSES];
      const removed = await httpRequest(through.port, `/api/v2/photos/${photoId}/`, { method: 'DELETE', headers: member.jsonHeaders });
      expect(removed.status).toBe(204);
      const t0 = Date.now();
      await Promise.all(
        processes.map(async (p) => {
          const deadline = t0 + WAIT_MS;
          while ((await listed(p)).includes(photoId)) {
            if (Date.now() > deadline) throw new Error(`process on port ${p.port} still lists photo ${photoId} after ${WAIT_MS} ms`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          delays.push(Date.now() - t0);
        }),
      );
    }
    delays.sort((x, y) => x - y);
    const p99 = delays[Math.min(delays.length - 1, Math.ceil(delays.length * 0.99) - 1)];
    console.log(`staleness after a change, ${delays.length} samples over ${PROCESSES} processes: p50 ${delays[Math.floor(delays.length / 2)]} ms, p99 ${p99} ms, max ${delays.at(-1)} ms`);
    expect(delays).toHaveLength(REMOVALS * PROCESSES);
    expect(p99).toBeLessThanOrEqual(TARGET_P99_MS);
  });
});
