import { api, type QueryValue } from '../common/api';
import type { BookmarkPage, CalendarStatusDTO, Page, PhotoDTO, ProfileCountsDTO, ProfileDTO } from '../../shared/dto';
import { createPayload, SAVE_KINDS } from '../../shared/save-kinds';
import type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from './types';

// The calls the dashboard makes (spec 1 §7), one line each.

export type ListQuery = Record<string, QueryValue>;
export type ProfilePatch = Partial<Pick<ProfileDTO, 'email' | 'full_name' | 'avatar'>> & Partial<Record<NewsletterField, boolean>>;
export type NewsletterField = Extract<keyof ProfileDTO, `settings_receive_newsletter_${string}`>;

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

const { favourites, todos, ratings, articleBookmarks, videoBookmarks, eventBookmarks } = SAVE_KINDS;

export const dashboardApi = {
  profile: () => api.get<ProfileDTO>('/api/v2/profiles/me/'),
  counts: () => api.get<ProfileCountsDTO>('/api/v2/profiles/me/dashboard/'),
  patchProfile: (patch: ProfilePatch) => api.patch<ProfileDTO>('/api/v2/profiles/me/', patch),
  putCalendarChoice: (p: Pick<ProfileDTO, 'id' | 'email' | 'sync_bookmarked_events_to_google_calendar'>) => api.put<ProfileDTO>('/api/v2/profiles/me/', p),
  changePassword: (body: PasswordChange) => api.post<{ detail: string }>('/api/v2/profiles/me/password/', body),

  favourites: (q: ListQuery) => api.get<Page<FavouriteDTO>>(favourites.path, q),
  deleteFavourite: (id: number) => api.delete(`${favourites.path}${id}/`),
  todos: (q: ListQuery) => api.get<Page<TodoDTO>>(todos.path, q),
  completeTodo: (id: number) => api.patch<TodoDTO>(`${todos.path}${id}/`, { is_done: true }),
  deleteTodo: (id: number) => api.delete(`${todos.path}${id}/`),
  ratings: (q: ListQuery) => api.get<Page<RatingDTO>>(ratings.path, q),
  createRating: (listing: number, rating: number) => api.post<RatingDTO>(ratings.path, createPayload('ratings', listing, rating)),
  updateRating: (id: number, rating: number) => api.patch<RatingDTO>(`${ratings.path}${id}/`, { rating }),
  articleBookmarks: (q: ListQuery) => api.get<BookmarkPage<ArticleBookmarkDTO>>(articleBookmarks.path, q),
  deleteArticleBookmark: (id: number) => api.delete(`${articleBookmarks.path}${id}/`),
  videoBookmarks: (q: ListQuery) => api.get<BookmarkPage<VideoBookmarkDTO>>(videoBookmarks.path, q),
  deleteVideoBookmark: (id: number) => api.delete(`${videoBookmarks.path}${id}/`),
  eventBookmarks: (q: ListQuery) => api.get<BookmarkPage<EventBookmarkDTO>>(eventBookmarks.path, q),
  deleteEventBookmark: (id: number) => api.delete(`${eventBookmarks.path}${id}/`),
  calendarStatus: () => api.get<CalendarStatusDTO>('/api/v2/profiles/me/calendar/'),
  makeIcsFeed: () => api.post<CalendarStatusDTO['feed']>('/api/v2/profiles/me/ics-feed/', {}),
  photos: (q: ListQuery) => api.get<Page<PhotoDTO>>('/api/v2/photos/me/', q),
  deletePhoto: (id: number) => api.delete(`/api/v2/photos/${id}/`),
};

export type DashboardApi = typeof dashboardApi;
