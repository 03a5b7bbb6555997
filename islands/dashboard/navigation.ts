import { readItem, writeItem, STORAGE_KEYS } from '../common/storage';

// The dashboard's place in localStorage (spec 1 §3 "path stack and history cache"), so that a
// refresh, the back button and a new tab bring the member back where they were:
// - the path stack: the dashboard paths visited, newest last. A visit to the dashboard with
//   no route at all (a new tab on /accounts/dashboard/) opens the newest one; '#/' and the
//   social-login return '#/_=_' still go to /home/ (spec 1 §2).
// - the history cache: per path, how far down the member had scrolled; per list, the sort tab
//   chosen. On a refresh, Back or Forward, or a resumed visit (see Arrival), a path comes back
//   scrolled there and a list sorted that way; a new navigation starts afresh.
// Both are cleared with the other stores on logout or a change of member (common/storage.ts).

/**
 * How the member reached the route on screen (spec 2 §4 "page history distinguishes refresh,
 * back and new navigation"), which decides whether its scroll and sort come back:
 * - 'reload': a refresh (the Navigation Timing type 'reload');
 * - 'back': Back or Forward, into the page (Navigation Timing 'back_forward') or between its
 *   routes (popstate, which the router reports as a POP);
 * - 'resume': a visit with no route, sent to the path the member was last on;
 * - 'new': a link, the menu, a typed address, a new tab on a route: it starts at the top,
 *   with the list's own sort, as any page followed by a link does.
 */
export type Arrival = 'new' | 'reload' | 'back' | 'resume';

/** Whether an arrival brings back the place the member left: all but a new navigation. */
export const restoresPlace = (arrival: Arrival): boolean => arrival !== 'new';

/** How this page load began, from its Navigation Timing entry (none: a new navigation). */
export function pageArrival(): Arrival {
  const entry = typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation')[0] : undefined;
  const type = (entry as PerformanceNavigationTiming | undefined)?.type;
  return type === 'reload' ? 'reload' : type === 'back_forward' ? 'back' : 'new';
}

/** A route change after the first: a POP is popstate (Back, Forward); a push or replace is new. */
export const routeArrival = (navigationType: 'POP' | 'PUSH' | 'REPLACE'): Arrival => (navigationType === 'POP' ? 'back' : 'new');

export const PATH_STACK_MAX = 20;
/** A history entry older than this is not restored: the member has moved on. */
export const HISTORY_TTL_MS = 24 * 3600 * 1000;

/** Scroll positions kept per history entry: enough for any Back a member makes. */
export const HISTORY_ENTRIES_MAX = 50;

interface ScrollMark {
  scrollY: number;
  at: number;
}

export interface HistoryCache {
  /** Per path, the last position: where a resumed visit (no history entry of its own) lands. */
  paths: Record<string, ScrollMark>;
  /** Per history entry (the router's key, kept in history.state across refreshes): where a
   *  refresh, Back or Forward to that very entry lands. */
  entries?: Record<string, ScrollMark>;
  orderings: Record<string, string | null>;
}

const emptyHistory = (): HistoryCache => ({ paths: {}, entries: {}, orderings: {} });

export function readPathStack(): string[] {
  const v = readItem<unknown>(STORAGE_KEYS.dashboardPathStack);
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string' && p.startsWith('/')) : [];
}

/** Records a visit: the path moves to the top (no duplicates), the oldest fall off. */
export function pushPath(path: string): string[] {
  const stack = [...readPathStack().filter((p) => p !== path), path].slice(-PATH_STACK_MAX);
  writeItem(STORAGE_KEYS.dashboardPathStack, stack);
  return stack;
}

/**
 * Where a visit starts. `hash` is window.location.hash before the router reads it: empty means
 * no route was asked for, so the newest path the member was on (if still a dashboard route).
 */
export function startPath(hash: string, known: string[]): string | null {
  if (hash && hash !== '#') return null;
  const last = readPathStack().at(-1);
  return last && known.includes(last) ? last : null;
}

export function readHistory(): HistoryCache {
  const v = readItem<HistoryCache>(STORAGE_KEYS.dashboardHistory);
  if (!v || typeof v !== 'object' || typeof v.paths !== 'object' || typeof v.orderings !== 'object' || !v.paths || !v.orderings) return emptyHistory();
  // A cache written before entries were kept, or a damaged one, has none yet.
  if (!v.entries || typeof v.entries !== 'object' || Array.isArray(v.entries)) v.entries = {};
  return v;
}

function writeHistory(h: HistoryCache): void {
  writeItem(STORAGE_KEYS.dashboardHistory, h);
}

/** Records the position on `path`, and on its history entry when it has one (`entryKey`). */
export function rememberScroll(path: string, scrollY: number, now = Date.now(), entryKey: string | null = null): void {
  const h = readHistory();
  const mark = { scrollY: Math.max(0, Math.round(scrollY)), at: now };
  h.paths[path] = mark;
  if (entryKey) {
    const entries = Object.entries({ ...(h.entries ?? {}), [entryKey]: mark });
    h.entries = Object.fromEntries(entries.sort((a, b) => b[1].at - a[1].at).slice(0, HISTORY_ENTRIES_MAX));
  }
  writeHistory(h);
}

const fresh = (mark: ScrollMark | undefined, now: number): number =>
  mark && typeof mark.scrollY === 'number' && typeof mark.at === 'number' && now - mark.at <= HISTORY_TTL_MS ? mark.scrollY : 0;

/**
 * The scroll position to restore on `path`, or 0. A history entry of its own (`entryKey`)
 * answers for itself: never scrolled is the top, whatever a later visit to the path did.
 */
export function savedScroll(path: string, now = Date.now(), entryKey: string | null = null): number {
  const h = readHistory();
  return entryKey ? fresh(h.entries?.[entryKey], now) : fresh(h.paths[path], now);
}

export function rememberOrdering(list: string, ordering: string | null): void {
  const h = readHistory();
  if (h.orderings[list] === ordering) return;
  h.orderings[list] = ordering;
  writeHistory(h);
}

/** The sort tab last chosen on a list, or undefined (the list's default). */
export function savedOrdering(list: string): string | null | undefined {
  const v = readHistory().orderings[list];
  return typeof v === 'string' || v === null ? v : undefined;
}
