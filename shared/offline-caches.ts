// The service worker's caches (islands/offline/sw/service-worker.ts): their names and bounds,
// here in shared/ so that the server's cache catalogue (server/cache/catalogue.ts) names the
// same constants the worker uses. The rules about them are in islands/offline/keys.ts.

export const CACHE_PREFIX = 'tcg-';
/** Hashed build files (/static/dist/): named by content, kept until evicted. */
export const ASSET_CACHE = `${CACHE_PREFIX}assets`;
/** Other files under /static/ (fallback script, icons, placeholders). */
export const STATIC_CACHE = `${CACHE_PREFIX}static`;
/** Pages the same for everybody that the reader opened recently (articles, places, events…). */
export const PAGE_CACHE = `${CACHE_PREFIX}pages`;
/** The offline page, cached when the worker installs. */
export const OFFLINE_CACHE = `${CACHE_PREFIX}offline`;
/** One member's own pages (their dashboard), `${MEMBER_CACHE_PREFIX}${id}`. */
export const MEMBER_CACHE_PREFIX = `${CACHE_PREFIX}member-`;

/** How many pages the page cache keeps (oldest out first), and how many build files. */
export const PAGE_CACHE_MAX = 30;
export const ASSET_CACHE_MAX = 150;
export const STATIC_CACHE_MAX = 60;

/**
 * A member's pages come back private, so each of their visits would otherwise fetch the page a
 * second time for the guest copy: a copy younger than this is kept as it is.
 */
export const GUEST_COPY_FRESH_MS = 60 * 60 * 1000;
