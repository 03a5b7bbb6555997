import { ANSWER_CACHE_MAX_ENTRIES, ANSWER_REFRESH_AFTER_MS, ANSWER_TTL_MS, KEEP_ANSWERS_FROM } from '../db/answer-cache';
import { COUNT_CACHE_MAX_ENTRIES, COUNT_TTL_MS, LARGE_COUNT, REFRESH_AFTER_MS } from '../db/count-cache';
import { GUEST_RESPONSE_TTL_MS } from '../http/guest-response-cache';
import { COMPRESSED_COPY_TTL_MS } from '../http/compressed-answers';
import { CACHE_CONTROL } from '../http/pages/cache-policy';
import { API_CACHE_CONTROL } from '../http/api-cache-headers';
import {
  CITY_MAP_TTL_MS,
  GAZETTEER_REFRESH_AFTER_MS,
  GAZETTEER_TTL_MS,
  HOME_SECTIONS_TTL_MS,
  HUB_OPTIONS_TTL_MS,
  NAVBAR_MENUS_TTL_MS,
  NEIGHBOURHOOD_BOUNDARY_TTL_MS,
  ORIGINAL_CACHE_CONTROL,
  PMTILES_CACHE_CONTROL,
  RENDITION_CACHE_CONTROL,
  STATIC_MAP_CACHE_CONTROL,
  STATIC_MAP_MEMORY_TTL_MS,
} from './lifetimes';
import {
  ASSET_CACHE,
  ASSET_CACHE_MAX,
  GUEST_COPY_FRESH_MS,
  MEMBER_CACHE_PREFIX,
  OFFLINE_CACHE,
  PAGE_CACHE,
  PAGE_CACHE_MAX,
  STATIC_CACHE,
  STATIC_CACHE_MAX,
} from '../../shared/offline-caches';

// Every cache the site keeps, in one table: what it holds, how long, for whom, how it is
// invalidated and where its code is. Lifetimes are the constants the code itself uses
// (imported, never copied), and catalogue.test.ts checks the table against the code: each
// in-process cache the code builds has its entry and each entry names a live cache, each
// entry's constant is used where it says, and nginx's micro-cache is as long as it says.
// `npm run cache-table` (scripts/cache-table.ts) prints it as markdown for docs/performance.md.
//
// Read by tests and scripts only: the running server never imports it.

export type CacheKind = 'in-process' | 'http' | 'nginx' | 'service-worker' | 'disk';

/** Whose requests one entry of the cache serves. */
export type Audience = 'everybody' | 'guests' | 'guests and members' | 'one visitor' | 'one member';

/** How long an entry lives; `constant` is the name the code uses at `where`, which the test looks for. */
export type Lifetime =
  | { ttlMs: number; constant: string; refreshAfterMs?: number; refreshConstant?: string }
  /** A Cache-Control header: browsers and shared caches keep the answer as it says. */
  | { cacheControl: string; constant: string }
  /** deploy/nginx.conf.template's proxy_cache_valid. */
  | { nginxSeconds: number; constant: string }
  /** Kept until pushed out by newer entries (the service worker's caches). */
  | { maxEntries: number; constant: string; freshMs?: number; freshConstant?: string }
  /** Set by an app that the core cannot import: the constant, and the file that defines it. */
  | { passedIn: string; definedIn: string }
  /** No time limit: kept until invalidated (or the process ends). */
  | { untilInvalidated: true };

export interface CacheEntry {
  kind: CacheKind;
  holds: string;
  lifetime: Lifetime;
  forWhom: Audience;
  invalidation: string;
  /** The file that builds the cache or sends its header (repository path). */
  where: string;
  /** What bounds its size, when something does. */
  bound?: string;
}

export const CACHE_CATALOGUE = {
  // ## In process (one copy per node process; cache/memory-cache.ts, cache/refresh-ahead.ts)
  'large-counts': {
    kind: 'in-process',
    holds: `Match counts of ${LARGE_COUNT} rows or more, and site search's ranked candidates, per database and exact SQL`,
    lifetime: { ttlMs: COUNT_TTL_MS, constant: 'COUNT_TTL_MS', refreshAfterMs: REFRESH_AFTER_MS, refreshConstant: 'REFRESH_AFTER_MS' },
    forWhom: 'everybody',
    invalidation: `Each change notice on every process (cache/change-notices.ts) drops the counts tagged with one of its keys (places, events, a section...) and the untagged ones (search's rankings); a change naming no keys (a reconnect) drops all. Expiry otherwise (refresh ahead). Smaller counts are never kept, so a short list is exact at once after a write; a failed background recount drops the value`,
    where: 'server/db/count-cache.ts',
    bound: `${COUNT_CACHE_MAX_ENTRIES} keys per database`,
  },
  'shared-answers': {
    kind: 'in-process',
    holds: `Whole answers of the public lists and site search with ${KEEP_ANSWERS_FROM} matches or more, per database and per minute where they depend on the time`,
    lifetime: { ttlMs: ANSWER_TTL_MS, constant: 'ANSWER_TTL_MS', refreshAfterMs: ANSWER_REFRESH_AFTER_MS, refreshConstant: 'ANSWER_REFRESH_AFTER_MS' },
    forWhom: 'everybody',
    invalidation: `Each change notice on every process (cache/change-notices.ts) drops the answers tagged with one of its keys (place lists: places; event lists: events, places; story lists: feeds, section-news, section-best-of) and the untagged ones (site search); a change naming no keys (a reconnect) drops all. Expiry otherwise (refresh ahead; the previous minute's answer is served while the new minute's loads). Shorter lists are never kept; a failed background load drops the answer. A member's own ratings are added after`,
    where: 'server/db/answer-cache.ts',
    bound: `${ANSWER_CACHE_MAX_ENTRIES} keys per database`,
  },
  gazetteer: {
    kind: 'in-process',
    holds: 'The geocoder\'s gazetteer (places, subway stations, neighbourhoods), per database',
    lifetime: { ttlMs: GAZETTEER_TTL_MS, constant: 'GAZETTEER_TTL_MS', refreshAfterMs: GAZETTEER_REFRESH_AFTER_MS, refreshConstant: 'GAZETTEER_REFRESH_AFTER_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming place-locations (a place added, renamed or moved), or naming no keys, on every process (cache/change-notices.ts); expiry otherwise (refresh ahead); a failed background read keeps the old one until it expires. forgetGazetteer(db) (tests)',
    where: 'server/apps/geocoder/loader.ts',
    bound: 'one per database',
  },
  'guest-responses': {
    kind: 'in-process',
    holds: 'Whole 200 HTML pages and read-API JSON answers a handler declared shareable, compressed once per encoding (production only)',
    lifetime: { ttlMs: GUEST_RESPONSE_TTL_MS, constant: 'GUEST_RESPONSE_TTL_MS' },
    forWhom: 'guests and members',
    invalidation: 'Each change notice on every process within a moment (cache/change-notices.ts: stories, places, photos, events, Best of lists, accessibility reports) drops the entries whose Surrogate-Key names one of its keys, those naming no keys, and those of its paths, through an index; a change with neither keys nor paths (a reconnect) drops all. Expiry otherwise (refreshed by the next request after half the TTL). Read-API answers are served to guests only; a visitor with an unknown cookie bypasses it',
    where: 'server/http/guest-response-cache.ts',
    bound: 'maxEntries and maxBytes (1000 entries, 64 MB by default)',
  },
  'renewed-sessions': {
    kind: 'in-process',
    holds: 'Session cookies that went through the session middleware lately, so a member served from the page cache still has the session renewed now and then',
    lifetime: { passedIn: 'SESSION_TOUCH_INTERVAL_MS', definedIn: 'server/apps/accounts/session.ts' },
    forWhom: 'one member',
    invalidation: 'Expiry only',
    where: 'server/http/guest-response-cache.ts',
    bound: '100,000 sessions',
  },
  'compressed-copies': {
    kind: 'in-process',
    holds: 'Brotli/gzip copies of common read-API answers, keyed by the SHA-256 of the body',
    lifetime: { ttlMs: COMPRESSED_COPY_TTL_MS, constant: 'COMPRESSED_COPY_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'None needed: keyed by content, a changed answer is another key; unused copies expire',
    where: 'server/http/compressed-answers.ts',
    bound: '2000 copies, 16 MB',
  },
  'seen-once-bodies': {
    kind: 'in-process',
    holds: 'Hashes of answer bodies compressed once and not kept (the second request for the same bytes makes the kept copy)',
    lifetime: { ttlMs: COMPRESSED_COPY_TTL_MS, constant: 'COMPRESSED_COPY_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'Expiry only',
    where: 'server/http/compressed-answers.ts',
    bound: '20,000 hashes',
  },
  'navbar-menus': {
    kind: 'in-process',
    holds: "The navbar's menus (latest articles, recent reviews, listing types) every page carries, per app",
    lifetime: { ttlMs: NAVBAR_MENUS_TTL_MS, constant: 'NAVBAR_MENUS_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming a story, a section or a hub (story-, section-, hub- keys), or naming no keys (cache/change-notices.ts); expiry otherwise',
    where: 'server/http/navbar.ts',
    bound: 'one',
  },
  'home-sections': {
    kind: 'in-process',
    holds: "The home page's lists (latest, featured, Best of, events, contests), per app",
    lifetime: { ttlMs: HOME_SECTIONS_TTL_MS, constant: 'HOME_SECTIONS_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming the home (stories, events, Best of lists), or naming no keys (cache/change-notices.ts); expiry otherwise',
    where: 'server/apps/home/service.ts',
    bound: 'one',
  },
  'hub-options': {
    kind: 'in-process',
    holds: "The listing hubs' filter choices (types, sub-types, neighbourhoods, stations, features, services) and their version hash, per app",
    lifetime: { ttlMs: HUB_OPTIONS_TTL_MS, constant: 'HUB_OPTIONS_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming places, a hub or a neighbourhood, or naming no keys (cache/change-notices.ts); expiry otherwise; reloaded at once when a hub path names a type, sub-type or neighbourhood that exists but is not in it',
    where: 'server/apps/listings/service.ts',
    bound: 'one',
  },
  'city-map': {
    kind: 'in-process',
    holds: "The neighbourhoods page's map of every boundary (SVG), per app",
    lifetime: { ttlMs: CITY_MAP_TTL_MS, constant: 'CITY_MAP_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming a neighbourhood, or naming no keys (cache/change-notices.ts); expiry otherwise',
    where: 'server/apps/neighbourhoods/pages.ts',
    bound: 'one',
  },
  'neighbourhood-boundaries': {
    kind: 'in-process',
    holds: "Neighbourhoods' parsed boundaries for the listing pages, per app",
    lifetime: { ttlMs: NEIGHBOURHOOD_BOUNDARY_TTL_MS, constant: 'NEIGHBOURHOOD_BOUNDARY_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'A change notice naming the neighbourhood (its boundary only), or naming no keys (all) (cache/change-notices.ts); expiry otherwise',
    where: 'server/apps/listings/service.ts',
    bound: '1000 neighbourhoods per app',
  },
  'static-map-images': {
    kind: 'in-process',
    holds: "The last static map PNGs drawn for listing pages (also on disk, see 'static-maps-on-disk')",
    lifetime: { ttlMs: STATIC_MAP_MEMORY_TTL_MS, constant: 'STATIC_MAP_MEMORY_TTL_MS' },
    forWhom: 'everybody',
    invalidation: 'None needed: keyed by zoom, coordinates and the map data\'s version',
    where: 'server/apps/map-tiles/api.ts',
    bound: '200 images, 32 MB',
  },
  'search-statements': {
    kind: 'in-process',
    holds: "Site search's compiled SQL, one per statement shape, per app (the search service)",
    lifetime: { untilInvalidated: true },
    forWhom: 'everybody',
    invalidation: 'None: a shape compiles to the same SQL for the life of the process',
    where: 'server/apps/search/named-statement-queries.ts',
    bound: '500 shapes per app',
  },
  'story-link-checks': {
    kind: 'in-process',
    holds: "What a story's links to other sites answered when the newsroom's checks fetched them (the status, or why not), per link",
    lifetime: { passedIn: 'LINK_CHECK_TTL_MS', definedIn: 'server/apps/newsroom/link-check.ts' },
    forWhom: 'everybody',
    invalidation: 'Expiry only: a link that comes back is checked again after it',
    where: 'server/apps/newsroom/link-check.ts',
    bound: '2,000 links per app',
  },

  // ## nginx (deploy/nginx.conf.template), in front of every process
  'nginx-micro-cache': {
    kind: 'nginx',
    holds: "The same answers as 'guest-responses' (pages and read-API answers marked public that set no cookie), one entry per encoding (br or gzip)",
    lifetime: { nginxSeconds: GUEST_RESPONSE_TTL_MS / 1000, constant: 'proxy_cache_valid' },
    forWhom: 'guests and members',
    invalidation: 'Expiry only (served stale while one request updates it); not purged by staff edits',
    where: 'deploy/nginx.conf.template',
    bound: 'max_size=512m, inactive=2m',
  },

  // ## HTTP caching (browsers, and any shared cache for `public`)
  'page-shared': {
    kind: 'http',
    holds: "HTML pages the same for everybody ('shared-for-guests' pages)",
    lifetime: { cacheControl: CACHE_CONTROL.shared, constant: 'CACHE_CONTROL.shared' },
    forWhom: 'everybody',
    invalidation: 'Expiry, then revalidated with the ETag (304). An answer that sets a cookie is sent private',
    where: 'server/http/pages/cache-policy.ts',
  },
  'page-private': {
    kind: 'http',
    holds: "A guest's HTML page that embeds their CSRF token or a captcha ('private' pages)",
    lifetime: { cacheControl: CACHE_CONTROL.private, constant: 'CACHE_CONTROL.private' },
    forWhom: 'one visitor',
    invalidation: 'Revalidated with the ETag on every use',
    where: 'server/http/pages/cache-policy.ts',
  },
  'page-member-private': {
    kind: 'http',
    holds: "A member's 'private' page (may show their name or address): never stored",
    lifetime: { cacheControl: CACHE_CONTROL.memberPrivate, constant: 'CACHE_CONTROL.memberPrivate' },
    forWhom: 'one member',
    invalidation: 'Not stored',
    where: 'server/http/pages/cache-policy.ts',
  },
  'api-guest': {
    kind: 'http',
    holds: "A guest's read-API answer (lists, search, one listing)",
    lifetime: { cacheControl: API_CACHE_CONTROL.guest, constant: 'API_CACHE_CONTROL.guest' },
    forWhom: 'guests',
    invalidation: 'Expiry, then revalidated with the ETag',
    where: 'server/http/api-cache-headers.ts',
  },
  'api-guest-setting-cookie': {
    kind: 'http',
    holds: "A guest's read-API answer that sets a cookie",
    lifetime: { cacheControl: API_CACHE_CONTROL.guestSettingCookie, constant: 'API_CACHE_CONTROL.guestSettingCookie' },
    forWhom: 'one visitor',
    invalidation: 'Expiry, then revalidated with the ETag',
    where: 'server/http/api-cache-headers.ts',
  },
  'api-member': {
    kind: 'http',
    holds: "A member's read-API answer (carries their own ratings)",
    lifetime: { cacheControl: API_CACHE_CONTROL.member, constant: 'API_CACHE_CONTROL.member' },
    forWhom: 'one member',
    invalidation: 'Revalidated with the ETag on every use',
    where: 'server/http/api-cache-headers.ts',
  },
  'image-renditions': {
    kind: 'http',
    holds: 'Image renditions (/media/{key}?w=&h=&cmd=)',
    lifetime: { cacheControl: RENDITION_CACHE_CONTROL, constant: 'RENDITION_CACHE_CONTROL' },
    forWhom: 'everybody',
    invalidation: 'None: immutable for a year (an upload is stored under a new key)',
    where: 'server/apps/media/api.ts',
  },
  'image-originals': {
    kind: 'http',
    holds: 'Original images (/media/{key})',
    lifetime: { cacheControl: ORIGINAL_CACHE_CONTROL, constant: 'ORIGINAL_CACHE_CONTROL' },
    forWhom: 'everybody',
    invalidation: 'Expiry, then revalidated with the ETag',
    where: 'server/apps/media/api.ts',
  },
  'static-map-http': {
    kind: 'http',
    holds: "A listing page's static map image (/static-maps/listings/{id}.png)",
    lifetime: { cacheControl: STATIC_MAP_CACHE_CONTROL, constant: 'STATIC_MAP_CACHE_CONTROL' },
    forWhom: 'everybody',
    invalidation: 'Expiry, then revalidated with the ETag (it changes with the coordinates)',
    where: 'server/apps/map-tiles/api.ts',
  },
  'map-tiles-http': {
    kind: 'http',
    holds: 'Base map tiles (/map-tiles/{name}.pmtiles, read by HTTP Range)',
    lifetime: { cacheControl: PMTILES_CACHE_CONTROL, constant: 'PMTILES_CACHE_CONTROL' },
    forWhom: 'everybody',
    invalidation: 'Expiry (ops replace an extract under the same name)',
    where: 'server/apps/map-tiles/api.ts',
  },

  // ## On disk (DATA_DIR, or the object store), shared by the processes
  'renditions-store': {
    kind: 'disk',
    holds: 'Image renditions made on first request or ahead of it by the media.warm-renditions job an upload queues (DATA_DIR/media-cache/, or the bucket under renditions/)',
    lifetime: { untilInvalidated: true },
    forWhom: 'everybody',
    invalidation: 'purgeRenditions(key) when the original is deleted or replaced (photos, avatars, account purge)',
    where: 'server/apps/media/renditions.ts',
  },
  'static-maps-on-disk': {
    kind: 'disk',
    holds: 'Static map PNGs (DATA_DIR/map-cache/)',
    lifetime: { untilInvalidated: true },
    forWhom: 'everybody',
    invalidation: 'None: keyed by zoom, coordinates and the map data\'s version, so a moved place or new data makes a new file; old files stay until ops clear the folder',
    where: 'server/apps/map-tiles/api.ts',
  },

  // ## In the browser: the service worker (islands/offline/sw/service-worker.ts)
  'sw-assets': {
    kind: 'service-worker',
    holds: `Hashed build files (/static/dist/), cache-first (${ASSET_CACHE})`,
    lifetime: { maxEntries: ASSET_CACHE_MAX, constant: 'ASSET_CACHE_MAX' },
    forWhom: 'one visitor',
    invalidation: 'None needed (named by content); oldest out first; stale caches deleted on activation',
    where: 'islands/offline/sw/service-worker.ts',
  },
  'sw-static': {
    kind: 'service-worker',
    holds: `Other /static/ files, stale-while-revalidate (${STATIC_CACHE})`,
    lifetime: { maxEntries: STATIC_CACHE_MAX, constant: 'STATIC_CACHE_MAX' },
    forWhom: 'one visitor',
    invalidation: 'Revalidated in the background on every use; oldest out first',
    where: 'islands/offline/sw/service-worker.ts',
  },
  'sw-pages': {
    kind: 'service-worker',
    holds: `Pages the same for everybody the reader opened, network-first, for offline reading (${PAGE_CACHE}); a member's page is kept as the guest copy`,
    lifetime: { maxEntries: PAGE_CACHE_MAX, constant: 'PAGE_CACHE_MAX', freshMs: GUEST_COPY_FRESH_MS, freshConstant: 'GUEST_COPY_FRESH_MS' },
    forWhom: 'one visitor',
    invalidation: "Replaced on every online visit (a member's guest copy once it is older than the fresh time); oldest out first",
    where: 'islands/offline/sw/service-worker.ts',
  },
  'sw-offline-page': {
    kind: 'service-worker',
    holds: `The offline page, cached when the worker installs (${OFFLINE_CACHE})`,
    lifetime: { untilInvalidated: true },
    forWhom: 'one visitor',
    invalidation: 'Replaced when a new worker installs',
    where: 'islands/offline/sw/service-worker.ts',
  },
  'sw-member': {
    kind: 'service-worker',
    holds: `One member's dashboard, network-first (${MEMBER_CACHE_PREFIX}{id}); their saved lists are in IndexedDB`,
    lifetime: { untilInvalidated: true },
    forWhom: 'one member',
    invalidation: 'Deleted when the member signs out or deletes the account, or another member signs in on the browser',
    where: 'islands/offline/sw/service-worker.ts',
  },
} as const satisfies Record<string, CacheEntry>;

export type CacheName = keyof typeof CACHE_CATALOGUE;

/** The catalogue as [name, entry] pairs, in its order. */
export function catalogueEntries(): Array<[CacheName, CacheEntry]> {
  return Object.entries(CACHE_CATALOGUE) as Array<[CacheName, CacheEntry]>;
}
