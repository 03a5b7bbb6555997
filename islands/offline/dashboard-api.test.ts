import './test-idb';
import { ApiError } from '../common/api';
import { forgetMembers, idbStore } from './db';
import { OFFLINE_REFUSED, offlineDashboardApi, replayQueue } from './dashboard-api';
import { listKey, mergePage, pageFrom, type PageLike } from './lists';
import { getOfflineStatus, resetOfflineStatus } from './status';

// The dashboard's offline side on the real IndexedDB code (fake-indexeddb): lists kept per
// member and read back with no connection, ticks and removals queued and sent in order when the
// connection returns, other changes refused, and nothing of one member shown to another.

const todo = (id: number, name = `Place ${id}`) => ({ id, is_done: false, listing: { id: id * 10, name } });
const fav = (id: number) => ({ id, listing: { id: id * 10, name: `Fav ${id}` } });
const page = <T>(results: T[], count = results.length): PageLike<T> & { results: T[] } => ({ count, next: null, previous: null, results });
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

function fakeApi() {
  const server = {
    todos: { 0: [todo(1), todo(2)], 1: [] as ReturnType<typeof todo>[] } as Record<number, ReturnType<typeof todo>[]>,
    favourites: [fav(5), fav(6)],
    connected: true,
    sent: [] as string[],
  };
  const api = {
    favourites: jest.fn(async (_q: Record<string, unknown>) => (server.connected ? page(server.favourites) : offline())),
    todos: jest.fn(async (q: Record<string, unknown>) => (server.connected ? page(server.todos[Number(q.completed)]) : offline())),
    articleBookmarks: jest.fn(async (_q: Record<string, unknown>) => (server.connected ? page([]) : offline())),
    eventBookmarks: jest.fn(async () => (server.connected ? page([]) : offline())),
    completeTodo: jest.fn(async (id: number) => {
      if (!server.connected) return offline();
      server.sent.push(`complete ${id}`);
      const t = server.todos[0].find((x) => x.id === id);
      if (!t) throw new ApiError(404, { detail: 'Not found.' });
      server.todos[0] = server.todos[0].filter((x) => x.id !== id);
      server.todos[1] = [{ ...t, is_done: true }, ...server.todos[1]];
      return { ...t, is_done: true };
    }),
    deleteFavourite: jest.fn(async (id: number) => {
      if (!server.connected) return offline();
      server.sent.push(`delete favourite ${id}`);
      server.favourites = server.favourites.filter((f) => f.id !== id);
      return null;
    }),
    patchProfile: jest.fn(async () => (server.connected ? { id: 1 } : offline())),
    counts: jest.fn(async () => (server.connected ? {} : offline())),
  };
  return { server, api };
}

let online = true;
beforeEach(async () => {
  online = true;
  resetOfflineStatus();
  await forgetMembers(null);
});

const wrap = <A extends object>(api: A, member: number, now = '2026-11-27T15:30:00Z'): A => offlineDashboardApi(api, member, { store: idbStore, now: () => new Date(now), online: () => online });

test('a list read online is kept; offline it is read back with the day it was saved', async () => {
  const { server, api } = fakeApi();
  const w = wrap(api, 7);
  await expect(w.todos({ completed: 0, offset: 0, limit: 20 })).resolves.toMatchObject({ count: 2 });
  expect(getOfflineStatus().savedAt).toBeNull();
  server.connected = false;
  online = false;
  const read = await w.todos({ completed: 0, offset: 0, limit: 20 });
  expect(read.results.map((t) => t.id)).toEqual([1, 2]);
  expect(read.server_time).toBe('2026-11-27T15:30:00.000Z');
  expect(getOfflineStatus().savedAt).toBe('2026-11-27T15:30:00.000Z');
  // A list never read online has nothing to show: the failure stands.
  await expect(w.articleBookmarks({ offset: 0, limit: 20, ordering: '-created' })).rejects.toBeInstanceOf(TypeError);
});

test("one member's kept lists are never read for another", async () => {
  const { server, api } = fakeApi();
  await wrap(api, 7).favourites({ offset: 0, limit: 20 });
  server.connected = false;
  await expect(wrap(api, 8).favourites({ offset: 0, limit: 20 })).rejects.toBeInstanceOf(TypeError);
  expect(listKey(7, 'favourites', { offset: 0 })).not.toBe(listKey(8, 'favourites', { offset: 0 }));
});

test('a tick and a removal offline are queued, shown done, and sent in order when the connection returns', async () => {
  const { server, api } = fakeApi();
  const w = wrap(api, 7);
  await w.todos({ completed: 0, offset: 0, limit: 20 });
  await w.todos({ completed: 1, offset: 0, limit: 15 });
  await w.favourites({ offset: 0, limit: 20 });
  server.connected = false;
  online = false;

  await expect(w.completeTodo(2)).resolves.toMatchObject({ id: 2, is_done: true });
  await expect(w.deleteFavourite(5)).resolves.toBeNull();
  expect(getOfflineStatus().queued).toBe(2);
  expect(api.completeTodo).not.toHaveBeenCalled();

  // Read again offline (a reload): the kept lists show both as done.
  expect((await w.todos({ completed: 0, offset: 0, limit: 20 })).results.map((t) => t.id)).toEqual([1]);
  expect((await w.todos({ completed: 1, offset: 0, limit: 15 })).results).toEqual([expect.objectContaining({ id: 2, is_done: true })]);
  expect((await w.favourites({ offset: 0, limit: 20 })).results.map((f) => f.id)).toEqual([6]);

  server.connected = true;
  online = true;
  await expect(replayQueue(api, 7, { store: idbStore })).resolves.toEqual({ sent: 2, dropped: 0, waiting: false });
  expect(server.sent).toEqual(['complete 2', 'delete favourite 5']);
  expect(getOfflineStatus()).toMatchObject({ queued: 0, notice: 'Your 2 changes made offline were saved.' });
  // Sent once only.
  await expect(replayQueue(api, 7, { store: idbStore })).resolves.toEqual({ sent: 0, dropped: 0, waiting: false });
  // And the kept lists now say so even without the queue.
  server.connected = false;
  expect((await w.todos({ completed: 0, offset: 0, limit: 20 })).results.map((t) => t.id)).toEqual([1]);
});

test('replay: no connection keeps the queue; a refused CSRF token is fetched afresh once; a 404 counts as done; a 400 is dropped and said', async () => {
  const { server, api } = fakeApi();
  const w = wrap(api, 7);
  await w.todos({ completed: 0, offset: 0, limit: 20 });
  await w.favourites({ offset: 0, limit: 20 });
  server.connected = false;
  online = false;
  await w.completeTodo(1);
  await w.deleteFavourite(6);
  await expect(replayQueue(api, 7, { store: idbStore })).resolves.toEqual({ sent: 0, dropped: 0, waiting: true });
  expect(getOfflineStatus().queued).toBe(2);

  server.connected = true;
  let csrfRefused = true;
  const completeTodo = api.completeTodo.getMockImplementation()!;
  api.completeTodo.mockImplementation(async (id: number) => {
    if (csrfRefused) throw new ApiError(403, { detail: 'CSRF Failed: CSRF token missing.' });
    return completeTodo(id);
  });
  const refreshToken = jest.fn(async () => {
    csrfRefused = false;
  });
  api.deleteFavourite.mockRejectedValueOnce(new ApiError(400, { detail: 'Bad request.' }));
  await expect(replayQueue(api, 7, { store: idbStore, refreshToken })).resolves.toEqual({ sent: 1, dropped: 1, waiting: false });
  expect(refreshToken).toHaveBeenCalledTimes(1);
  expect(getOfflineStatus().notice).toMatch(/could not be saved/);
  expect(await idbStore.queued(7)).toEqual([]);

  // A to-do deleted meanwhile on another device: the tick is moot, not an error.
  online = false;
  server.connected = false;
  await w.todos({ completed: 0, offset: 0, limit: 20 }).catch(() => undefined);
  server.todos[0] = [todo(2)];
  server.connected = true;
  await w.todos({ completed: 0, offset: 0, limit: 20 });
  server.connected = false;
  await w.completeTodo(2);
  server.todos[0] = [];
  server.connected = true;
  await expect(replayQueue(api, 7, { store: idbStore })).resolves.toEqual({ sent: 1, dropped: 0, waiting: false });
});

test('a signed-out replay (401) waits; other changes offline are refused with a clear message', async () => {
  const { server, api } = fakeApi();
  const w = wrap(api, 7);
  await w.favourites({ offset: 0, limit: 20 });
  server.connected = false;
  online = false;
  await w.deleteFavourite(5);
  await expect(w.patchProfile()).rejects.toMatchObject({ status: 503, message: OFFLINE_REFUSED });
  server.connected = true;
  api.deleteFavourite.mockRejectedValueOnce(new ApiError(401, { detail: 'Authentication credentials were not provided.' }));
  await expect(replayQueue(api, 7, { store: idbStore })).resolves.toEqual({ sent: 0, dropped: 0, waiting: true });
  expect(await idbStore.queued(7)).toHaveLength(1);
});

test('forgetting members deletes their lists and queue, keeping only the member signed in', async () => {
  const { server, api } = fakeApi();
  await wrap(api, 7).favourites({ offset: 0, limit: 20 });
  await wrap(api, 8).favourites({ offset: 0, limit: 20 });
  server.connected = false;
  online = false;
  await wrap(api, 7).deleteFavourite(5);
  await forgetMembers(8);
  expect(await idbStore.lists(7)).toEqual([]);
  expect(await idbStore.queued(7)).toEqual([]);
  expect(await idbStore.lists(8)).toHaveLength(1);
  await forgetMembers(null);
  expect(await idbStore.lists(8)).toEqual([]);
});

test('paging: later pages add on, the first replaces; offline pages slice what was kept', () => {
  const first = mergePage(undefined, 1, 'favourites', { offset: 0, limit: 2 }, page([fav(1), fav(2)], 3), 't1');
  const both = mergePage(first, 1, 'favourites', { offset: 2, limit: 2 }, page([fav(3)], 3), 't2');
  expect(both.results.map((f) => f.id)).toEqual([1, 2, 3]);
  expect(pageFrom(both, { offset: 0, limit: 2 }, [])).toMatchObject({ count: 3, next: expect.any(String), results: [{ id: 1 }, { id: 2 }] });
  expect(pageFrom(both, { offset: 2, limit: 2 }, [])).toMatchObject({ next: null, results: [{ id: 3 }] });
  expect(mergePage(both, 1, 'favourites', { offset: 0, limit: 2 }, page([fav(9)], 1), 't3').results.map((f) => f.id)).toEqual([9]);
});
