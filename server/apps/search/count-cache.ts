import type { Knex } from 'knex';

// Counting every match is the slow half of a list at city scale (100k articles: a full scan
// per request), and the number barely moves. Large counts are kept for a few seconds, per
// database and per exact SQL; small ones (under LARGE_COUNT rows, cheap to count) are always
// fresh, so a just-saved item shows up at once wherever a list is short.

export const LARGE_COUNT = 1000;
export const COUNT_TTL_MS = 15_000;
const MAX_ENTRIES = 2000;

type Entry = { count: number; expires: number };
const caches = new WeakMap<object, Map<string, Entry>>();

/** Runs `query` (a builder answering one row with a `count` column) unless a fresh large count is cached. */
export async function cachedCount(db: Knex | Knex.Transaction, query: Knex.QueryBuilder, now = Date.now()): Promise<number> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const { sql, bindings } = query.toSQL();
  const key = `${sql}\u0000${JSON.stringify(bindings)}`;
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.count;
  const [row] = (await query) as Array<{ count: number | string }>;
  const count = Number(row?.count ?? 0);
  if (count >= LARGE_COUNT) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { count, expires: now + COUNT_TTL_MS });
  } else if (hit) {
    cache.delete(key);
  }
  return count;
}

/**
 * "Now" to the minute, for visibility filters (published by now, not over by now): the same
 * SQL for a whole minute, so its count can be cached; a scheduled article appears within it.
 */
export function minuteFloor(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
}
