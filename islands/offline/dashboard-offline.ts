import { DEFAULT_SAVE_ORDERING, SAVE_KINDS } from '../../shared/save-kinds';
import { PAGE_SIZE } from '../../shared/constants';
import { idbStore, type OfflineStore } from './db';
import { offlineDashboardApi, replayQueue } from './dashboard-api';
import { setNotice, setQueued, shownLive } from './status';

export { OfflineNotice } from './OfflineNotice';

// The dashboard's offline side, loaded by islands/offline/dashboard.ts: wraps its API
// (dashboard-api.ts), sends what waits when the connection returns, keeps the four saved lists
// synced on every visit made online, and tells the service worker whose dashboard this is, so
// it keeps the page in that member's cache.

type ListCalls = Record<'favourites' | 'todos' | 'articleBookmarks' | 'eventBookmarks', (q: Record<string, unknown>) => Promise<unknown>>;

// The first page of each list as the dashboard asks for it, so it is there offline even when
// the member did not open that list this time.
const SYNC: Array<[keyof ListCalls, Record<string, unknown>]> = [
  ['favourites', { offset: 0, limit: SAVE_KINDS.favourites.pageSize }],
  ['todos', { completed: 0, offset: 0, limit: SAVE_KINDS.todos.pageSize }],
  ['todos', { completed: 1, offset: 0, limit: PAGE_SIZE.completedTodos }],
  ['articleBookmarks', { offset: 0, limit: SAVE_KINDS.articleBookmarks.pageSize, ordering: DEFAULT_SAVE_ORDERING }],
  ['eventBookmarks', { offset: 0, limit: SAVE_KINDS.eventBookmarks.pageSize, ordering: DEFAULT_SAVE_ORDERING }],
];

export function startOffline<A extends object>(api: A, member: number, store: OfflineStore = idbStore): A {
  const wrapped = offlineDashboardApi(api, member, { store });
  const lists = wrapped as unknown as ListCalls;

  const sync = async () => {
    for (const [call, query] of SYNC) await lists[call](query).catch(() => undefined);
  };
  const sendWaiting = async () => {
    const result = await replayQueue(api, member, { store }).catch(() => null);
    if (result && !result.waiting) shownLive();
  };
  window.addEventListener('online', () => {
    void sendWaiting().then(sync);
  });
  window.addEventListener('offline', () => setNotice(null));
  void store.queued(member).then((q) => setQueued(q.length), () => undefined);

  const start = () => {
    if (navigator.onLine === false) return;
    void sendWaiting()
      .then(sync)
      .then(() => navigator.serviceWorker?.ready)
      .then((registration) => registration?.active?.postMessage({ type: 'member', id: member }));
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return wrapped;
}
