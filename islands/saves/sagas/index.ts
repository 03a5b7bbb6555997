import { all, call, delay, fork, getContext, put, select, take, takeEvery } from 'redux-saga/effects';
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import { ApiError } from '../../common/api';
import type { LoginRequest } from '../../common/auth-events';
import { TIMINGS_MS } from '../../../shared/constants';
import { calendarDialogRequested, eventSaveRequested, toggleRequested } from '../actions';
import type { AuthStatus, CalendarAuthorizationNeeded, CreatedSave, SavesApi } from '../api';
import { dropCachedMap, isFresh, lastUpdateKey, readCachedMap, recordOwnChange, writeCachedMap } from '../cache';
import { SAVE_KINDS } from '../../../shared/save-kinds';
import { bookmarks, type BookmarkKind } from '../slices/bookmarks';
import { favourites } from '../slices/favourites';
import { profile, type ProfileState } from '../slices/profile';
import { ratings } from '../slices/ratings';
import type { SaveMapState } from '../slices/save-map';
import { todos } from '../slices/todos';
import type { SavesRootState } from '../store';
import { PENDING_ID, type RatingEntry, type SaveKind, type ToggleKind } from '../types';

// One saga per flow (spec 1 §4): load the saved-id maps once per page, toggle a save, rate a
// place, save an event. Toggles are optimistic and roll back on failure; failures show no
// message (spec 1 §8). The API, navigation and the login dialog come from the saga context.

export interface SavesSagaContext {
  api: SavesApi;
  navigate: (url: string) => void;
  requestLogin: (req: LoginRequest) => void;
}

function* ctx<K extends keyof SavesSagaContext>(key: K) {
  return (yield getContext(key)) as SavesSagaContext[K];
}

/** How the sagas reach each kind's map in the store. */
interface MapOps<V> {
  select: (s: SavesRootState) => SaveMapState<V>;
  loaded: (map: Record<string, V>) => Action;
  saved: (objectId: number, value: V) => Action;
  removed: (objectId: number) => Action;
  pending: (objectId: number, pending: boolean) => Action;
}

function sliceOps<V>(actions: typeof favourites | typeof todos | typeof ratings, selectMap: (s: SavesRootState) => SaveMapState<V>): MapOps<V> {
  const a = actions as unknown as {
    mapLoaded: (p: { map: Record<string, V> }) => Action;
    saved: (p: { objectId: number; value: V }) => Action;
    removed: (p: { objectId: number }) => Action;
    pendingChanged: (p: { objectId: number; pending: boolean }) => Action;
  };
  return {
    select: selectMap,
    loaded: (map) => a.mapLoaded({ map }),
    saved: (objectId, value) => a.saved({ objectId, value }),
    removed: (objectId) => a.removed({ objectId }),
    pending: (objectId, pending) => a.pendingChanged({ objectId, pending }),
  };
}

const bookmarkOps = (kind: BookmarkKind): MapOps<number> => ({
  select: (s) => s.bookmarks[kind],
  loaded: (map) => bookmarks.mapLoaded({ kind, map }),
  saved: (objectId, value) => bookmarks.saved({ kind, objectId, value }),
  removed: (objectId) => bookmarks.removed({ kind, objectId }),
  pending: (objectId, pending) => bookmarks.pendingChanged({ kind, objectId, pending }),
});

export const OPS: { [K in SaveKind]: MapOps<K extends 'ratings' ? RatingEntry : number> } = {
  favourites: sliceOps(favourites, (s) => s.favourites),
  todos: sliceOps(todos, (s) => s.todos),
  ratings: sliceOps(ratings, (s) => s.ratings),
  articleBookmarks: bookmarkOps('articles'),
  videoBookmarks: bookmarkOps('videos'),
  eventBookmarks: bookmarkOps('events'),
};

const selectProfile = (s: SavesRootState) => s.profile;

/** The profile once the auth check has answered: a click made before then waits for it. */
function* checkedProfile() {
  let p: ProfileState = yield select(selectProfile);
  if (!p.memberChecked) {
    yield take([profile.memberFound.type, profile.signedOut.type]);
    p = yield select(selectProfile);
  }
  return p;
}

/** A guest's protected action: the navbar's login dialog, remembering what was asked. */
function* askToLogIn(kind: SaveKind, objectId: number, rating?: number) {
  const pendingAction = { post_authenticate_action: SAVE_KINDS[kind].loginAction, object_id: objectId, ...(rating ? { rating } : {}) };
  yield call(yield* ctx('requestLogin'), { pendingAction });
}

/** Reads one kind's map from the server; a failed load falls back to an empty map (spec 1 §8). */
function* fetchMap(kind: SaveKind, lastUpdate: string | null) {
  const api = yield* ctx('api');
  try {
    const map: Record<string, unknown> = yield call(api.ids, kind);
    yield put(OPS[kind].loaded(map as never));
    yield call(writeCachedMap, kind, map, lastUpdate);
  } catch {
    yield put(OPS[kind].loaded({}));
  }
}

/**
 * On load, when the signed-in cookie says someone may be signed in: the cached maps at once,
 * then one /profiles/hi/ (shared with the navbar) names the member, and a fresh map is read
 * only for the kinds whose last_updates is later than their cache. Guests need no request.
 */
export function* loadSavedMapsFlow() {
  const { memberChecked, kinds }: ProfileState = yield select(selectProfile);
  if (memberChecked) return;
  const cached = kinds.map((kind) => ({ kind, cache: readCachedMap(kind) }));
  for (const { kind, cache } of cached) if (cache) yield put(OPS[kind].loaded(cache.map as never));
  const api = yield* ctx('api');
  let status: AuthStatus;
  try {
    status = yield call(api.authStatus);
  } catch (err) {
    // No session (401/403), or no answer (spec 1 §8: no message): guests' controls from now
    // on, and the cached maps of someone who is not known to be here are not shown.
    if (!(err instanceof ApiError)) console.warn('Could not check who is signed in', err);
    yield put(profile.signedOut());
    for (const kind of kinds) yield put(OPS[kind].loaded({}));
    return;
  }
  yield put(profile.memberFound({ member: { id: status.id, email: status.email }, calendarSync: status.calendar_sync ?? null }));
  const lastUpdates = status.last_updates ?? {};
  const toFetch = cached.filter(({ kind, cache }) => !isFresh(cache, lastUpdates[lastUpdateKey(kind)]));
  yield all(toFetch.map(({ kind }) => call(fetchMap, kind, lastUpdates[lastUpdateKey(kind)] ?? null)));
}

/** Favourite, to-do, article and video bookmark: create if absent, delete if present. */
export function* toggleFlow(action: PayloadAction<{ kind: ToggleKind; objectId: number }>) {
  const { kind, objectId } = action.payload;
  const { member } = yield* checkedProfile();
  if (!member) return yield* askToLogIn(kind, objectId);
  const ops = OPS[kind];
  const state: SaveMapState<number> = yield select(ops.select);
  if (state.pending[objectId]) return;
  const saveId = state.map[objectId];
  if (saveId !== undefined) return yield* removeSave(kind, objectId, saveId);
  const api = yield* ctx('api');
  yield* createSave(kind, objectId, () => call(api.create, kind, objectId));
}

function* removeSave(kind: SaveKind, objectId: number, saveId: number) {
  const ops = OPS[kind] as MapOps<number>;
  const api = yield* ctx('api');
  yield put(ops.pending(objectId, true));
  yield put(ops.removed(objectId));
  try {
    yield call(api.remove, kind, saveId);
    // Spec 1 §4 "Delete flow": the cached bookmark map is cleared.
    yield call(dropCachedMap, kind);
  } catch {
    yield put(ops.saved(objectId, saveId));
  } finally {
    yield put(ops.pending(objectId, false));
  }
}

/** Optimistic create; answers the server's body (or undefined when it failed and was rolled back). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function* createSave(kind: ToggleKind, objectId: number, request: () => unknown): Generator<unknown, CreatedSave | CalendarAuthorizationNeeded | undefined, any> {
  const ops = OPS[kind] as MapOps<number>;
  yield put(ops.pending(objectId, true));
  yield put(ops.saved(objectId, PENDING_ID));
  try {
    const body = (yield request()) as CreatedSave | CalendarAuthorizationNeeded;
    if ('status' in body && body.status === 101) {
      yield put(ops.removed(objectId)); // not kept until the calendar is authorised
    } else {
      const created = body as CreatedSave;
      yield put(ops.saved(objectId, created.id));
      const map = ((yield select(ops.select)) as SaveMapState<number>).map;
      yield call(recordOwnChange, kind, map, created.date_created);
    }
    return body;
  } catch {
    yield put(ops.removed(objectId));
    return undefined;
  } finally {
    yield put(ops.pending(objectId, false));
  }
}

/**
 * Event save (spec 1 §4): guests log in; a saved event is removed; otherwise the calendar
 * preference decides add_to_calendar, asking Yes/No first when it is unset (the answer is
 * stored on the profile). A 101 answer with add_to_calendar goes to the authorization URL.
 */
export function* eventSaveFlow(action: PayloadAction<{ eventId: number }>, askAnyway = false) {
  const { eventId } = action.payload;
  const p = yield* checkedProfile();
  if (!p.member) return yield* askToLogIn('eventBookmarks', eventId);
  const state: SaveMapState<number> = yield select(OPS.eventBookmarks.select);
  if (state.pending[eventId] || p.calendarPromptFor !== null) return;
  const saveId = state.map[eventId];
  if (saveId !== undefined) return askAnyway ? undefined : yield* removeSave('eventBookmarks', eventId, saveId);

  const api = yield* ctx('api');
  let addToCalendar = false;
  if (p.calendarEnabled) {
    let sync = askAnyway ? null : p.calendarSync;
    if (sync === null) {
      yield put(profile.calendarPromptOpened({ eventId }));
      const answer: ReturnType<typeof profile.calendarAnswered> = yield take(profile.calendarAnswered.type);
      if (answer.payload.choice === null) return;
      sync = answer.payload.choice;
      yield put(profile.calendarSyncChanged({ sync }));
      try {
        yield call(api.setCalendarSync, p.member, sync);
      } catch (err) {
        console.warn('Could not store the calendar choice', err);
      }
    }
    addToCalendar = sync;
  }
  const body: CreatedSave | CalendarAuthorizationNeeded | undefined = yield* createSave('eventBookmarks', eventId, () => call(api.saveEvent, eventId, addToCalendar));
  if (body && 'status' in body && body.status === 101 && addToCalendar) yield call(yield* ctx('navigate'), body.authorization_url);
}

/**
 * The dialog from ?eventId=N: only for a member, with calendar sync on, once the event map is
 * read (an event already saved is left alone: the question would save nothing).
 */
export function* calendarDialogFlow(action: PayloadAction<{ eventId: number }>) {
  const p = yield* checkedProfile();
  if (!p.member || !p.calendarEnabled) return;
  while (!((yield select(OPS.eventBookmarks.select)) as SaveMapState<number>).loaded) yield take(OPS.eventBookmarks.loaded({}).type);
  yield* eventSaveFlow(action, true);
}

/** Rating (spec 1 §4): create or update; a failure reverts; 'Thanks for rating!' for 1.6 s. */
export function* rateFlow(action: PayloadAction<{ listingId: number; rating: number }>) {
  const { listingId, rating } = action.payload;
  const { member } = yield* checkedProfile();
  if (!member) return yield* askToLogIn('ratings', listingId, rating);
  const ops = OPS.ratings;
  const state: SaveMapState<RatingEntry> = yield select(ops.select);
  if (state.pending[listingId]) return;
  const previous = state.map[listingId];
  const api = yield* ctx('api');
  yield put(ops.pending(listingId, true));
  yield put(ops.saved(listingId, { id: previous?.id ?? PENDING_ID, rating }));
  let ok = false;
  try {
    const saved: CreatedSave & RatingEntry = previous ? yield call(api.updateRating, previous.id, rating) : yield call(api.rate, listingId, rating);
    yield put(ops.saved(listingId, { id: saved.id, rating: saved.rating }));
    const map = ((yield select(ops.select)) as SaveMapState<RatingEntry>).map;
    yield call(recordOwnChange, 'ratings', map, saved.date_updated ?? saved.date_created);
    ok = true;
  } catch {
    yield put(previous ? ops.saved(listingId, previous) : ops.removed(listingId));
  } finally {
    yield put(ops.pending(listingId, false));
  }
  if (!ok) return;
  yield put(ratings.thanksChanged({ objectId: listingId, shown: true }));
  yield delay(TIMINGS_MS.ratingConfirm);
  yield put(ratings.thanksChanged({ objectId: listingId, shown: false }));
}

export function* savesSaga() {
  yield all([
    takeEvery(toggleRequested.type, toggleFlow),
    takeEvery(eventSaveRequested.type, eventSaveFlow),
    takeEvery(calendarDialogRequested.type, calendarDialogFlow),
    takeEvery(ratings.rateRequested.type, rateFlow),
    fork(loadSavedMapsFlow),
  ]);
}
