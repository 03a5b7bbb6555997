import { createIslandStore } from '../common/store';
import type { ListState } from '../common/list-state';
import type { PhotoDTO } from '../../shared/dto';
import { countsSlice, type CountsState } from './slices/counts';
import { LIST_SLICES } from './slices/lists';
import { initialProfileState, profileSlice, type ProfileState } from './slices/profile';
import { calendarSlice, type CalendarState } from './slices/calendar';
import { favouritesMapSlice, type FavouritesMapState } from './slices/maps';
import { dashboardSaga, type DashboardSagaContext } from './sagas';
import type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from './types';

export interface DashboardRootState {
  profile: ProfileState;
  counts: CountsState;
  favourites: ListState<FavouriteDTO>;
  todos: ListState<TodoDTO>;
  completedTodos: ListState<TodoDTO>;
  ratings: ListState<RatingDTO>;
  articleBookmarks: ListState<ArticleBookmarkDTO>;
  videoBookmarks: ListState<VideoBookmarkDTO>;
  eventBookmarks: ListState<EventBookmarkDTO>;
  photos: ListState<PhotoDTO>;
  calendar: CalendarState;
  favouritesMap: FavouritesMapState;
}

export const dashboardReducer = {
  profile: profileSlice.reducer,
  counts: countsSlice.reducer,
  calendar: calendarSlice.reducer,
  favouritesMap: favouritesMapSlice.reducer,
  ...Object.fromEntries(Object.entries(LIST_SLICES).map(([k, s]) => [k, s.reducer])),
} as unknown as { [K in keyof DashboardRootState]: (state: DashboardRootState[K] | undefined, action: { type: string }) => DashboardRootState[K] };

export function createDashboardStore(preloadedState: Partial<DashboardRootState>, context: DashboardSagaContext) {
  return createIslandStore<DashboardRootState>({
    reducer: dashboardReducer,
    saga: dashboardSaga,
    preloadedState: { ...preloadedState, profile: { ...initialProfileState, ...preloadedState.profile } },
    context: context as unknown as Record<string, unknown>,
  });
}

export type DashboardStore = ReturnType<typeof createDashboardStore>;
export type DashboardDispatch = DashboardStore['dispatch'];

/**
 * Requests still out (spec 1 §3 "pending-request counter"): every list's, the profile's saves,
 * Calendar Settings and the favourites map. The loading overlay shows while any are pending.
 */
export const selectPendingRequests = (s: DashboardRootState) => {
  const lists = (Object.keys(LIST_SLICES) as Array<keyof typeof LIST_SLICES>).reduce((n, k) => n + s[k].pending, 0);
  const p = s.profile;
  const profile = [p.nameStatus, p.passwordStatus, p.emailStatus, p.calendarStatus].filter((x) => x === 'saving').length;
  const others = Number(s.calendar.status === 'loading') + Number(s.calendar.feedStatus === 'saving') + Number(s.favouritesMap.status === 'loading');
  return lists + profile + others;
};
