import type { Knex } from 'knex';
import { refreshAheadPerOwner } from '../cache/refresh-ahead';

// Counting every match is the slow half of a list at city scale (100k articles: a full scan
// per request), and the number barely moves. Large counts are kept for a few seconds, per
// database and per exact SQL; small ones (under LARGE_COUNT rows, cheap to count) are always
// fresh, so a just-saved item shows up at once wherever a list is short.
//
// Under load a plain expiry makes every request that arrives in the same instant recount
// (twenty concurrent 90 ms counts on two cores is a two-second stall every 15 s). So:
// - refresh ahead: a hit older than REFRESH_AFTER_MS answers at once and recounts in the
//   background, so a count that is read steadily never expires in a reader's path. A value
//   is still never older than COUNT_TTL_MS plus one count's duration;
// - single flight: a large count that did expire is computed once, and the requests that
//   ask for it meanwhile wait for that one query. (Unknown or small counts are never shared:
//   each request counts for itself, after its own writes.)
//
// cachedValue() is the same policy for any expensive, slowly-changing result (site search's
// ranked candidates), keyed by the caller. The policy is the refresh-ahead cache's
// (cache/refresh-ahead.ts), one per database; a failed background recount forgets the value
// rather than serving a stale one. Catalogued as 'large-counts' (cache/catalogue.ts).

export const LARGE_COUNT = 1000;
export const COUNT_TTL_MS = 15_000;
export const REFRESH_AFTER_MS = 10_000;
export const COUNT_CACHE_MAX_ENTRIES = 2000;

const cacheFor = refreshAheadPerOwner<unknown>({
  name: 'large-counts',
  ttlMs: COUNT_TTL_MS,
  refreshAfterMs: REFRESH_AFTER_MS,
  maxEntries: COUNT_CACHE_MAX_ENTRIES,
  onRefreshError: 'forget',
  // Unknown or small counts are never shared: each request counts for itself, after its own writes.
  shareFirstLoad: false,
});

/**
 * Content changed (cache/change-notices.ts): forgets the values kept for this database whose
 * tags name one of these keys, and those kept without tags; no keys: every value. Answers how many went.
 */
export function forgetCounts(db: object, keys?: readonly string[]): number {
  return cacheFor(db).forget(keys);
}

/** How cachedCount keeps a count: the clock (tests move it) and what the count shows. */
export interface CountOptions {
  /** The time of the read, Date.now() unless given. */
  now?: number;
  /**
   * The Surrogate-Key keys of what it counts or ranks (http/surrogate-keys.ts), so that only a
   * change naming one drops it; unset, any change does; [] for data no change announces.
   */
  tags?: readonly string[];
}

/** cachedValue's options: CountOptions, and `keep(value)`, whether a value is worth keeping. */
export interface CachedValueOptions<T> extends CountOptions {
  keep: (value: T) => boolean;
}

/**
 * `compute()`'s value, kept for COUNT_TTL_MS when `keep(value)` says it is worth keeping,
 * refreshed ahead in the background while it is being read, computed once at a time.
 */
export function cachedValue<T>(db: object, key: string, compute: () => Promise<T>, { keep, now = Date.now(), tags }: CachedValueOptions<T>): Promise<T> {
  return cacheFor(db).get(key, compute, { keep: keep as (value: unknown) => boolean, now, tags }) as Promise<T>;
}

/** Runs `query` (a builder answering one row with a `count` column) unless a fresh large count is cached. */
export async function cachedCount(db: Knex | Knex.Transaction, query: Knex.QueryBuilder, { now, tags }: CountOptions = {}): Promise<number> {
  const { sql, bindings } = query.toSQL();
  const key = `${sql}\u0000${JSON.stringify(bindings)}`;
  return cachedValue(
    db,
    key,
    async () => {
      // A fresh builder each time: a background refresh must not reuse a consumed one.
      const [row] = (await query.clone()) as Array<{ count: number | string }>;
      return Number(row?.count ?? 0);
    },
    { keep: (count) => count >= LARGE_COUNT, now, tags },
  );
}

/**
 * "Now" to the minute, for visibility filters (published by now, not over by now): the same
 * SQL for a whole minute, so its count can be cached; a scheduled article appears within it.
 */
export function minuteFloor(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
}
