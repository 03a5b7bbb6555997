/// <reference types="jest" />
import type { ListingDTO, ProfileCountsDTO, ProfileDTO } from '../../shared/dto';
import type { DashboardApi } from './api';
import type { FavouriteDTO, TodoDTO } from './types';

// Builders for the dashboard's tests: a profile, counts, listings and a fake API whose calls
// are jest mocks answering empty pages unless a test says otherwise.

export function profile(fields: Partial<ProfileDTO> = {}): ProfileDTO {
  return {
    id: 7, email: 'anne@example.com', full_name: 'Anne Shirley', first_name: 'Anne', last_name: 'Shirley', avatar: null, avatar_url: null,
    sync_bookmarked_events_to_google_calendar: null,
    settings_receive_newsletter_news: true, settings_receive_newsletter_events: false, settings_receive_newsletter_foods: false,
    settings_receive_newsletter_real_estate: false, settings_receive_newsletter_travel: false, settings_receive_newsletter_photo_challenge_alerts: false,
    settings_receive_newsletter_promotions: false, settings_receive_newsletter_contests: false,
    ...fields,
  };
}

export function counts(fields: Partial<ProfileCountsDTO> = {}): ProfileCountsDTO {
  return { favourite_count: 0, todos_count: 0, bookmark_count: 0, saved_events_count: 0, ratings_count: 0, photo_count: 0, video_bookmarks_count: 0, ...fields };
}

export function listing(id: number, fields: Partial<ListingDTO> = {}): ListingDTO {
  return {
    id, name: `Place ${id}`, image_url: null, share_url: `/places/${id}`, review_url: `/places/${id}#review`, coordinates: null, type: { id: 1, slug: 'restaurants', name: 'Restaurants', share_url: '/restaurants' },
    sub_type: null, default_neighborhood: null, rating: 4.123, rating_count: 3, appears_in_best_of_lists: false, address: '1 Queen St W', phone: '', website: '',
    dinesafe_establishment_id: null, favourite_count: 1, date_published: '2026-01-01T00:00:00Z', user_rating: null,
    ...fields,
  };
}

export const favourite = (id: number, listingId = id + 100): FavouriteDTO => ({ id, date_created: '2026-01-01T00:00:00Z', listing: listing(listingId) });
export const todo = (id: number, isDone = false, listingId = id + 200): TodoDTO => ({ id, is_done: isDone, date_created: '2026-01-01T00:00:00Z', date_completed: isDone ? '2026-01-02T00:00:00Z' : null, listing: listing(listingId) });

/** A list answer as GET /api/v2/favourites/ gives it; bookmark lists add server_time (bookmarkPage). */
export const page = <T,>(results: T[], count = results.length) => ({ count, next: null, previous: null, results });
export const bookmarkPage = <T,>(results: T[], count = results.length) => ({ ...page(results, count), server_time: '2026-01-01T00:00:00Z' });

export function fakeApi(overrides: Partial<Record<keyof DashboardApi, jest.Mock>> = {}): Record<keyof DashboardApi, jest.Mock> & DashboardApi {
  const empty = () => jest.fn(async () => page([]));
  const noBookmarks = () => jest.fn(async () => bookmarkPage([]));
  const ok = () => jest.fn(async () => null);
  return {
    profile: jest.fn(async () => profile()),
    counts: jest.fn(async () => counts()),
    patchProfile: jest.fn(async (p: Partial<ProfileDTO>) => profile(p)),
    putCalendarChoice: jest.fn(async (p: Partial<ProfileDTO>) => profile(p)),
    changePassword: jest.fn(async () => ({ detail: 'New password has been saved.' })),
    favourites: empty(), deleteFavourite: ok(),
    todos: empty(), completeTodo: jest.fn(), deleteTodo: ok(),
    ratings: empty(), createRating: jest.fn(), updateRating: jest.fn(),
    articleBookmarks: noBookmarks(), deleteArticleBookmark: ok(),
    videoBookmarks: noBookmarks(), deleteVideoBookmark: ok(),
    eventBookmarks: noBookmarks(), deleteEventBookmark: ok(),
    photos: empty(), deletePhoto: ok(),
    calendarStatus: jest.fn(async () => ({ google: { configured: true, connected: false, connect_url: '/profiles/oauth-connect/?next=x', setup_hint: null }, feed: { url: null, webcal_url: null } })),
    makeIcsFeed: jest.fn(async () => ({ url: 'http://example.test/calendar/abc.ics', webcal_url: 'webcal://example.test/calendar/abc.ics' })),
    ...overrides,
  } as unknown as Record<keyof DashboardApi, jest.Mock> & DashboardApi;
}

/**
 * Plays how the page load began (jsdom has no Navigation Timing): 'reload' is a refresh,
 * 'back_forward' a Back into the page, 'navigate' a link or a typed address. Answers the undo.
 */
export function pageLoadedBy(type: NavigationTimingType): () => void {
  Object.defineProperty(performance, 'getEntriesByType', { configurable: true, value: (t: string) => (t === 'navigation' ? [{ type }] : []) });
  return () => void delete (performance as { getEntriesByType?: unknown }).getEntriesByType;
}
