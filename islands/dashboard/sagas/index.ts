import { all, call, delay, getContext, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Page, ProfileDTO } from '../../../shared/dto';
import { TIMINGS_MS } from '../../../shared/constants';
import { ApiError, fieldErrorsOf } from '../../common/api';
import { announceProfileChange } from '../../common/profile-events';
import { DEFAULT_SAVE_ORDERING, SAVE_KINDS, type SaveKindName } from '../../../shared/save-kinds';
import type { ListState } from '../../common/list-state';
import type { DashboardApi, ListQuery, NewsletterField, PasswordChange } from '../api';
import { profileActions } from '../slices/profile';
import { calendarActions } from '../slices/calendar';
import { favouritesMapActions } from '../slices/maps';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import type { CalendarStatusDTO } from '../../../shared/dto';
import type { FavouriteDTO } from '../types';
import {
  LIST_SLICES,
  ratingChangeRequested,
  ratingCreated,
  todoCompleted,
  todoCompletionFailed,
  todoCompletionRequested,
  todoRatingRequested,
  type ListName,
} from '../slices/lists';
import type { DashboardRootState } from '../store';
import type { RatingDTO, TodoDTO } from '../types';

// The dashboard's side effects, one small saga per flow. Every failure leaves the data as it
// was (spec 1 §8): lists record it and show nothing; forms show the server's first message.

export interface DashboardSagaContext {
  api: DashboardApi;
  /** Drops a cached id map after a deletion (spec 1 §4); the browser's localStorage by default. */
  forgetCache?: (key: string) => void;
}

type AnyList = (typeof LIST_SLICES)[ListName];
type HasId = { id: number };

/**
 * How each list is fetched and deleted, the fixed query it adds, and the save kind it lists
 * (shared/save-kinds.ts), whose cached id map a deletion drops (spec 1 §4). Photos are no save.
 */
export const LIST_CALLS: Record<ListName, { fetch: keyof DashboardApi; remove: keyof DashboardApi | null; query?: ListQuery; kind?: SaveKindName }> = {
  favourites: { fetch: 'favourites', remove: 'deleteFavourite', kind: 'favourites' },
  todos: { fetch: 'todos', remove: 'deleteTodo', query: { completed: 0 }, kind: 'todos' },
  completedTodos: { fetch: 'todos', remove: 'deleteTodo', query: { completed: 1 }, kind: 'todos' },
  ratings: { fetch: 'ratings', remove: null, kind: 'ratings' },
  articleBookmarks: { fetch: 'articleBookmarks', remove: 'deleteArticleBookmark', kind: 'articleBookmarks' },
  videoBookmarks: { fetch: 'videoBookmarks', remove: 'deleteVideoBookmark', kind: 'videoBookmarks' },
  eventBookmarks: { fetch: 'eventBookmarks', remove: 'deleteEventBookmark', kind: 'eventBookmarks' },
  photos: { fetch: 'photos', remove: 'deletePhoto' },
};

function defaultForgetCache(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // storage disabled: nothing cached
  }
}

/** Flow: load a page of a list with the params the reducer just set. A newer request wins. */
function listFetchSaga(name: ListName) {
  const slice = LIST_SLICES[name] as AnyList;
  return function* fetchPage() {
    const api: DashboardApi = yield getContext('api');
    const list: ListState<HasId> = yield select((s: DashboardRootState) => s[name]);
    const { offset, limit, ordering } = list.params;
    try {
      const fetcher = api[LIST_CALLS[name].fetch] as (q: ListQuery) => Promise<Page<HasId>>;
      const page: Page<HasId> = yield call(fetcher, { ...LIST_CALLS[name].query, offset, limit, ordering });
      yield put((slice.actions.pageLoaded as (p: unknown) => PayloadAction<unknown>)({ offset, page }));
    } catch {
      yield put(slice.actions.pageFailed());
    }
  };
}

/** Flow: delete a confirmed item; it leaves the list only when the server agrees. */
function listDeleteSaga(name: ListName) {
  const slice = LIST_SLICES[name] as AnyList;
  return function* deleteItem(action: PayloadAction<number>) {
    const api: DashboardApi = yield getContext('api');
    const forget: (key: string) => void = (yield getContext('forgetCache')) ?? defaultForgetCache;
    const method = LIST_CALLS[name].remove;
    if (!method) return;
    try {
      yield call(api[method] as (id: number) => Promise<unknown>, action.payload);
      yield put(slice.actions.itemDeleted(action.payload));
      const kind = LIST_CALLS[name].kind;
      if (kind) forget(SAVE_KINDS[kind].storageKey);
    } catch {
      yield put(slice.actions.deleteFailed(action.payload));
    }
  };
}

/** Flow: mark a to-do done; it moves to the head of the completed list. */
export function* completeTodoSaga(action: PayloadAction<number>) {
  const api: DashboardApi = yield getContext('api');
  try {
    const todo: TodoDTO = yield call(api.completeTodo, action.payload);
    yield put(todoCompleted(todo));
  } catch {
    yield put(todoCompletionFailed(action.payload));
  }
}

/** Flow: stars on a completed to-do create the member's rating or update it; failure reverts. */
export function* rateTodoSaga(action: PayloadAction<{ todoId: number; rating: number }>) {
  const api: DashboardApi = yield getContext('api');
  const { todoId, rating } = action.payload;
  const todo: TodoDTO | undefined = yield select((s: DashboardRootState) => s.completedTodos.items.find((t) => t.id === todoId));
  if (!todo) return;
  const previous = todo.listing.user_rating ?? null;
  const withRating = (user_rating: TodoDTO['listing']['user_rating']): TodoDTO => ({ ...todo, listing: { ...todo.listing, user_rating } });
  yield put(LIST_SLICES.completedTodos.actions.itemUpdated(withRating({ id: previous?.id ?? 0, rating })));
  try {
    if (previous) {
      const saved: RatingDTO = yield call(api.updateRating, previous.id, rating);
      yield put(LIST_SLICES.completedTodos.actions.itemUpdated(withRating({ id: saved.id, rating: saved.rating })));
      yield put(LIST_SLICES.ratings.actions.itemUpdated(saved));
    } else {
      const saved: RatingDTO = yield call(api.createRating, todo.listing.id, rating);
      yield put(LIST_SLICES.completedTodos.actions.itemUpdated(withRating({ id: saved.id, rating: saved.rating })));
      yield put(ratingCreated(saved));
    }
  } catch {
    yield put(LIST_SLICES.completedTodos.actions.itemUpdated(todo));
  }
}

/** Flow: confirmed stars on a rated place; shown at once, the previous value back on failure. */
export function* changeRatingSaga(action: PayloadAction<{ id: number; rating: number }>) {
  const api: DashboardApi = yield getContext('api');
  const item: RatingDTO | undefined = yield select((s: DashboardRootState) => s.ratings.items.find((r) => r.id === action.payload.id));
  if (!item) return;
  yield put(LIST_SLICES.ratings.actions.itemUpdated({ ...item, rating: action.payload.rating }));
  try {
    const saved: RatingDTO = yield call(api.updateRating, item.id, action.payload.rating);
    yield put(LIST_SLICES.ratings.actions.itemUpdated({ ...item, ...saved }));
  } catch {
    yield put(LIST_SLICES.ratings.actions.itemUpdated(item));
  }
}

export const PHOTO_SAVE_FAILED = 'Your photo could not be saved. Please try again.';

const firstMessage = (err: unknown, field: string) => fieldErrorsOf(err, [field])[field] ?? fieldErrorsOf(err, [field]).non_field_errors;

/** Flow: save the name (Enter or Save). */
export function* saveNameSaga(action: PayloadAction<string>) {
  const api: DashboardApi = yield getContext('api');
  try {
    const profile: ProfileDTO = yield call(api.patchProfile, { full_name: action.payload.trim() });
    yield put(profileActions.nameSaved(profile));
    yield call(announceProfileChange, { avatar_url: profile.avatar_url, full_name: profile.full_name });
  } catch (err) {
    yield put(profileActions.nameSaveFailed(firstMessage(err, 'full_name')));
  }
}

/** Flow: save the cropped profile photo; the other islands on the page (the navbar) hear of it. */
export function* savePhotoSaga(action: PayloadAction<string>) {
  const api: DashboardApi = yield getContext('api');
  try {
    const profile: ProfileDTO = yield call(api.patchProfile, { avatar: action.payload });
    yield put(profileActions.photoSaved(profile));
    yield call(announceProfileChange, { avatar_url: profile.avatar_url, full_name: profile.full_name });
  } catch (err) {
    yield put(profileActions.photoSaveFailed(firstMessage(err, 'avatar') ?? PHOTO_SAVE_FAILED));
  }
}

/** Flow: change the password; the section closes 3 s after success. */
export function* changePasswordSaga(action: PayloadAction<PasswordChange>) {
  const api: DashboardApi = yield getContext('api');
  try {
    yield call(api.changePassword, action.payload);
    yield put(profileActions.passwordChanged());
  } catch (err) {
    yield put(profileActions.passwordChangeFailed(fieldErrorsOf(err, ['current_password', 'new_password'])));
    return;
  }
  yield delay(TIMINGS_MS.passwordSuccessHide);
  yield put(profileActions.passwordSuccessHidden());
}

/** Flow: save the email of the newsletter page. */
export function* saveEmailSaga(action: PayloadAction<string>) {
  const api: DashboardApi = yield getContext('api');
  try {
    const profile: ProfileDTO = yield call(api.patchProfile, { email: action.payload.trim() });
    yield put(profileActions.emailSaved(profile));
  } catch (err) {
    yield put(profileActions.emailSaveFailed(firstMessage(err, 'email')));
  }
}

/** Flow: a newsletter box changed; the reducer showed it, the server confirms or it reverts. */
export function* saveNewsletterSaga(action: PayloadAction<{ field: NewsletterField; value: boolean }>) {
  const api: DashboardApi = yield getContext('api');
  const { field, value } = action.payload;
  try {
    const profile: ProfileDTO = yield call(api.patchProfile, { [field]: value });
    yield put(profileActions.profileLoaded(profile));
  } catch (err) {
    const error = err instanceof ApiError ? (err.first(field) ?? err.message) : firstMessage(err, field);
    yield put(profileActions.newsletterSaveFailed({ field, value: !value, error }));
  }
}

/** Flow: the calendar Yes/No choice (PUT id, email and the choice, spec 1 §7). */
export function* saveCalendarChoiceSaga(action: PayloadAction<boolean>) {
  const api: DashboardApi = yield getContext('api');
  const profile: ProfileDTO | null = yield select((s: DashboardRootState) => s.profile.data);
  if (!profile) return;
  try {
    const saved: ProfileDTO = yield call(api.putCalendarChoice, { id: profile.id, email: profile.email, sync_bookmarked_events_to_google_calendar: action.payload });
    yield put(profileActions.calendarChoiceSaved(saved));
  } catch {
    yield put(profileActions.calendarChoiceFailed());
  }
}

/** Flow: Calendar Settings opened: connection state and the ICS link. */
export function* calendarStatusSaga() {
  const api: DashboardApi = yield getContext('api');
  try {
    const status: CalendarStatusDTO = yield call(api.calendarStatus);
    yield put(calendarActions.statusLoaded(status));
  } catch {
    yield put(calendarActions.statusFailed());
  }
}

/** Flow: make (or remake) the private ICS link. */
export function* icsFeedSaga() {
  const api: DashboardApi = yield getContext('api');
  try {
    const feed: CalendarStatusDTO['feed'] = yield call(api.makeIcsFeed);
    yield put(calendarActions.feedMade(feed));
  } catch {
    yield put(calendarActions.feedFailed());
  }
}

/** Flow: 'Map all Favourites': every favourite (up to the API's largest page) for the map. */
export function* favouritesMapSaga() {
  const api: DashboardApi = yield getContext('api');
  try {
    const page: Page<FavouriteDTO> = yield call(api.favourites, { offset: 0, limit: MAX_PAGE_SIZE, ordering: DEFAULT_SAVE_ORDERING });
    yield put(favouritesMapActions.loaded({ items: page.results, count: page.count }));
  } catch {
    yield put(favouritesMapActions.failed());
  }
}

export function* dashboardSaga() {
  const names = Object.keys(LIST_SLICES) as ListName[];
  yield all([
    ...names.map((name) => takeLatest(LIST_SLICES[name].actions.pageRequested.type, listFetchSaga(name))),
    ...names.map((name) => takeEvery(LIST_SLICES[name].actions.deleteRequested.type, listDeleteSaga(name))),
    takeEvery(todoCompletionRequested.type, completeTodoSaga),
    takeEvery(todoRatingRequested.type, rateTodoSaga),
    takeLatest(ratingChangeRequested.type, changeRatingSaga),
    takeLatest(profileActions.nameSaveRequested.type, saveNameSaga),
    takeLatest(profileActions.photoSaveRequested.type, savePhotoSaga),
    takeLatest(profileActions.passwordChangeRequested.type, changePasswordSaga),
    takeLatest(profileActions.emailSaveRequested.type, saveEmailSaga),
    takeEvery(profileActions.newsletterToggled.type, saveNewsletterSaga),
    takeLatest(profileActions.calendarChoiceRequested.type, saveCalendarChoiceSaga),
    takeLatest(calendarActions.statusRequested.type, calendarStatusSaga),
    takeLatest(calendarActions.feedRequested.type, icsFeedSaga),
    takeLatest(favouritesMapActions.requested.type, favouritesMapSaga),
  ]);
}
