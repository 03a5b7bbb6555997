import { readItem, writeItem, STORAGE_KEYS } from '../common/storage';

// The dashboard's place in localStorage (spec 1 §3 "path stack and history cache"), so that a
// refresh, the back button and a new tab bring the member back where they were:
// - the path stack: the dashboard paths visited, newest last. A visit to the dashboard with
//   no route at all (a new tab on /accounts/dashboard/) opens the newest one; '#/' and the
//   social-login return '#/_=_' still go to /home/ (spec 1 §2).
// - the history cache: per path, how far down the member had scrolled; per list, the sort tab
//   chosen. A path comes back scrolled there, a list comes back sorted that way.
// Both are cleared with the other stores on logout or a change of member (common/storage.ts).

export const PATH_STACK_MAX = 20;
/** A history entry older than this is not restored: the member has moved on. */
export const HISTORY_TTL_MS = 24 * 3600 * 1000;

export interface HistoryCache {
  paths: Record<string, { scrollY: number; at: number }>;
  orderings: Record<string, string | null>;
}

const emptyHistory = (): HistoryCache => ({ paths: {}, orderings: {} });

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
  return v;
}

function writeHistory(h: HistoryCache): void {
  writeItem(STORAGE_KEYS.dashboardHistory, h);
}

export function rememberScroll(path: string, scrollY: number, now = Date.now()): void {
  const h = readHistory();
  h.paths[path] = { scrollY: Math.max(0, Math.round(scrollY)), at: now };
  writeHistory(h);
}

/** The scroll position to restore on `path`, or 0. */
export function savedScroll(path: string, now = Date.now()): number {
  const entry = readHistory().paths[path];
  if (!entry || typeof entry.scrollY !== 'number' || now - entry.at > HISTORY_TTL_MS) return 0;
  return entry.scrollY;
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
