import type { Knex } from 'knex';
import { createListing } from '../../testing/fixtures';
import { httpRequest, type ServerProcess } from '../../../test/process/server-process';
import { signUpSecure, type SecureMember } from '../../../test/process/production-server';
import { insertMemberPhotos, listedPhotos, msUntilUnlisted, reportDelays, startProcessesOnOneDatabase } from '../../../test/process/processes-on-one-database';

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
  let db: Knex;
  let processes: ServerProcess[] = [];
  let close = async () => {};

  beforeAll(async () => {
    ({ db, processes, close } = await startProcessesOnOneDatabase(PROCESSES));
  });

  afterAll(() => close());

  test(`a removed photo leaves every process’s photo list within ${TARGET_P99_MS} ms (p99)`, async () => {
    const listing = await createListing(db);
    const member: SecureMember = await signUpSecure(processes[0].port);
    const photoIds = await insertMemberPhotos(db, member, listing, REMOVALS, 'test');
    const list = (p: ServerProcess) => httpRequest(p.port, `/api/v2/photos/?listing=${listing}`, { headers: { 'X-Forwarded-Proto': 'https' } });
    const listed = (p: ServerProcess) => listedPhotos(p, listing);

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
      await Promise.all(processes.map(async (p) => delays.push(await msUntilUnlisted(p, listing, photoId, t0, WAIT_MS))));
    }
    const p99 = reportDelays(`staleness after a change over ${PROCESSES} processes`, delays);
    expect(delays).toHaveLength(REMOVALS * PROCESSES);
    expect(p99).toBeLessThanOrEqual(TARGET_P99_MS);
  });
});
