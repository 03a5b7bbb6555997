/// <reference types="jest" />
import { ApiError } from '../../common/api';
import { calendarDialogRequested, eventIdParam, eventSaveRequested, toggleRequested } from '../actions';
import { readCachedMap, writeCachedMap } from '../cache';
import { profile } from '../slices/profile';
import { ratings } from '../slices/ratings';
import { fakeApi, setup, settle } from '../testing';

const T0 = '2026-11-01T09:00:00.000Z';
const T1 = '2026-11-01T11:00:00.000Z';

describe('saves sagas', () => {
  beforeEach(() => localStorage.clear());

  describe('loading the saved-id maps', () => {
    test('a member with no cache: one /hi/ and one map per kind on the page, then cached', async () => {
      const api = fakeApi({ authStatus: jest.fn().mockResolvedValue({ id: 7, last_updates: { favourites: T0, todos: null, ratings: T0 } }) });
      api.ids.mockImplementation((kind: string) => Promise.resolve(kind === 'ratings' ? { 4: { id: 40, rating: 3 } } : kind === 'favourites' ? { 4: 41 } : {}));
      const { store } = setup({}, api);
      await settle();
      expect(api.authStatus).toHaveBeenCalledTimes(1);
      expect(api.ids.mock.calls.map((c) => c[0]).sort()).toEqual(['favourites', 'ratings', 'todos']);
      expect(store.getState().favourites).toMatchObject({ map: { 4: 41 }, loaded: true });
      expect(store.getState().ratings.map).toEqual({ 4: { id: 40, rating: 3 } });
      expect(readCachedMap('favourites')).toEqual({ map: { 4: 41 }, updatedAt: T0 });
      expect(readCachedMap('todos')).toEqual({ map: {}, updatedAt: null });
    });

    test('fresh caches cost only the /hi/ call; a later last_updates refetches that kind alone', async () => {
      writeCachedMap('favourites', { 4: 41 }, T0);
      writeCachedMap('todos', { 5: 51 }, null);
      writeCachedMap('ratings', {}, T0);
      const api = fakeApi({ authStatus: jest.fn().mockResolvedValue({ id: 7, last_updates: { favourites: T1, todos: null, ratings: T0 } }) });
      api.ids.mockResolvedValue({ 6: 61 });
      const { store } = setup({}, api);
      await settle();
      expect(api.ids.mock.calls).toEqual([['favourites']]);
      expect(store.getState().favourites.map).toEqual({ 6: 61 });
      expect(store.getState().todos).toMatchObject({ map: { 5: 51 }, loaded: true });
      expect(readCachedMap('favourites')?.updatedAt).toBe(T1);
    });

    test('a failed map load falls back to an empty map; a 401 from /hi/ makes the page a guest page', async () => {
      const failing = fakeApi({ ids: jest.fn().mockRejectedValue(new ApiError(500, {})) });
      const a = setup({ kinds: ['articleBookmarks'] }, failing);
      await settle();
      expect(a.store.getState().bookmarks.articles).toMatchObject({ map: {}, loaded: true });
      expect(readCachedMap('articleBookmarks')).toBeNull();

      const signedOut = fakeApi({ authStatus: jest.fn().mockRejectedValue(new ApiError(401, { detail: 'no' })) });
      const b = setup({ kinds: ['videoBookmarks'] }, signedOut);
      await settle();
      expect(b.store.getState().profile.member).toBeNull();
      expect(signedOut.ids).not.toHaveBeenCalled();
    });

    test('guests make no request', async () => {
      const { api } = setup({ member: null });
      await settle();
      expect(api.authStatus).not.toHaveBeenCalled();
      expect(api.ids).not.toHaveBeenCalled();
    });
  });

  describe('toggles', () => {
    test('a click before the auth check answers waits for it: a member saves, never sees the login dialog', async () => {
      let answer: (v: unknown) => void = () => {};
      const api = fakeApi({ authStatus: jest.fn(() => new Promise((resolve) => (answer = resolve))) });
      const { store, context } = setup({}, api);
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 9 }));
      await settle();
      expect(store.getState().profile).toMatchObject({ member: null, memberChecked: false });
      expect(api.create).not.toHaveBeenCalled();
      answer({ last_updates: {} });
      await settle();
      expect(store.getState().profile.member).toEqual({ id: 7, email: 'saver@example.com' });
      expect(context.requestLogin).not.toHaveBeenCalled();
      expect(api.create).toHaveBeenCalledWith('favourites', 9);
    });

    test('a guest gets the login dialog with the action and object remembered', async () => {
      const { store, context, api } = setup({ member: null });
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 9 }));
      store.dispatch(toggleRequested({ kind: 'videoBookmarks', objectId: 3 }));
      await settle();
      expect(context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-favourite', object_id: 9 } });
      expect(context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-video-bookmark', object_id: 3 } });
      expect(api.create).not.toHaveBeenCalled();
    });

    test('create is optimistic and keeps the new id; the cache follows with the server time', async () => {
      let resolve: (v: unknown) => void = () => {};
      const api = fakeApi({ create: jest.fn().mockReturnValue(new Promise((r) => (resolve = r))) });
      writeCachedMap('favourites', {}, T0);
      const { store } = setup({}, api);
      await settle();
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 9 }));
      expect(store.getState().favourites.map[9]).toBe(-1);
      expect(store.getState().favourites.pending[9]).toBe(true);
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 9 })); // ignored while in flight
      resolve({ id: 90, date_created: T1 });
      await settle();
      expect(api.create).toHaveBeenCalledTimes(1);
      expect(api.create).toHaveBeenCalledWith('favourites', 9);
      expect(store.getState().favourites).toMatchObject({ map: { 9: 90 }, pending: {} });
      expect(readCachedMap('favourites')).toEqual({ map: { 9: 90 }, updatedAt: T1 });
    });

    test('a failed create rolls back, with no message', async () => {
      const { store } = setup({}, fakeApi({ create: jest.fn().mockRejectedValue(new ApiError(500, {})) }));
      await settle();
      store.dispatch(toggleRequested({ kind: 'todos', objectId: 9 }));
      await settle();
      expect(store.getState().todos).toMatchObject({ map: {}, pending: {} });
    });

    test('an active save is deleted and the cached map cleared; a failed delete restores it', async () => {
      writeCachedMap('favourites', { 9: 90, 8: 80 }, T0);
      const api = fakeApi();
      const { store } = setup({}, api);
      await settle();
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 9 }));
      await settle();
      expect(api.remove).toHaveBeenCalledWith('favourites', 90);
      expect(store.getState().favourites.map).toEqual({ 8: 80 });
      expect(readCachedMap('favourites')).toBeNull();

      api.remove.mockRejectedValueOnce(new ApiError(500, {}));
      store.dispatch(toggleRequested({ kind: 'favourites', objectId: 8 }));
      await settle();
      expect(store.getState().favourites.map).toEqual({ 8: 80 });
    });
  });

  describe('rating', () => {
    test('a first rating is created, thanks shown for 1.6 s', async () => {
      jest.useFakeTimers();
      try {
        const { store, api } = setup();
        await jest.advanceTimersByTimeAsync(0);
        store.dispatch(ratings.rateRequested({ listingId: 4, rating: 5 }));
        await jest.advanceTimersByTimeAsync(0);
        expect(api.rate).toHaveBeenCalledWith(4, 5);
        expect(store.getState().ratings.map[4]).toEqual({ id: 200, rating: 5 });
        expect(store.getState().ratings.thanked[4]).toBe(true);
        await jest.advanceTimersByTimeAsync(1599);
        expect(store.getState().ratings.thanked[4]).toBe(true);
        await jest.advanceTimersByTimeAsync(1);
        expect(store.getState().ratings.thanked[4]).toBeUndefined();
      } finally {
        jest.useRealTimers();
      }
    });

    test('an existing rating is updated; a failed update reverts the stars', async () => {
      writeCachedMap('ratings', { 4: { id: 40, rating: 2 } }, T0);
      const api = fakeApi();
      const { store } = setup({}, api);
      await settle();
      store.dispatch(ratings.rateRequested({ listingId: 4, rating: 4 }));
      await settle();
      expect(api.updateRating).toHaveBeenCalledWith(40, 4);
      expect(store.getState().ratings.map[4]).toEqual({ id: 40, rating: 4 });

      api.updateRating.mockRejectedValueOnce(new ApiError(500, {}));
      store.dispatch(ratings.rateRequested({ listingId: 4, rating: 1 }));
      await settle();
      expect(store.getState().ratings.map[4]).toEqual({ id: 40, rating: 4 });
      expect(store.getState().ratings.thanked[4]).toBe(true); // from the first, not the failed one
    });

    test('a guest rating opens the login dialog with the rating', async () => {
      const { store, context } = setup({ member: null });
      store.dispatch(ratings.rateRequested({ listingId: 4, rating: 3 }));
      await settle();
      expect(context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-rating', object_id: 4, rating: 3 } });
    });
  });

  test('removing an article bookmark drops its cached map, and only that one (spec 1 §4)', async () => {
    writeCachedMap('articleBookmarks', { 8: 80 }, T0);
    writeCachedMap('videoBookmarks', { 9: 90 }, T0);
    const { store, api } = setup({ kinds: ['articleBookmarks', 'videoBookmarks'] });
    await settle();
    store.dispatch(toggleRequested({ kind: 'articleBookmarks', objectId: 8 }));
    await settle();
    expect(api.remove).toHaveBeenCalledWith('articleBookmarks', 80);
    expect(readCachedMap('articleBookmarks')).toBeNull();
    expect(readCachedMap('videoBookmarks')).not.toBeNull();
  });

  describe('event save', () => {
    const events = { kinds: ['eventBookmarks' as const] };

    test('preference unset: the Yes/No question, the answer stored, the save made with it', async () => {
      const { store, api } = setup(events);
      await settle();
      store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(store.getState().profile.calendarPromptFor).toBe(12);
      expect(api.saveEvent).not.toHaveBeenCalled();
      store.dispatch(profile.calendarAnswered({ choice: true }));
      await settle();
      expect(api.setCalendarSync).toHaveBeenCalledWith({ id: 7, email: 'saver@example.com' }, true);
      expect(api.saveEvent).toHaveBeenCalledWith(12, true);
      expect(store.getState().profile).toMatchObject({ calendarSync: true, calendarPromptFor: null });
      expect(store.getState().bookmarks.events.map).toEqual({ 12: 300 });
    });

    test('dismissing the question saves nothing; a set preference asks nothing', async () => {
      const a = setup(events);
      await settle();
      a.store.dispatch(eventSaveRequested({ eventId: 12 }));
      a.store.dispatch(profile.calendarAnswered({ choice: null }));
      await settle();
      expect(a.api.saveEvent).not.toHaveBeenCalled();
      expect(a.api.setCalendarSync).not.toHaveBeenCalled();

      const b = setup({ ...events, member: { id: 7, email: 'saver@example.com', calendarSync: false } });
      await settle();
      b.store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(b.store.getState().profile.calendarPromptFor).toBeNull();
      expect(b.api.saveEvent).toHaveBeenCalledWith(12, false);
    });

    test('calendar sync not configured: saved without the calendar, no question', async () => {
      const { store, api } = setup({ ...events, calendarEnabled: false });
      await settle();
      store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(api.saveEvent).toHaveBeenCalledWith(12, false);
    });

    test('?eventId=N asks the question even with a stored preference, once the map is read, and saves with the answer', async () => {
      expect([eventIdParam('?eventId=12'), eventIdParam('?eventId=0'), eventIdParam('?eventId=12abc'), eventIdParam('?x=1'), eventIdParam('?eventId=-3')]).toEqual([12, null, null, null, null]);
      let release: (v: unknown) => void = () => undefined;
      const api = fakeApi({ ids: jest.fn(() => new Promise((r) => (release = r))) });
      const { store } = setup({ ...events, member: { id: 7, email: 'saver@example.com', calendarSync: false } }, api);
      store.dispatch(calendarDialogRequested({ eventId: 12 }));
      await settle();
      // Not before the saved-event map is known.
      expect(store.getState().profile.calendarPromptFor).toBeNull();
      release({});
      await settle();
      expect(store.getState().profile.calendarPromptFor).toBe(12);
      store.dispatch(profile.calendarAnswered({ choice: true }));
      await settle();
      expect(api.setCalendarSync).toHaveBeenCalledWith({ id: 7, email: 'saver@example.com' }, true);
      expect(api.saveEvent).toHaveBeenCalledWith(12, true);
      expect(store.getState().bookmarks.events.map).toEqual({ 12: 300 });
    });

    test('?eventId=N does nothing for an event already saved, for guests, or with sync off', async () => {
      writeCachedMap('eventBookmarks', { 12: 120 }, T0);
      const saved = setup(events);
      saved.store.dispatch(calendarDialogRequested({ eventId: 12 }));
      await settle();
      expect(saved.store.getState().profile.calendarPromptFor).toBeNull();
      expect(saved.api.remove).not.toHaveBeenCalled();
      const guest = setup({ ...events, member: null });
      guest.store.dispatch(calendarDialogRequested({ eventId: 13 }));
      await settle();
      expect(guest.context.requestLogin).not.toHaveBeenCalled();
      const off = setup({ ...events, calendarEnabled: false });
      off.store.dispatch(calendarDialogRequested({ eventId: 13 }));
      await settle();
      expect(off.store.getState().profile.calendarPromptFor).toBeNull();
      expect(off.api.saveEvent).not.toHaveBeenCalled();
    });

    test('101 with add_to_calendar goes to the authorization URL and keeps nothing', async () => {
      const api = fakeApi({ saveEvent: jest.fn().mockResolvedValue({ status: 101, authorization_url: 'https://accounts.google.com/o/oauth2?x=1' }) });
      const { store, context } = setup({ ...events, member: { id: 7, email: 'saver@example.com', calendarSync: true } }, api);
      await settle();
      store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(api.saveEvent).toHaveBeenCalledWith(12, true);
      expect(context.navigate).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2?x=1');
      expect(store.getState().bookmarks.events.map).toEqual({});
    });

    test('a saved event is removed; a guest gets the login dialog', async () => {
      writeCachedMap('eventBookmarks', { 12: 120 }, T0);
      const { store, api } = setup(events);
      await settle();
      store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(api.remove).toHaveBeenCalledWith('eventBookmarks', 120);
      expect(store.getState().bookmarks.events.map).toEqual({});
      // Spec 1 §4 delete flow: the event bookmark map is dropped too (issue 13 item 5).
      expect(readCachedMap('eventBookmarks')).toBeNull();

      const guest = setup({ ...events, member: null });
      guest.store.dispatch(eventSaveRequested({ eventId: 12 }));
      await settle();
      expect(guest.context.requestLogin).toHaveBeenCalledWith({ pendingAction: { post_authenticate_action: 'add-event-bookmark', object_id: 12 } });
    });
  });
});
