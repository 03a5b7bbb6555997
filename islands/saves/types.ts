// What the page tells the saves island (server/apps/*/pages.ts → addIsland(res, 'saves', …)),
// and the kinds of saved thing it handles (spec 1 §3: a bookmark map per kind).

/** The saved-id maps the island may need; a page names only those its controls use. */
export type SaveKind = 'favourites' | 'todos' | 'ratings' | 'articleBookmarks' | 'videoBookmarks' | 'eventBookmarks';

/** The kinds a plain toggle (create if absent, delete if present) applies to. */
export type ToggleKind = Exclude<SaveKind, 'ratings'>;

export interface SavesInitialState {
  /** The signed-in member (id and email are what PUT /profiles/me/ needs), or null for guests. */
  member: { id: number; email: string; calendarSync: boolean | null } | null;
  kinds: SaveKind[];
  /** Google Calendar sync is configured on the server (config.google.clientId). */
  calendarEnabled: boolean;
}

/** listing_ids of ratings answers listing id → this. */
export interface RatingEntry {
  id: number;
  rating: number;
}

/** The placeholders templates/partials/save-controls.njk prints (data-save). */
export type ControlType = 'listing' | 'listing-compact' | 'article' | 'video' | 'event';

/** The post_authenticate_action names the login endpoint accepts (server/apps/accounts/schemas.ts). */
export const LOGIN_ACTIONS: Record<SaveKind, string> = {
  favourites: 'add-favourite',
  todos: 'add-todo',
  ratings: 'add-rating',
  articleBookmarks: 'add-article-bookmark',
  videoBookmarks: 'add-video-bookmark',
  eventBookmarks: 'add-event-bookmark',
};

/** A save being created has no id yet: the optimistic entry carries this one. */
export const PENDING_ID = -1;
