import type { Db } from '../../db';
import { MemoryCache } from '../../cache/memory-cache';
import { buildGazetteer, type Gazetteer, type GazetteerRows } from './gazetteer';

// One gazetteer per process and database, read on first use and kept: places, stations and
// neighbourhoods change with an import or a seed, not by the minute, and reading 15,000
// listings (about 100 ms) on every look-up would cost more than the look-up. After
// REFRESH_AFTER_MS a look-up still answers from it and a new one is read in the background;
// none is served older than TTL_MS (a look-up then waits for the read).

export const TTL_MS = 15 * 60_000;
export const REFRESH_AFTER_MS = 5 * 60_000;
const KEY = 'gazetteer';

const caches = new WeakMap<object, MemoryCache<string, Gazetteer>>();

export async function readGazetteerRows(db: Db): Promise<GazetteerRows> {
  const [listings, stations, neighbourhoods] = await Promise.all([
    db('listings').whereNotNull('latitude').whereNotNull('longitude').select('name', 'address', 'latitude', 'longitude'),
    db('subway_stops').select('name', 'latitude', 'longitude'),
    db('neighbourhoods').select('name', 'label_latitude as latitude', 'label_longitude as longitude'),
  ]);
  return { listings, stations, neighbourhoods };
}

async function load(db: Db): Promise<Gazetteer> {
  return buildGazetteer(await readGazetteerRows(db));
}

export async function gazetteerFor(db: Db, now = Date.now()): Promise<Gazetteer> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new MemoryCache<string, Gazetteer>({ ttlMs: TTL_MS, maxEntries: 1 })));
  const age = cache.ageOf(KEY, now);
  const kept = cache.get(KEY, now);
  if (kept) {
    if (age !== undefined && age >= REFRESH_AFTER_MS && !cache.loading(KEY)) {
      // A failed refresh keeps the one we have until it expires; the next look-up tries again.
      cache.refresh(KEY, () => load(db)).catch(() => undefined);
    }
    return kept;
  }
  return cache.load(KEY, () => load(db), { now });
}

/** Forgets the kept gazetteer (tests that change the data after a look-up). */
export function forgetGazetteer(db: Db): void {
  caches.get(db)?.delete(KEY);
}
