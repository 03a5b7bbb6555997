import { PWA_PATHS } from '../../shared/constants';
import { CACHE_PREFIX, ASSET_CACHE, STATIC_CACHE, PAGE_CACHE, OFFLINE_CACHE, MEMBER_CACHE_PREFIX as MEMBER_PREFIX } from '../../shared/offline-caches';
// What the service worker keeps and under which name, shared by the worker
// (islands/offline/sw/service-worker.ts) and the pages (islands/offline/). Pure, so the rules
// that keep one member's data away from the next are unit-tested (keys.test.ts).

// The caches' names and bounds are in shared/offline-caches.ts (the server's cache catalogue names them too).
export {
  CACHE_PREFIX,
  ASSET_CACHE,
  STATIC_CACHE,
  PAGE_CACHE,
  OFFLINE_CACHE,
  PAGE_CACHE_MAX,
  ASSET_CACHE_MAX,
  STATIC_CACHE_MAX,
  GUEST_COPY_FRESH_MS,
} from '../../shared/offline-caches';

export const DASHBOARD_PATH = '/accounts/dashboard/';
export const OFFLINE_PAGE_PATH = PWA_PATHS.offlinePage;
export const MEMBER_REQUEST_PATH = '/api/v2/profiles/hi/';
/** Answers to these POSTs end the member's session here: their data goes with it. */
export const SIGN_OUT_PATHS = ['/profiles/logout', '/accounts/delete/confirm/'];
export const isSignOutPath = (pathname: string): boolean => SIGN_OUT_PATHS.some((p) => pathname.startsWith(p));
/** The IndexedDB database of the dashboard's saved lists and queued actions (offline/db.ts). */
export const OFFLINE_DB = 'tcg-offline';

/** The one cache that holds a member's own pages: their dashboard, as last opened. */
export const memberCacheName = (memberId: number): string => `${MEMBER_PREFIX}${memberId}`;
export const isMemberCache = (name: string): boolean => name.startsWith(MEMBER_PREFIX);

/** The member whose caches these are (there is at most one), or null. */
export function memberOfCaches(names: string[]): number | null {
  for (const name of names) {
    if (!isMemberCache(name)) continue;
    const id = Number(name.slice(MEMBER_PREFIX.length));
    if (Number.isInteger(id) && id > 0) return id;
  }
  return null;
}

/** The member caches to delete when `memberId` (null: nobody) is the one signed in now. */
export const cachesToForget = (names: string[], memberId: number | null): string[] =>
  names.filter((n) => isMemberCache(n) && (memberId === null || n !== memberCacheName(memberId)));

/** Caches of an older worker (not ours any more) to delete when this one activates. */
export const staleCaches = (names: string[]): string[] =>
  names.filter((n) => n.startsWith(CACHE_PREFIX) && !isMemberCache(n) && ![ASSET_CACHE, STATIC_CACHE, PAGE_CACHE, OFFLINE_CACHE].includes(n));

// Areas whose pages are personal or forms (a CSRF token in the HTML), and answers that are not
// pages: never put in the page cache, whatever their headers say.
const NOT_PAGES = /^\/(api|streams|media|accounts|profiles|staff|static|events\/add|contact|newsletters\/unsubscribe)(\/|$)/;

export type NavigationKind = 'dashboard' | 'page' | 'other';

/** How the worker treats a navigation to `url` (same origin only). */
export function navigationKind(url: URL): NavigationKind {
  if (url.pathname === DASHBOARD_PATH) return 'dashboard';
  // A query string is a search or a filter: many of those would push the pages read out.
  if (url.search || NOT_PAGES.test(url.pathname) || url.pathname === OFFLINE_PAGE_PATH) return 'other';
  return 'page';
}

const directives = (cacheControl: string | null): Set<string> =>
  new Set((cacheControl ?? '').toLowerCase().split(',').map((d) => d.trim().split('=')[0]).filter(Boolean));

/**
 * Whether a page answer may go in the page cache, which any member of this browser may be shown:
 * a whole 200 from our origin that the server did not mark `private` or `no-store` (a member's
 * own page, a form with its token, an answer that set a cookie).
 */
export function isShareablePage(res: Pick<Response, 'status' | 'type' | 'headers'>): boolean {
  if (res.status !== 200 || (res.type !== 'basic' && res.type !== 'default')) return false;
  const cc = directives(res.headers.get('Cache-Control'));
  if (cc.has('private') || cc.has('no-store')) return false;
  return (res.headers.get('Content-Type') ?? '').startsWith('text/html');
}

/**
 * A page marked `private` but not `no-store`: for a member, a page the same for everybody is
 * sent private only because the answer renews their session cookie. The worker then fetches a
 * cookieless copy (what a guest gets) for the page cache, which holds nothing of theirs.
 */
export function worthAGuestCopy(res: Pick<Response, 'status' | 'headers'>): boolean {
  const cc = directives(res.headers.get('Cache-Control'));
  return res.status === 200 && cc.has('private') && !cc.has('no-store');
}

/** The member a dashboard page was rendered for, from the island state it prints. */
export function memberIdFromDashboardHtml(html: string): number | null {
  const m = /<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!m) return null;
  try {
    const id = (JSON.parse(m[1]) as { dashboard?: { profile?: { id?: unknown } } }).dashboard?.profile?.id;
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
