import { PAGE_SIZE } from './constants';
import type { ProfileCountsDTO } from './dto';

// The six kinds of saved things (spec 1 §3, §7; spec 2 §3, §4), described once. The server
// builds its routes, post-login actions and last_updates from this; the islands build their
// API calls, the cached id maps in localStorage, the login dialog's remembered action and the
// dashboard lists from the same entries, so a kind cannot mean one thing on one side only.

export interface SaveKindRules {
  /** The API's collection path; /{id}/ and idsPath hang below it. */
  path: string;
  /** GET {path}{idsPath}: object id → save id (ratings: → {id, rating}). */
  idsPath: string;
  /** The create payload's field naming the saved object (400s name it too). */
  objectField: string;
  /** Ratings carry a 1–5 value with the object, in the create payload and the remembered action. */
  rated: boolean;
  /** The key of /profiles/hi/ last_updates that moves with every change of this kind. */
  lastUpdateKey: string;
  /** localStorage key of the cached id map (spec 2 §3). */
  storageKey: string;
  /** post_authenticate_action of the login that follows a guest's try (spec 2 §4). */
  loginAction: string;
  pageSize: number;
  /** Bookmark lists carry server_time (spec 1 §7). */
  serverTime: boolean;
  /** The profile count (GET /profiles/me/dashboard/) that counts this kind. */
  countField: keyof ProfileCountsDTO;
  /** The dashboard's sort tabs of the list (spec 1 §2); the API accepts each ordering. */
  sortTabs: ReadonlyArray<{ label: string; ordering: string }>;
}

/** spec 1 §9: saved things list newest first. */
export const DEFAULT_SAVE_ORDERING = '-date_created';

export const SAVE_KINDS = {
  favourites: {
    path: '/api/v2/favourites/', idsPath: 'listing_ids/', objectField: 'listing', rated: false,
    lastUpdateKey: 'favourites', storageKey: 'favourites.listingMap', loginAction: 'add-favourite',
    pageSize: PAGE_SIZE.favourites, serverTime: false, countField: 'favourite_count', sortTabs: [],
  },
  todos: {
    path: '/api/v2/todos/', idsPath: 'listing_ids/', objectField: 'listing', rated: false,
    lastUpdateKey: 'todos', storageKey: 'todos.listingMap', loginAction: 'add-todo',
    pageSize: PAGE_SIZE.incompleteTodos, serverTime: false, countField: 'todos_count', sortTabs: [],
  },
  ratings: {
    path: '/api/v2/ratings/', idsPath: 'listing_ids/', objectField: 'listing', rated: true,
    lastUpdateKey: 'ratings', storageKey: 'ratings.listingMap', loginAction: 'add-rating',
    pageSize: PAGE_SIZE.ratings, serverTime: false, countField: 'ratings_count', sortTabs: [],
  },
  articleBookmarks: {
    path: '/api/v2/article-bookmarks/', idsPath: 'article_ids/', objectField: 'object_id', rated: false,
    lastUpdateKey: 'article-bookmarks', storageKey: 'article-bookmarks.articleMap', loginAction: 'add-article-bookmark',
    pageSize: PAGE_SIZE.articleBookmarks, serverTime: true, countField: 'bookmark_count',
    sortTabs: [
      { label: 'A–Z', ordering: 'article_name' },
      { label: 'MOST RECENT', ordering: '-article_date' },
      { label: 'RECENTLY SAVED', ordering: '-date_created' },
    ],
  },
  videoBookmarks: {
    path: '/api/v2/video-bookmarks/', idsPath: 'video_ids/', objectField: 'video', rated: false,
    lastUpdateKey: 'video-bookmarks', storageKey: 'video-bookmarks.videoMap', loginAction: 'add-video-bookmark',
    pageSize: PAGE_SIZE.videoBookmarks, serverTime: true, countField: 'video_bookmarks_count',
    sortTabs: [
      { label: 'A–Z', ordering: 'video_title' },
      { label: 'MOST RECENT', ordering: '-video_date' },
      { label: 'RECENTLY SAVED', ordering: '-date_created' },
    ],
  },
  eventBookmarks: {
    path: '/api/v2/event-bookmarks/', idsPath: 'event_ids/', objectField: 'object_id', rated: false,
    lastUpdateKey: 'event-bookmarks', storageKey: 'event-bookmarks.eventMap', loginAction: 'add-event-bookmark',
    pageSize: PAGE_SIZE.eventBookmarks, serverTime: true, countField: 'saved_events_count',
    sortTabs: [
      { label: 'UPCOMING', ordering: 'start_date_time' },
      { label: 'RECENTLY SAVED', ordering: '-date_created' },
    ],
  },
} as const satisfies Record<string, SaveKindRules>;

export type SaveKindName = keyof typeof SAVE_KINDS;
export const SAVE_KIND_NAMES = Object.keys(SAVE_KINDS) as SaveKindName[];

export type LoginAction = (typeof SAVE_KINDS)[SaveKindName]['loginAction'];
export const LOGIN_ACTIONS = SAVE_KIND_NAMES.map((k) => SAVE_KINDS[k].loginAction) as LoginAction[];

export type LastUpdateKey = (typeof SAVE_KINDS)[SaveKindName]['lastUpdateKey'];
export const LAST_UPDATE_KEYS = SAVE_KIND_NAMES.map((k) => SAVE_KINDS[k].lastUpdateKey) as LastUpdateKey[];

/** The localStorage keys of the cached id maps, by kind. */
export const SAVE_MAP_STORAGE_KEYS = Object.fromEntries(SAVE_KIND_NAMES.map((k) => [k, SAVE_KINDS[k].storageKey])) as {
  [K in SaveKindName]: (typeof SAVE_KINDS)[K]['storageKey'];
};

/** The kind a remembered login action saves. */
export function saveKindOfLoginAction(action: LoginAction): SaveKindName {
  return SAVE_KIND_NAMES.find((k) => SAVE_KINDS[k].loginAction === action) as SaveKindName;
}

/** The create payload of a kind: the object under its field, and the rating for ratings. */
export function createPayload(kind: SaveKindName, objectId: number, rating?: number): Record<string, number | undefined> {
  const rules: SaveKindRules = SAVE_KINDS[kind];
  return rules.rated ? { [rules.objectField]: objectId, rating } : { [rules.objectField]: objectId };
}
