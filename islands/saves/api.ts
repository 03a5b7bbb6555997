import { api } from '../common/api';
import { authStatusOnce } from '../common/auth-status';
import type { AuthStatusDTO } from '../../shared/dto';
import { createPayload, SAVE_KINDS } from '../../shared/save-kinds';
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

const base = (kind: SaveKind) => SAVE_KINDS[kind].path;

export const savesApi = {
  authStatus: authStatusOnce,
  ids: (kind: SaveKind) => api.get<Record<string, number | RatingEntry>>(base(kind) + SAVE_KINDS[kind].idsPath),
  create: (kind: ToggleKind, objectId: number) => api.post<CreatedSave>(base(kind), createPayload(kind, objectId)),
  remove: (kind: SaveKind, saveId: number) => api.delete(`${base(kind)}${saveId}/`),
  saveEvent: (eventId: number, addToCalendar: boolean) =>
    api.post<CreatedSave | CalendarAuthorizationNeeded>(base('eventBookmarks'), { ...createPayload('eventBookmarks', eventId), add_to_calendar: addToCalendar }),
  rate: (listingId: number, rating: number) => api.post<CreatedSave & RatingEntry>(base('ratings'), createPayload('ratings', listingId, rating)),
  updateRating: (ratingId: number, rating: number) => api.patch<CreatedSave & RatingEntry>(`${base('ratings')}${ratingId}/`, { rating }),
  setCalendarSync: (member: { id: number; email: string }, sync: boolean) =>
    api.put<{ sync_bookmarked_events_to_google_calendar: boolean | null }>('/api/v2/profiles/me/', { id: member.id, email: member.email, sync_bookmarked_events_to_google_calendar: sync }),
};

export type SavesApi = typeof savesApi;
