// How long the apps' caches keep what they keep (and the navbar's, whose module moves), named
// here so that the code and the cache catalogue (catalogue.ts, in the core, which may not import
// an app) use the same constant. The core's own caches keep theirs beside their code
// (db/count-cache.ts, db/answer-cache.ts, http/guest-response-cache.ts ...).

/**
 * The home's lists, per app: a render that misses the page cache (a member, a guest with
 * another cookie) runs no query of its own. A new article, or an event that ends, shows within
 * this time (the navbar's menus are kept as long).
 */
export const HOME_SECTIONS_TTL_MS = 60_000;

/** The navbar's menus (latest articles, reviews, listing types), per app: every page carries them. */
export const NAVBAR_MENUS_TTL_MS = 60_000;

/** The hub filters' choices, per app: they change when editors add a type or a feature. */
export const HUB_OPTIONS_TTL_MS = 60_000;

/** Boundaries change when the City redraws them, not per request: the city map is drawn once a while. */
export const CITY_MAP_TTL_MS = 10 * 60_000;

/** A neighbourhood's parsed boundary (~7 KB of JSON), per database, for the listing pages. */
export const NEIGHBOURHOOD_BOUNDARY_TTL_MS = 10 * 60_000;

/** The geocoder's gazetteer: never served older than this; refreshed in the background after the second. */
export const GAZETTEER_TTL_MS = 15 * 60_000;
export const GAZETTEER_REFRESH_AFTER_MS = 5 * 60_000;

/** The last static map images drawn, in memory (they are on disk too). */
export const STATIC_MAP_MEMORY_TTL_MS = 60 * 60_000;
/** The image depends on the place's coordinates, which an editor may move: a day, then revalidate. */
export const STATIC_MAP_CACHE_CONTROL = 'public, max-age=86400';
/** An extract is replaced by ops now and then under the same name: a day, then revalidate. */
export const PMTILES_CACHE_CONTROL = 'public, max-age=86400';

/** Renditions depend only on the key and the query, so a browser may keep them for a year. */
export const RENDITION_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** An original could be replaced under the same key (a re-seed), so it is kept for a day. */
export const ORIGINAL_CACHE_CONTROL = 'public, max-age=86400';
