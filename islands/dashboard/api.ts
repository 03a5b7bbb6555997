import { api, type QueryValue } from '../common/api';
import type { BookmarkPage, Page, PhotoDTO, ProfileCountsDTO, ProfileDTO } from '../../shared/dto';
import type { ArticleBookmarkDTO, EventBookmarkDTO, FavouriteDTO, RatingDTO, TodoDTO, VideoBookmarkDTO } from './types';

// The calls the dashboard makes (spec 1 §7), one line each.

export type ListQuery = Record<string, QueryValue>;
export type ProfilePatch = Partial<Pick<ProfileDTO, 'email' | 'full_name'>> & Partial<Record<NewsletterField, boolean>>;
export type NewsletterField = Extract<keyof ProfileDTO, `settings_receive_newsletter_${string}`>;

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

export const dashboardApi = {
  profile: () => api.get<ProfileDTO>('/api/v2/profiles/me/'),
  counts: () => api.get<ProfileCountsDTO>('/api/v2/profiles/me/dashboard/'),
  patchProfile: (patch: ProfilePatch) => api.patch<ProfileDTO>('/api/v2/profiles/me/', patch),
  putCalendarChoice: (p: Pick<ProfileDTO, 'id' | 'email' | 'sync_bookmarked_events_to_google_calendar'>) => api.put<ProfileDTO>('/api/v2/profiles/me/', p),
  changePassword: (body: PasswordChange) => api.post<{ detail: string }>('/api/v2/profiles/me/password/', body),

  favourites: (q: ListQuery) => api.get<Page<FavouriteDTO>>('/api/v2/favourites/', q),
  deleteFavourite: (id: number) => api.delete(`/api/v2/favourites/${id}/`),
  todos: (q: ListQuery) => api.get<Page<TodoDTO>>('/api/v2/todos/', q),
  completeTodo: (id: number) => api.patch<TodoDTO>(`/api/v2/todos/${id}/`, { is_done: true }),
  deleteTodo: (id: number) => api.delete(`/api/v2/todos/${id}/`),
  ratings: (q: ListQuery) => api.get<Page<RatingDTO>>('/api/v2/ratings/', q),
  createRating: (listing: number, rating: number) => api.post<RatingDTO>('/api/v2/ratings/', { listing, rating }),
  updateRating: (id: number, rating: number) => api.patch<RatingDTO>(`/api/v2/ratings/${id}/`, { rating }),
  articleBookmarks: (q: ListQuery) => api.get<BookmarkPage<ArticleBookmarkDTO>>('/api/v2/article-bookmarks/', q),
  deleteArticleBookmark: (id: number) => api.delete(`/api/v2/article-bookmarks/${id}/`),
  videoBookmarks: (q: ListQuery) => api.get<BookmarkPage<VideoBookmarkDTO>>('/api/v2/video-bookmarks/', q),
  deleteVideoBookmark: (id: number) => api.delete(`/api/v2/video-bookmarks/${id}/`),
  eventBookmarks: (q: ListQuery) => api.get<BookmarkPage<EventBookmarkDTO>>('/api/v2/event-bookmarks/', q),
  deleteEventBookmark: (id: number) => api.delete(`/api/v2/event-bookmarks/${id}/`),
  photos: (q: ListQuery) => api.get<Page<PhotoDTO>>('/api/v2/photos/me/', q),
  deletePhoto: (id: number) => api.delete(`/api/v2/photos/${id}/`),
};

export type DashboardApi = typeof dashboardApi;
