import type { Knex } from 'knex';
import { createArticle, createListing } from '../../testing/fixtures';
import { KEEP_ANSWERS_FROM } from '../../db/answer-cache';
import { httpRequest, type ServerProcess } from '../../../test/process/server-process';
import { signUpSecure, type SecureMember } from '../../../test/process/production-server';
import { insertMemberPhotos, listedPhotos, msUntilUnlisted, reportDelays, startProcessesOnOneDatabase } from '../../../test/process/processes-on-one-database';

// Issue 40, "one truth for every cache", keyed: a change forgets only what shows what it
// changed, on every process. Three production processes (each with its own page cache, which
// keeps an answer 10 s) on one PostgreSQL database. A member removes a photo of place A, in
// turn through each process: every process stops listing it within 2 s (p99), told through
// LISTEN/NOTIFY with the change's keys (place-A, its hub, places, photos), while place B's
// answer, kept on every process before the change, is still served from the page cache on
// every process after the change reached it (its Surrogate-Key names place-B only). The shared
// answers too: a member's list of stories (which the page cache never serves a member, and
// which is kept per process, db/answer-cache.ts) is still the kept one after the change, as its
// Server-Timing query count shows; before keys, every change dropped every shared answer.

jest.setTimeout(240_000);

const PROCESSES = 3;
const REMOVALS = 6;
const TARGET_P99_MS = 2_000;
/** A bound for the wait itself on a busy machine; the figure is checked against the target. */
const WAIT_MS = 30_000;

describe('a change forgets what shows it on every process, and only that (three processes, PostgreSQL)', () => {
  let db: Knex;
  let processes: ServerProcess[] = [];
  let close = async () => {};

  beforeAll(async () => {
    ({ db, processes, close } = await startProcessesOnOneDatabase(PROCESSES, { SERVER_TIMING: 'true' }));
  });

  afterAll(() => close());

  test(`a photo removed from one place leaves it everywhere within ${TARGET_P99_MS} ms (p99); another place stays cached everywhere`, async () => {
    // Places of two types: neither's hub key names the other.
    const changed = await createListing(db);
    const other = await createListing(db);
    const member: SecureMember = await signUpSecure(processes[0].port);
    const photoIds = await insertMemberPhotos(db, member, changed, REMOVALS, 'keyed');
    const get = (p: ServerProcess, url: string) => httpRequest(p.port, url, { headers: { 'X-Forwarded-Proto': 'https' } });
    const photoList = (p: ServerProcess) => get(p, `/api/v2/photos/?listing=${changed}`);
    const listed = (p: ServerProcess) => listedPhotos(p, changed);
    const otherPlace = (p: ServerProcess) => get(p, `/api/v2/listings/${other}/`);
    // Enough stories for their list to be kept (db/answer-cache.ts keeps long lists only).
    for (let i = 0; i < KEEP_ANSWERS_FROM + 5; i++) await createArticle(db);
    const queriesOf = (answer: { headers: Record<string, string | string[] | undefined> }) => Number(/db;desc="(\d+) queries"/.exec(String(answer.headers['server-timing']))?.[1]);
    const stories = async (p: ServerProcess) => {
      const answer = await httpRequest(p.port, '/api/v2/articles/', { headers: member.headers });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-guest-cache']).toBeUndefined(); // a member's: computed or taken from the shared answers
      return queriesOf(answer);
    };
    /** The minute the answers are kept for: a kept list of stories is per minute. */
    const minute = () => Math.floor(Date.now() / 60_000);
    let storiesChecked = 0;

    const delays: number[] = [];
    for (const [i, photoId] of photoIds.entries()) {
      // Every process keeps both answers (hits from its page cache); the other place's names only it.
      // And a member's list of stories is kept: read again, it runs fewer queries than computed.
      const keptStories = new Map<ServerProcess, { queries: number; minute: number }>();
      for (const p of processes) {
        const first = await stories(p);
        const at = minute();
        const again = await stories(p);
        // The first round computes it (later rounds find it still kept: no change dropped it).
        if (i === 0) expect(again).toBeLessThan(first);
        keptStories.set(p, { queries: again, minute: at });
        expect(await listed(p)).toContain(photoId);
        expect((await photoList(p)).headers['x-guest-cache']).toBe('hit');
        expect((await otherPlace(p)).status).toBe(200);
        const kept = await otherPlace(p);
        expect(kept.headers['x-guest-cache']).toBe('hit');
        expect(kept.headers['surrogate-key']).toBe(`place-${other}`);
      }
      const through = processes[i % PROCESSES];
      const removed = await httpRequest(through.port, `/api/v2/photos/${photoId}/`, { method: 'DELETE', headers: member.jsonHeaders });
      expect(removed.status).toBe(204);
      const t0 = Date.now();
      await Promise.all(
        processes.map(async (p) => {
          delays.push(await msUntilUnlisted(p, changed, photoId, t0, WAIT_MS));
          // The notice reached this process (it forgot the changed place's list): the other
          // place's answer is still the one it kept.
          expect((await otherPlace(p)).headers['x-guest-cache']).toBe('hit');
          // The member's list of stories too (a photo's change names no story), unless a new
          // minute began meanwhile (the answer is then made again for the new minute).
          const kept = keptStories.get(p)!;
          const queries = await stories(p);
          if (minute() === kept.minute) {
            expect(queries).toBeLessThanOrEqual(kept.queries);
            storiesChecked += 1;
          }
        }),
      );
    }
    const p99 = reportDelays(`keyed staleness after a change over ${PROCESSES} processes`, delays);
    expect(delays).toHaveLength(REMOVALS * PROCESSES);
    // A minute boundary skips a round at most.
    expect(storiesChecked).toBeGreaterThanOrEqual((REMOVALS - 1) * PROCESSES);
    expect(p99).toBeLessThanOrEqual(TARGET_P99_MS);
  });
});
