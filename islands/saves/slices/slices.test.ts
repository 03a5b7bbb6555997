/// <reference types="jest" />
import { bookmarks, bookmarksSlice } from './bookmarks';
import { favourites, favouritesSlice } from './favourites';
import { profile, profileFromInitialState, profileSlice } from './profile';
import { ratings, ratingsSlice } from './ratings';

describe('saves slices', () => {
  test('a saved-id map loads, saves, removes and tracks calls in flight', () => {
    let s = favouritesSlice.reducer(undefined, favourites.mapLoaded({ map: { 1: 11 } }));
    expect(s).toEqual({ map: { 1: 11 }, pending: {}, loaded: true });
    s = favouritesSlice.reducer(s, favourites.saved({ objectId: 2, value: 22 }));
    s = favouritesSlice.reducer(s, favourites.pendingChanged({ objectId: 2, pending: true }));
    expect(s.map).toEqual({ 1: 11, 2: 22 });
    expect(s.pending).toEqual({ 2: true });
    s = favouritesSlice.reducer(s, favourites.removed({ objectId: 1 }));
    s = favouritesSlice.reducer(s, favourites.pendingChanged({ objectId: 2, pending: false }));
    expect(s).toEqual({ map: { 2: 22 }, pending: {}, loaded: true });
  });

  test('bookmarks keep one map per kind', () => {
    let s = bookmarksSlice.reducer(undefined, bookmarks.saved({ kind: 'videos', objectId: 5, value: 50 }));
    s = bookmarksSlice.reducer(s, bookmarks.mapLoaded({ kind: 'articles', map: { 9: 90 } }));
    expect(s.videos.map).toEqual({ 5: 50 });
    expect(s.articles).toEqual({ map: { 9: 90 }, pending: {}, loaded: true });
    expect(s.events.loaded).toBe(false);
  });

  test('ratings show and hide the thanks', () => {
    let s = ratingsSlice.reducer(undefined, ratings.thanksChanged({ objectId: 3, shown: true }));
    expect(s.thanked).toEqual({ 3: true });
    s = ratingsSlice.reducer(s, ratings.thanksChanged({ objectId: 3, shown: false }));
    expect(s.thanked).toEqual({});
  });

  test('the page names nobody: the auth check names the member; the calendar question opens and closes', () => {
    const page = { kinds: ['eventBookmarks' as const], calendarEnabled: true };
    expect(profileFromInitialState(page)).toMatchObject({ member: null, memberChecked: true });
    const asking = profileFromInitialState(page, true);
    expect(asking).toEqual({ member: null, memberChecked: false, kinds: ['eventBookmarks'], calendarEnabled: true, calendarSync: null, calendarPromptFor: null });
    const p = profileSlice.reducer(asking, profile.memberFound({ member: { id: 1, email: 'a@b.c' }, calendarSync: false }));
    expect(p).toMatchObject({ member: { id: 1, email: 'a@b.c' }, memberChecked: true, calendarSync: false });
    let s = profileSlice.reducer(p, profile.calendarPromptOpened({ eventId: 4 }));
    expect(s.calendarPromptFor).toBe(4);
    s = profileSlice.reducer(s, profile.calendarAnswered({ choice: true }));
    s = profileSlice.reducer(s, profile.calendarSyncChanged({ sync: true }));
    expect(s).toMatchObject({ calendarPromptFor: null, calendarSync: true });
    expect(profileSlice.reducer(s, profile.signedOut()).member).toBeNull();
    expect(profileFromInitialState(undefined).member).toBeNull();
  });
});
