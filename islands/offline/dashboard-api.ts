import { ApiError, CSRF_TOKEN_PATH } from '../common/api';
import type { OfflineStore } from './db';
import { applyAction, findItem, mergePage, listKey, OFFLINE_LISTS, pageFrom, QUEUEABLE, type OfflineListCall, type PageLike, type QueueableCall, type QueuedAction } from './lists';
import { setNotice, setQueued, shownFromDevice, shownLive } from './status';

// The dashboard's API with an offline side (issue 28 part 2), wrapped around
// islands/dashboard/api.ts so the island itself changes only where it builds its store:
// - the saved lists (favourites, to-dos, saved articles and events) are kept on this device,
//   per member, each time the server answers; with no connection they are read from there,
//   and the offline line says when they were saved;
// - ticking a to-do done and removing a saved item wait in a queue and are sent, in order,
//   when the connection returns (replayQueue);
// - any other change is refused at once with OFFLINE_REFUSED rather than failing later.

export const OFFLINE_REFUSED = "You're offline: this change needs a connection. Ticking a to-do and removing a saved item work offline; please try this again once you're back online.";

type Fn = (...args: never[]) => Promise<unknown>;

export interface OfflineDeps {
  store: OfflineStore;
  now?: () => Date;
  /** navigator.onLine: false means the browser knows it has no connection. */
  online?: () => boolean;
}

/** A fetch that never reached the server (no connection, DNS, a dropped socket). */
export function isNetworkFailure(err: unknown): boolean {
  return !(err instanceof ApiError) && (err instanceof TypeError || (typeof navigator !== 'undefined' && navigator.onLine === false));
}

const isList = (k: string): k is OfflineListCall => (OFFLINE_LISTS as readonly string[]).includes(k);
const isQueueable = (k: string): k is QueueableCall => k in QUEUEABLE;
// Reads that stay as they are offline: they fail as any read does, and show their own state.
const READS = new Set(['profile', 'counts', 'ratings', 'videoBookmarks', 'calendarStatus', 'photos']);

export function offlineDashboardApi<A extends object>(api: A, member: number, deps: OfflineDeps): A {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());
  const online = deps.online ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine !== false));
  const calls = api as unknown as Record<string, Fn>;
  const wrapped: Record<string, Fn> = {};

  const readList = (call: OfflineListCall) => async (query: Record<string, unknown> = {}) => {
    try {
      const page = (await calls[call](query as never)) as PageLike;
      const waiting = await store.queued(member).catch(() => []);
      const key = listKey(member, call, query);
      const entry = mergePage(await store.getList(key).catch(() => undefined), member, call, query, page, now().toISOString());
      await store.putList(entry).catch(() => undefined);
      shownLive();
      // Actions still waiting to be sent are shown as done, as they will be.
      if (!waiting.length) return page;
      const shown = waiting.reduce(applyAction, { ...entry, count: page.count, results: page.results });
      return { ...page, count: shown.count, results: shown.results };
    } catch (err) {
      if (!isNetworkFailure(err)) throw err;
      const entry = await store.getList(listKey(member, call, query)).catch(() => undefined);
      if (!entry) throw err;
      shownFromDevice(entry.savedAt);
      return pageFrom(entry, query, await store.queued(member));
    }
  };

  const queueable = (call: QueueableCall) => async (id: number) => {
    if (online()) {
      try {
        return await calls[call](id as never);
      } catch (err) {
        if (!isNetworkFailure(err)) throw err;
      }
    }
    const item = call === 'completeTodo' ? findItem(await store.lists(member), 'todos', id) : undefined;
    if (call === 'completeTodo' && !item) throw new ApiError(503, { detail: OFFLINE_REFUSED });
    await store.enqueue({ member, call, id, item, at: now().toISOString() });
    setQueued((await store.queued(member)).length);
    return item ? { ...item, is_done: true } : null;
  };

  const refusedOffline = (fn: Fn) => async (...args: never[]) => {
    try {
      return await fn(...args);
    } catch (err) {
      if (isNetworkFailure(err)) throw new ApiError(503, { detail: OFFLINE_REFUSED });
      throw err;
    }
  };

  for (const [name, fn] of Object.entries(calls)) {
    if (typeof fn !== 'function') continue;
    wrapped[name] = isList(name) ? readList(name) : isQueueable(name) ? queueable(name) : READS.has(name) ? fn : refusedOffline(fn);
  }
  return wrapped as unknown as A;
}

/** Asks the server for a CSRF token cookie (the one a replayed action will carry). */
export async function refreshCsrfToken(): Promise<void> {
  await fetch(CSRF_TOKEN_PATH, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

export interface ReplayResult {
  sent: number;
  dropped: number;
  /** Whether actions still wait (no connection, signed out, the server failing). */
  waiting: boolean;
}

let replaying: Promise<ReplayResult> | null = null;

/**
 * Sends the member's waiting actions in the order they were taken. A 404 means the item is
 * already gone, which is what was asked; another 4xx (the server will not take it) drops the
 * action and says so; a refused CSRF token is fetched afresh and the action tried once more; no
 * connection, 401, 5xx or 429 stop and keep the rest for the next time the connection returns.
 */
export function replayQueue(api: object, member: number, deps: Pick<OfflineDeps, 'store'> & { refreshToken?: () => Promise<void> }): Promise<ReplayResult> {
  replaying ??= replay(api as Record<string, Fn>, member, deps.store, deps.refreshToken ?? refreshCsrfToken).finally(() => {
    replaying = null;
  });
  return replaying;
}

async function replay(calls: Record<string, Fn>, member: number, store: OfflineStore, refreshToken: () => Promise<void>): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, dropped: 0, waiting: false };
  const done = async (action: QueuedAction) => {
    await store.dequeue(action.seq);
    // The kept lists follow, so that a later offline visit shows the action as done.
    for (const entry of await store.lists(member)) {
      const after = applyAction(entry, action);
      if (after !== entry) await store.putList(after);
    }
  };
  for (const action of await store.queued(member)) {
    let retried = false;
    for (;;) {
      try {
        await calls[action.call](action.id as never);
        await done(action);
        result.sent++;
        break;
      } catch (err) {
        if (!(err instanceof ApiError)) {
          result.waiting = true;
          break;
        }
        if (err.status === 404) {
          await done(action);
          result.sent++;
          break;
        }
        if (err.status === 403 && /csrf/i.test(err.message) && !retried) {
          retried = true;
          await refreshToken().catch(() => undefined);
          continue;
        }
        if (err.status === 401 || err.status === 403 || err.status === 429 || err.status >= 500) {
          result.waiting = true;
          break;
        }
        await store.dequeue(action.seq);
        result.dropped++;
        break;
      }
    }
    if (result.waiting) break;
  }
  setQueued((await store.queued(member)).length);
  if (result.dropped) setNotice(`${result.dropped === 1 ? 'A change' : `${result.dropped} changes`} made offline could not be saved: the server refused ${result.dropped === 1 ? 'it' : 'them'}.`);
  else if (result.sent) setNotice(`Your ${result.sent === 1 ? 'change' : `${result.sent} changes`} made offline ${result.sent === 1 ? 'was' : 'were'} saved.`);
  return result;
}
