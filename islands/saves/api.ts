import { api } from '../common/api';
import { authStatusOnce } from '../common/auth-status';
import type { AuthStatusDTO } from '../../shared/dto';
import type { RatingEntry, SaveKind, ToggleKind } from './types';

// The member calls the saves island makes (spec 1 §7), one line each. Create answers carry
// the new save's id and its date_created/date_updated (server time), which the cache keeps.

export type AuthStatus = AuthStatusDTO;

export interface CreatedSave {
  id: number;
  date_created?: string;
  date_updated?: string;
}

/** POST /api/v2/event-bookmarks/ when Google Calendar must be authorised first (HTTP 200). */
export interface CalendarAuthorizationNeeded {
  status: 101;
  authorization_url: string;
}

const BASE: Record<SaveKind, string> = {
  favourites: '/api/v2/favourites/',
  todos: '/api/v2/todos/',
  ratings: '/api/v2/ratings/',
  articleBookmarks: '/api/v2/article-bookmarks/',
  videoBookmarks: '/api/v2/video-bookmarks/',
  eventBookmarks: '/api/v2/event-bookmarks/',
};

const IDS: Record<SaveKind, string> = {
  favourites: 'listing_ids/',
  todos: 'listing_ids/',
  ratings: 'listing_ids/',
  articleBookmarks: 'article_ids/',
  videoBookmarks: 'video_ids/',
  eventBookmarks: 'event_ids/',
};

/** The create body of each toggle kind: the object under the field its endpoint reads. */
const createBody = (kind: ToggleKind, objectId: number): Record<string, number> =>
  kind === 'favourites' || kind === 'todos' ? { listing: objectId } : kind === 'videoBookmarks' ? { video: objectId } : { object_id: objectId };

export const savesApi = {
  authStatus: authStatusOnce,
  ids: (kind: SaveKind) => api.get<Record<string, number | RatingEntry>>(BASE[kind] + IDS[kind]),
  create: (kind: ToggleKind, objectId: number) => api.post<CreatedSave>(BASE[kind], createBody(kind, objectId)),
  remove: (kind: SaveKind, saveId: number) => api.delete(`${BASE[kind]}${saveId}/`),
  saveEvent: (eventId: number, addToCalendar: boolean) =>
    api.post<CreatedSave | CalendarAuthorizationNeeded>(BASE.eventBookmarks, { object_id: eventId, add_to_calendar: addToCalendar }),
  rate: (listingId: number, rating: number) => api.post<CreatedSave & RatingEntry>(BASE.ratings, { listing: listingId, rating }),
  updateRating: (ratingId: number, rating: number) => api.patch<CreatedSave & RatingEntry>(`${BASE.ratings}${ratingId}/`, { rating }),
  setCalendarSync: (member: { id: number; email: string }, sync: boolean) =>
    api.put<{ sync_bookmarked_events_to_google_calendar: boolean | null }>('/api/v2/profiles/me/', { id: member.id, email: member.email, sync_bookmarked_events_to_google_calendar: sync }),
};

export type SavesApi = typeof savesApi;
