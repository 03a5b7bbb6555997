/// <reference types="jest" />
import { runSaga } from 'redux-saga';
import { delay } from 'redux-saga/effects';
import { ApiError } from '../../common/api';
import { createDashboardStore, type DashboardRootState } from '../store';
import { initialProfileState, profileActions } from '../slices/profile';
import { favouritesSlice, LIST_SLICES, ratingChangeRequested, todoCompletionRequested, todosSlice, completedTodosSlice, todoRatingRequested, type ListName } from '../slices/lists';
import { readCachedMap, writeCachedMap } from '../../saves/cache';
import type { SaveKind } from '../../saves/types';
import { changePasswordSaga, saveNewsletterSaga } from '.';
import { bookmarkPage, counts, fakeApi, favourite, page, profile, todo } from '../testing';
import { SAVE_KINDS } from '../../../shared/save-kinds';

const flush = () => new Promise((r) => setTimeout(r, 0));

function storeWith(api = fakeApi(), forgetCache = jest.fn()) {
  const store = createDashboardStore({ profile: { ...initialProfileState, data: profile() }, counts: counts({ favourite_count: 2, todos_count: 1 }) }, { api, forgetCache });
  return { store, api, forgetCache, state: () => store.getState() as DashboardRootState };
}

describe('dashboard sagas', () => {
  test('a list loads its page with the list params and feeds the profile count', async () => {
    const api = fakeApi({ favourites: jest.fn(async () => page([favourite(1), favourite(2)], 3)) });
    const { store, state } = storeWith(api);
    store.dispatch(favouritesSlice.actions.pageRequested({ offset: 0 }));
    await flush();
    expect(api.favourites).toHaveBeenCalledWith({ offset: 0, limit: 15, ordering: null });
    expect(state().favourites).toMatchObject({ count: 3, pending: 0 });
    expect(state().counts?.favourite_count).toBe(3);
  });

  test('the open and completed to-dos ask with completed 0 and 1', async () => {
    const api = fakeApi();
    const { store } = storeWith(api);
    store.dispatch(todosSlice.actions.pageRequested());
    store.dispatch(completedTodosSlice.actions.pageRequested());
    await flush();
    expect(api.todos).toHaveBeenCalledWith(expect.objectContaining({ completed: 0, limit: 100 }));
    expect(api.todos).toHaveBeenCalledWith(expect.objectContaining({ completed: 1, limit: 15 }));
  });

  test('a confirmed delete removes the item, drops the counts and the cached map', async () => {
    const api = fakeApi({ favourites: jest.fn(async () => page([favourite(1), favourite(2)])) });
    const { store, state, forgetCache } = storeWith(api);
    store.dispatch(favouritesSlice.actions.pageRequested());
    await flush();
    store.dispatch(favouritesSlice.actions.deleteRequested(1));
    await flush();
    expect(api.deleteFavourite).toHaveBeenCalledWith(1);
    expect(state().favourites.items.map((f) => f.id)).toEqual([2]);
    expect(state().favourites.count).toBe(1);
    expect(state().counts?.favourite_count).toBe(1);
    expect(forgetCache).toHaveBeenCalledWith('favourites.listingMap');
  });

  test('a failed delete or fetch leaves the state unchanged', async () => {
    const api = fakeApi({ favourites: jest.fn(async () => page([favourite(1)])), deleteFavourite: jest.fn(async () => Promise.reject(new ApiError(500, {}))) });
    const { store, state } = storeWith(api);
    store.dispatch(favouritesSlice.actions.pageRequested());
    await flush();
    const before = state().favourites.items;
    store.dispatch(favouritesSlice.actions.deleteRequested(1));
    await flush();
    expect(state().favourites.items).toBe(before);
    expect(state().favourites.pending).toBe(0);
    api.favourites.mockRejectedValueOnce(new ApiError(500, {}));
    store.dispatch(favouritesSlice.actions.pageRequested());
    await flush();
    expect(state().favourites).toMatchObject({ items: before, count: 1, status: 'failed' });
  });

  test('completing a to-do moves it to the head of the completed list and lowers the count', async () => {
    const api = fakeApi({
      todos: jest.fn(async (q: { completed: number }) => (q.completed ? page([todo(9, true)]) : page([todo(1), todo(2)]))),
      completeTodo: jest.fn(async (id: number) => todo(id, true)),
    });
    const { store, state } = storeWith(api);
    store.dispatch(todosSlice.actions.pageRequested());
    store.dispatch(completedTodosSlice.actions.pageRequested());
    await flush();
    store.dispatch(todoCompletionRequested(2));
    await flush();
    expect(state().todos.items.map((t) => t.id)).toEqual([1]);
    expect(state().completedTodos.items.map((t) => t.id)).toEqual([2, 9]);
    expect(state().completedTodos.count).toBe(2);
    expect(state().counts?.todos_count).toBe(1);
  });

  test('rating a completed to-do creates the rating, or reverts on failure', async () => {
    const api = fakeApi({
      todos: jest.fn(async () => page([todo(9, true, 300)])),
      createRating: jest.fn(async (listing: number, rating: number) => ({ id: 55, rating, listing: { id: listing } })),
    });
    const { store, state } = storeWith(api);
    store.dispatch(completedTodosSlice.actions.pageRequested());
    await flush();
    store.dispatch(todoRatingRequested({ todoId: 9, rating: 4 }));
    await flush();
    expect(api.createRating).toHaveBeenCalledWith(300, 4);
    expect(state().completedTodos.items[0].listing.user_rating).toEqual({ id: 55, rating: 4 });
    api.updateRating.mockRejectedValueOnce(new ApiError(500, {}));
    store.dispatch(todoRatingRequested({ todoId: 9, rating: 2 }));
    await flush();
    expect(api.updateRating).toHaveBeenCalledWith(55, 2);
    expect(state().completedTodos.items[0].listing.user_rating).toEqual({ id: 55, rating: 4 });
  });

  test('a failed rating update reverts the item', async () => {
    const rated = { id: 3, rating: 5, date_created: '', date_updated: '', listing: todo(1).listing };
    const api = fakeApi({ ratings: jest.fn(async () => page([rated])), updateRating: jest.fn(async () => Promise.reject(new ApiError(500, {}))) });
    const { store, state } = storeWith(api);
    store.dispatch({ type: 'ratings/pageRequested' });
    await flush();
    store.dispatch(ratingChangeRequested({ id: 3, rating: 2 }));
    await flush();
    expect(state().ratings.items[0].rating).toBe(5);
  });

  test('the password section closes 3 s after success; server errors reach the form', () => {
    const gen = changePasswordSaga(profileActions.passwordChangeRequested({ current_password: 'a', new_password: 'b' }));
    gen.next(); // getContext
    gen.next(fakeApi()); // call
    expect(gen.next().value).toEqual(expect.objectContaining({ type: 'PUT', payload: expect.objectContaining({ action: profileActions.passwordChanged() }) }));
    expect(gen.next().value).toEqual(delay(3000));
    expect(gen.next().value).toEqual(expect.objectContaining({ payload: expect.objectContaining({ action: profileActions.passwordSuccessHidden() }) }));

    const failing = changePasswordSaga(profileActions.passwordChangeRequested({ current_password: 'a', new_password: 'b' }));
    failing.next();
    failing.next(fakeApi());
    const put = failing.throw(new ApiError(400, { current_password: ['Your old password was entered incorrectly.'] })).value;
    expect(put).toEqual(expect.objectContaining({ payload: expect.objectContaining({ action: profileActions.passwordChangeFailed({ current_password: 'Your old password was entered incorrectly.' }) }) }));
  });

  test('a failed newsletter save puts the box back and shows the error', async () => {
    const dispatched: Array<{ type: string }> = [];
    const api = fakeApi({ patchProfile: jest.fn(async () => Promise.reject(new ApiError(400, { settings_receive_newsletter_travel: ['Must be a valid boolean.'] }))) });
    await runSaga({ dispatch: (a: { type: string }) => dispatched.push(a), context: { api } }, saveNewsletterSaga, profileActions.newsletterToggled({ field: 'settings_receive_newsletter_travel', value: true })).toPromise();
    expect(dispatched).toEqual([profileActions.newsletterSaveFailed({ field: 'settings_receive_newsletter_travel', value: false, error: 'Must be a valid boolean.' })]);
  });
});

describe('deleting on the dashboard drops the cached id map of its kind (spec 1 §4)', () => {
  // The map the saves island keeps in localStorage; the dashboard runs without a forgetCache
  // override, so this is the browser's own storage.
  const DELETABLE: Array<{ list: ListName; kind: SaveKind }> = [
    { list: 'favourites', kind: 'favourites' },
    { list: 'todos', kind: 'todos' },
    { list: 'completedTodos', kind: 'todos' },
    { list: 'articleBookmarks', kind: 'articleBookmarks' },
    { list: 'videoBookmarks', kind: 'videoBookmarks' },
    { list: 'eventBookmarks', kind: 'eventBookmarks' },
  ];

  beforeEach(() => localStorage.clear());

  test.each(DELETABLE)('$list', async ({ list, kind }) => {
    const item = { id: 5 };
    const fetchers = { favourites: 'favourites', todos: 'todos', completedTodos: 'todos', articleBookmarks: 'articleBookmarks', videoBookmarks: 'videoBookmarks', eventBookmarks: 'eventBookmarks' } as const;
    const answer = SAVE_KINDS[kind].serverTime ? bookmarkPage([item]) : page([item]);
    const api = fakeApi({ [fetchers[list as keyof typeof fetchers]]: jest.fn(async () => answer) });
    const store = createDashboardStore({ profile: { ...initialProfileState, data: profile() }, counts: counts() }, { api });
    writeCachedMap(kind, { 42: 5 }, '2026-01-01T00:00:00Z');
    writeCachedMap('ratings', { 43: { id: 1, rating: 4 } }, '2026-01-01T00:00:00Z');
    const slice = LIST_SLICES[list];
    store.dispatch(slice.actions.pageRequested());
    await flush();
    store.dispatch(slice.actions.deleteRequested(5));
    await flush();
    expect((store.getState() as DashboardRootState)[list].items).toEqual([]);
    expect(readCachedMap(kind)).toBeNull();
    // Only that kind's map goes.
    expect(readCachedMap('ratings')).not.toBeNull();
  });
});
