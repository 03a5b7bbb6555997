import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { DbHandle } from '../../server/db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { httpRequest, type ServerProcess } from './server-process';
import { startProductionServerProcess, type SecureMember } from './production-server';

// Several production server processes on one new PostgreSQL test database, as a deployment runs
// them: one session secret (a cookie one process set is read by all), each process with its own
// caches. The multi-process cache tests (photos' visible-everywhere, listings' keyed forgetting)
// start here, and share what they do around a change: a member's photos to remove, the wait until
// every process stops listing one, and the figure they check.

export interface ProcessesOnOneDatabase {
  db: Knex;
  processes: ServerProcess[];
  close(): Promise<void>;
}

export async function startProcessesOnOneDatabase(count: number, env: Record<string, string> = {}): Promise<ProcessesOnOneDatabase> {
  const handle: DbHandle = await openTestDatabase();
  const processes: ServerProcess[] = [];
  const close = async () => {
    await Promise.all(processes.map((p) => p.dispose()));
    await handle.close();
  };
  try {
    const database = (await handle.db.raw('select current_database() as name')).rows[0].name as string;
    const databaseUrl = withDatabase(testDatabaseUrl()!, database);
    const sessionSecret = crypto.randomBytes(48).toString('base64url');
    for (let i = 0; i < count; i++) processes.push(await startProductionServerProcess({ databaseUrl, env: { SESSION_SECRET: sessionSecret, RATE_LIMITS: 'false', ...env } }));
  } catch (e) {
    await close();
    throw e;
  }
  return { db: handle.db, processes, close };
}

/** `count` photos of a place by the member, straight into the table; answers their ids in order. */
export async function insertMemberPhotos(db: Knex, member: SecureMember, listingId: number, count: number, keyPrefix: string): Promise<number[]> {
  const { id: profileId } = await db('profiles').where({ email: member.email }).first('id');
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const [row] = await db('photos')
      .insert({ profile_id: profileId, listing_id: listingId, title: `Photo ${i}`, description: '', image_key: `photos/${keyPrefix}-${i}.jpg`, width: 800, height: 600, creation_date: new Date() })
      .returning('id');
    ids.push(Number(row.id ?? row));
  }
  return ids;
}

/** The ids a process lists in a place's photo list, asked as a guest through the HTTPS proxy. */
export async function listedPhotos(p: ServerProcess, listingId: number): Promise<number[]> {
  const answer = await httpRequest(p.port, `/api/v2/photos/?listing=${listingId}`, { headers: { 'X-Forwarded-Proto': 'https' } });
  return (JSON.parse(answer.body).results as Array<{ id: number }>).map((r) => r.id);
}

/** Polls until `p` no longer lists the photo; answers the milliseconds since `t0`. Fails after `waitMs`, a bound for a busy machine. */
export async function msUntilUnlisted(p: ServerProcess, listingId: number, photoId: number, t0: number, waitMs: number): Promise<number> {
  while ((await listedPhotos(p, listingId)).includes(photoId)) {
    if (Date.now() > t0 + waitMs) throw new Error(`process on port ${p.port} still lists photo ${photoId} after ${waitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - t0;
}

/** The p50, p99 and max of the delays measured, logged with `what`; answers the p99. */
export function reportDelays(what: string, delays: number[]): number {
  const sorted = [...delays].sort((x, y) => x - y);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
  console.log(`${what}, ${sorted.length} samples: p50 ${sorted[Math.floor(sorted.length / 2)]} ms, p99 ${p99} ms, max ${sorted.at(-1)} ms`);
  return p99;
}
