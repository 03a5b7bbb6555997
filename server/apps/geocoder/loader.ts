import type { Db } from '../../db';
import { refreshAheadPerOwner } from '../../cache/refresh-ahead';
import { surrogateKeys } from '../../http/surrogate-keys';
import { GAZETTEER_REFRESH_AFTER_MS, GAZETTEER_TTL_MS } from '../../cache/lifetimes';
import { buildGazetteer, type Gazetteer } from './gazetteer';
import { readGazetteerRows } from './gazetteer-queries';

// One gazetteer per process and database, read on first use and kept: places, stations and
// neighbourhoods change with an import or a seed, not by the minute, and reading 15,000
// listings (about 100 ms) on every look-up would cost more than the look-up. After
// GAZETTEER_REFRESH_AFTER_MS a look-up still answers from it and a new one is read in the
// background; none is served older than GAZETTEER_TTL_MS (a look-up then waits for the read).
// A failed background read keeps the one we have until it expires; the next look-up tries
// again. The policy is the refresh-ahead cache's (cache/refresh-ahead.ts); catalogued as
// 'gazetteer' (cache/catalogue.ts). A change naming place-locations drops it (app.ts forgets
// the per-database caches by a change's keys): a place added, renamed or moved is found at
// once, on every process. Every other change keeps it, a place's hours or accessibility too:
// reading every place again costs ~100 ms a process. Stations and neighbourhoods change with
// an import, which restarts the processes.

const KEY = 'gazetteer';
/** What it holds, as Surrogate-Key keys (http/surrogate-keys.ts): where places are and their names. */
const SHOWS = [surrogateKeys.placeLocations];

const cacheFor = refreshAheadPerOwner<Gazetteer>({
  name: 'gazetteer',
  ttlMs: GAZETTEER_TTL_MS,
  refreshAfterMs: GAZETTEER_REFRESH_AFTER_MS,
  maxEntries: 1,
  onRefreshError: 'keep',
  // Look-ups arriving together on a cold process read it once.
  shareFirstLoad: true,
});

async function load(db: Db): Promise<Gazetteer> {
  return buildGazetteer(await readGazetteerRows(db));
}

export function gazetteerFor(db: Db, now = Date.now()): Promise<Gazetteer> {
  return cacheFor(db).get(KEY, () => load(db), { now, tags: SHOWS });
}

/** Forgets the kept gazetteer (tests that change the data after a look-up). */
export function forgetGazetteer(db: Db): void {
  cacheFor(db).invalidate(KEY);
}
