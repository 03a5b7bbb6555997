import { refreshAheadPerOwner } from '../cache/refresh-ahead';

// Whole answers of the public lists and site search that are the same for everybody, kept
// for a few seconds per database: at city scale, for a member or a guest with any cookie
// besides csrftoken (whom the guest response cache does not serve), every request ran the
// list's queries again — at 20 connections on two cores the database's share alone put p99
// over 50 ms. Callers key an answer by everything it depends on and add what is personal
// (a member's own ratings) after.
//
// The policy is the refresh-ahead cache's (cache/refresh-ahead.ts, one per database), as in
// count-cache.ts and for the same reasons; catalogued as 'shared-answers' (cache/catalogue.ts):
// - only answers worth it are kept (`keep`: the lists keep those with KEEP_ANSWERS_FROM
//   matches or more, where one more or less is no news); a short list stays exact at once
//   after a write (a just-approved event on a quiet day), and tests' small fixtures always
//   read fresh. A box on the map or a subway stop's 85 places are not short: computed for
//   every request they cost 3 ms of CPU each, the kept answer 0.7;
// - refresh ahead: from ANSWER_REFRESH_AFTER_MS on, a hit answers at once and a new answer
//   loads in the background, one at a time, so an answer read steadily never expires in a
//   reader's path; a value is never older than ANSWER_TTL_MS plus one load;
// - answers that depend on the time carry the minute they were computed for (`minute`, the
//   visibility filters' "now" floored). When the minute changes, the previous minute's answer
//   is served while the new one loads: a crowd never waits on that either.
// An answer never kept before is computed by each request for itself (after its own writes),
// and a failed background load forgets the answer rather than keeping it.

export const ANSWER_TTL_MS = 10_000;
/** Lists with fewer matches are always computed (see above). */
export const KEEP_ANSWERS_FROM = 50;
export const ANSWER_REFRESH_AFTER_MS = 4_000;
export const ANSWER_CACHE_MAX_ENTRIES = 2000;

const cacheFor = refreshAheadPerOwner<unknown>({
  name: 'shared-answers',
  ttlMs: ANSWER_TTL_MS,
  refreshAfterMs: ANSWER_REFRESH_AFTER_MS,
  maxEntries: ANSWER_CACHE_MAX_ENTRIES,
  onRefreshError: 'forget',
  // An answer never kept before is computed by each request for itself (after its own writes).
  shareFirstLoad: false,
});

export interface SharedAnswerOptions<T> {
  /** Whether an answer is worth keeping. */
  keep: (value: T) => boolean;
  /** For answers that depend on the time: the minute (floored "now") they are computed for. */
  minute?: Date;
  /**
   * The Surrogate-Key keys of what the answer shows (http/surrogate-keys.ts: `places`,
   * `events`, a section's): only a change naming one drops it. Unset: any change does.
   */
  tags?: readonly string[];
}

/**
 * Content changed (cache/change-notices.ts): forgets the answers kept for this database that
 * show what it names (their tags), and those kept without tags; a change naming no keys
 * forgets every answer. Answers how many went.
 */
export function forgetSharedAnswers(db: object, keys?: readonly string[]): number {
  return cacheFor(db).forget(keys);
}

/** `compute()`'s answer for `key`, or the one kept for it (see above). */
export function sharedAnswer<T>(db: object, key: string, compute: () => Promise<T>, opts: SharedAnswerOptions<T>): Promise<T> {
  const at = (minute: number | undefined) => (minute === undefined ? key : `${minute}\u0000${key}`);
  const minute = opts.minute?.getTime();
  // The previous minute's answer is served while this minute's loads.
  const fallbackKey = minute === undefined ? undefined : at(minute - 60_000);
  return cacheFor(db).get(at(minute), compute, { keep: opts.keep as (value: unknown) => boolean, fallbackKey, tags: opts.tags }) as Promise<T>;
}
