// The dashboard's saved lists as kept offline, and the actions taken offline applied to them.
// Pure functions over plain records (stored by offline/db.ts), unit-tested in lists.test.ts.

/** The list calls of islands/dashboard/api.ts whose answers are kept for reading offline. */
export const OFFLINE_LISTS = ['favourites', 'todos', 'articleBookmarks', 'eventBookmarks'] as const;
export type OfflineListCall = (typeof OFFLINE_LISTS)[number];

/** The actions that may wait for the connection: each undoes nothing and means the same later. */
export const QUEUEABLE = {
  completeTodo: 'todos',
  deleteFavourite: 'favourites',
  deleteTodo: 'todos',
  deleteArticleBookmark: 'articleBookmarks',
  deleteEventBookmark: 'eventBookmarks',
} as const satisfies Record<string, OfflineListCall>;
export type QueueableCall = keyof typeof QUEUEABLE;

export interface HasId {
  id: number;
}

export interface ListEntry {
  /** listKey(member, call, query) */
  key: string;
  member: number;
  call: OfflineListCall;
  /** The query without paging and order ('completed=0'), which picks the list. */
  filter: string;
  ordering: string | null;
  /** When the server last answered for this list (ISO 8601). */
  savedAt: string;
  count: number;
  results: HasId[];
}

export interface QueuedAction {
  seq: number;
  member: number;
  call: QueueableCall;
  id: number;
  /** For a completed to-do: the to-do as shown, so it can head the completed list offline. */
  item?: HasId & Record<string, unknown>;
  at: string;
}

export interface PageLike<T = HasId> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
  server_time?: string;
}

type Query = Record<string, unknown>;
const PAGING = new Set(['offset', 'limit', 'ordering']);

export function listFilter(query: Query = {}): string {
  return Object.entries(query)
    .filter(([k, v]) => !PAGING.has(k) && v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort()
    .join('&');
}

/** One record per member, list and filter: a member never reads another's. */
export const listKey = (member: number, call: OfflineListCall, query: Query = {}): string => `${member}|${call}|${listFilter(query)}`;

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.isFinite(Number(v)) && v !== null && v !== '' && v !== undefined ? Number(v) : fallback);

/** The record after the server answered a page: the first page replaces it, later ones add on. */
export function mergePage(entry: ListEntry | undefined, member: number, call: OfflineListCall, query: Query, page: PageLike, savedAt: string): ListEntry {
  const offset = num(query.offset, 0);
  const ordering = typeof query.ordering === 'string' ? query.ordering : null;
  const base = entry && offset > 0 && entry.ordering === ordering ? entry.results.slice(0, offset) : [];
  const seen = new Set(base.map((i) => i.id));
  return {
    key: listKey(member, call, query),
    member,
    call,
    filter: listFilter(query),
    ordering,
    savedAt,
    count: page.count,
    results: [...base, ...page.results.filter((i) => !seen.has(i.id))],
  };
}

/** The record with one action taken offline applied, as the server will have it once sent. */
export function applyAction(entry: ListEntry, action: QueuedAction): ListEntry {
  if (QUEUEABLE[action.call] !== entry.call) return entry;
  const has = entry.results.some((i) => i.id === action.id);
  if (action.call === 'completeTodo') {
    const completed = new URLSearchParams(entry.filter).get('completed');
    if (completed === '1') {
      if (has || !action.item) return entry;
      return { ...entry, count: entry.count + 1, results: [{ ...action.item, is_done: true } as HasId, ...entry.results] };
    }
    if (completed !== '0' || !has) return entry;
  }
  if (!has) return entry;
  return { ...entry, count: Math.max(0, entry.count - 1), results: entry.results.filter((i) => i.id !== action.id) };
}

/** A page of a kept list as the API would answer it, with the waiting actions applied. */
export function pageFrom(entry: ListEntry, query: Query, actions: QueuedAction[]): PageLike {
  const current = actions.reduce(applyAction, entry);
  const offset = num(query.offset, 0);
  const limit = num(query.limit, current.results.length || 1);
  const results = current.results.slice(offset, offset + limit);
  // Offline, 'Load more' can only show what was kept: no next page past it.
  const more = offset + limit < Math.min(current.count, current.results.length);
  return { count: current.count, next: more ? `offline:${offset + limit}` : null, previous: offset > 0 ? `offline:${Math.max(0, offset - limit)}` : null, results, server_time: current.savedAt };
}

/** The to-do a completion is about, from whichever kept list shows it. */
export function findItem(entries: ListEntry[], call: OfflineListCall, id: number): (HasId & Record<string, unknown>) | undefined {
  for (const e of entries) {
    if (e.call !== call) continue;
    const found = e.results.find((i) => i.id === id);
    if (found) return found as HasId & Record<string, unknown>;
  }
  return undefined;
}
