// DTO types: the JSON shapes the API answers and the islands read. The server builds them and
// the islands import them, so the two sides cannot drift apart.
import type { NewsletterSettings } from './constants';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface BookmarkPage<T> extends Page<T> {
  server_time: string;
}

export interface ApiFieldErrors {
  [field: string]: string[] | undefined;
  non_field_errors?: string[];
}

export interface SiteConfigDTO {
  name: string;
  url: string;
  city: { name: string; slug: string; latitude: number; longitude: number };
  country: { name: string; code: string };
  timeZone: string;
  startYear: number;
  flags: import('./constants').FeatureFlags;
  /** The base map (MAP_STYLE_URL / MAP_PMTILES_URL); both null: our own city context. */
  map?: MapTileSettings;
}

export interface MapTileSettings {
  styleUrl: string | null;
  pmtilesUrl: string | null;
}

/** A member's profile; the newsletter choices are NEWSLETTERS' ids (shared/constants.ts). */
export interface ProfileDTO extends NewsletterSettings {
  id: number;
  email: string;
  full_name: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  avatar_url: string | null;
  sync_bookmarked_events_to_google_calendar: boolean | null;
}

/** GET /api/v2/profiles/hi/: who is signed in and when each kind of save last changed. */
export interface AuthStatusDTO {
  id: number;
  email: string;
  full_name: string;
  /** The profile photo at 80x80 (IMAGE_SIZES.avatar); null without one. */
  avatar_url: string | null;
  /** sync_bookmarked_events_to_google_calendar: true, false or unset (the save-to-calendar question). */
  calendar_sync: boolean | null;
  /** Whether the member may use /staff/ (set only by npm run staff:grant). */
  is_staff: boolean;
  last_updates: Record<string, string | null>;
}

export interface ProfileCountsDTO {
  favourite_count: number;
  todos_count: number;
  bookmark_count: number;
  saved_events_count: number;
  ratings_count: number;
  photo_count: number;
  video_bookmarks_count: number;
}

export interface NamedLinkDTO {
  name: string;
  share_url: string;
}

export interface ArticleDTO {
  id: number;
  name: string;
  path: string;
  image_url: string | null;
  share_url: string;
  date_published: string;
  type: NamedLinkDTO;
  is_slideshow: boolean;
  slideshow_url: string | null;
  excerpt?: string;
}

export interface ListingDTO {
  id: number;
  name: string;
  image_url: string | null;
  share_url: string;
  /** The place page's published review (share_url#review), or null when it has none published. */
  review_url: string | null;
  coordinates: { latitude: number; longitude: number } | null;
  type: NamedLinkDTO & { id: number; slug: string };
  sub_type: (NamedLinkDTO & { id: number; slug: string }) | null;
  default_neighborhood: { id: number; name: string; path: string } | null;
  rating: number | null;
  /** How many members rated it: shown beside the rating, which alone hides how damped it is. */
  rating_count: number;
  appears_in_best_of_lists: boolean;
  address: string;
  phone: string;
  website: string;
  dinesafe_establishment_id: number | null;
  favourite_count: number;
  date_published: string;
  /** The day it closed, or will close ('YYYY-MM-DD'); null while open. Closed from that day, city time (shared/place-closing.ts). */
  closed_on?: string | null;
  user_rating?: { id: number; rating: number } | null;
  distance?: number;
}

export interface EventDTO {
  id: number;
  event_id: number;
  slug: string;
  name: string;
  title: string;
  image_url: string | null;
  share_url: string;
  start_date_time: string;
  end_date_time: string | null;
  all_day: boolean;
  location: { lat: number; lng: number } | null;
  venue_name: string;
  address: string;
  website: string;
  listing: { id: number; name: string; share_url: string } | null;
  can_be_bookmarked: boolean;
  schedule_type: import('./constants').ScheduleType;
  date_created: string;
}

export interface VideoDTO {
  id: number;
  title: string;
  image_url: string | null;
  share_url: string;
  date_published: string;
  youtube_code: string;
  category: { name: string; get_absolute_url: string } | null;
}

export interface ContestDTO {
  id: number;
  title: string;
  name: string;
  share_url: string;
  is_expired: boolean;
  end_date: string;
  hub_page_image_url: string | null;
}

export interface PhotoDTO {
  id: number;
  prism_image_url: string;
  description: string;
  title: string;
  listing: { id: number; name: string; share_url: string } | null;
  creation_date: string;
  share_path: string;
  share_url: string;
  profile: { full_name: string; avatar_url: string | null } | null;
  instagram_user: string | null;
}

// ## Saved things (spec 1 §3): what the member APIs answer and the dashboard reads.

export interface FavouriteDTO {
  id: number;
  date_created: string;
  listing: ListingDTO;
}

export interface TodoDTO {
  id: number;
  is_done: boolean;
  date_created: string;
  date_completed: string | null;
  listing: ListingDTO;
}

export interface RatingDTO {
  id: number;
  rating: number;
  date_created: string;
  date_updated: string;
  listing: ListingDTO;
}

/** GET /api/v2/ratings/listing_ids/ answers listing id → this, so pages can show the stars. */
export interface RatingIdsEntry {
  id: number;
  rating: number;
}

export interface ArticleBookmarkDTO {
  id: number;
  object_id: number;
  date_created: string;
  article: ArticleDTO;
}

export interface VideoBookmarkDTO {
  id: number;
  object_id: number;
  date_created: string;
  /** `video.date_created` is when the bookmark was made: the islands' caches read it there. */
  video: VideoDTO & { date_created: string };
}

export interface EventBookmarkDTO {
  id: number;
  object_id: number;
  add_to_calendar: boolean;
  date_created: string;
  event: EventDTO;
}

/** POST /api/v2/event-bookmarks/ when the member must first authorise Google Calendar. */
export interface CalendarAuthorizationNeededDTO {
  status: 101;
  authorization_url: string;
}

// ## The navbar's initial state (server/http/navbar.ts builds it from the apps' menu entries).

export interface NavLinkDTO {
  name: string;
  path: string;
}

export interface NavbarMenusDTO {
  latestArticles: NavLinkDTO[];
  recentReviews: NavLinkDTO[];
  listingTypes: NavLinkDTO[];
}

/** The signed-in member as the navbar shows them, from the auth check (GET /api/v2/profiles/hi/). */
export interface NavUserDTO {
  id: number;
  full_name: string;
  email: string;
  /** The 80x80 photo; null without one. */
  avatar_url: string | null;
  /** Staff see a link to /staff/ (the area checks the flag itself on every request). */
  is_staff?: boolean;
}

/** The same on every page for everybody: the member comes from the auth check, never from the page. */
export interface NavbarStateDTO {
  appVersion: string;
  social: { facebook: boolean; apple: boolean; appleClientId: string | null };
  menus: NavbarMenusDTO;
}

// ## The saves island's initial state (server/apps/saves/page-island.ts builds it).

/** The saved-id maps a page's save controls need (spec 1 §3: a bookmark map per kind). */
export type SavesIslandKind = import('./save-kinds').SaveKindName;

export interface SavesIslandStateDTO {
  kinds: SavesIslandKind[];
  /** Google Calendar sync is configured on the server (config.google.clientId). */
  calendarEnabled: boolean;
}

// ## The video grid island's initial state (server/apps/videos/pages.ts builds it).

/** The videos a hub page printed: each thumbnail placeholder (data-video-id) names one. */
export interface VideoGridState {
  videos: VideoDTO[];
}

/** GET /api/v2/profiles/me/calendar/: the dashboard's Calendar Settings (issue 13). */
export interface CalendarStatusDTO {
  google: {
    /** GOOGLE_CLIENT_ID is set on the server. */
    configured: boolean;
    /** The member has authorised Google (tokens stored). */
    connected: boolean;
    /** Where 'Connect Google Calendar' goes (a server redirect to Google's consent); null when not configured. */
    connect_url: string | null;
    /** Outside production, how to turn sync on; null in production or when configured. */
    setup_hint: string | null;
  };
  /** The member's private ICS feed; null URLs until one is made. */
  feed: { url: string | null; webcal_url: string | null };
}

/** GET /api/v2/geocode/?q= (issue 25): one answer, from the site's own addresses, stations, neighbourhoods and places. */
export interface GeocodeResultDTO {
  label: string;
  kind: 'address' | 'station' | 'neighbourhood' | 'place';
  coordinates: { latitude: number; longitude: number };
}

// ## Accessibility of places (issue 27; the attributes and the majority rule are shared/accessibility.ts)

/** One attribute of a place as pages and GET /api/v2/listings/{id}/accessibility/ show it. */
export interface AccessibilityAttributeDTO {
  attribute: import('./accessibility').AccessibilityAttribute;
  label: string;
  /** The answer: staff's verification, else a clear majority of reports, else unknown. */
  value: import('./accessibility').AccessibilityAnswer;
  /** verified: staff checked it; reported: members reported it (not verified); unknown: neither. */
  status: 'verified' | 'reported' | 'unknown';
  verified: boolean | null;
  /** ISO 8601 when staff verified it, else null. */
  verified_at: string | null;
  yes_count: number;
  no_count: number;
  /** ISO 8601: the verification, or the latest report, whichever is newer; null when unknown. */
  last_confirmed: string | null;
}

export interface ListingAccessibilityDTO {
  listing: number;
  attributes: AccessibilityAttributeDTO[];
}

/** A member's own current report on one attribute of one place. */
export interface AccessibilityReportDTO {
  id: number;
  listing: number;
  attribute: import('./accessibility').AccessibilityAttribute;
  answer: 'yes' | 'no';
  note: string;
  date_created: string;
  date_updated: string;
}

// ## Calendar feeds (issue 28): an organiser's iCalendar feed, imported into the event queue

/** GET/POST /api/v2/calendar-feeds/, POST .../{id}/check/: one of the member's feeds. */
export interface CalendarFeedDTO {
  id: number;
  url: string;
  /** paused: three fetches in a row failed; "Check now" tries again and resumes it. */
  status: 'active' | 'paused';
  paused_reason: string | null;
  last_fetched_at: string | null;
  last_success_at: string | null;
  /** Why the last fetch failed; null when it worked. */
  last_error: string | null;
  consecutive_failures: number;
  /** Events in the feed at the last successful fetch; null before the first. */
  events_found: number | null;
  next_fetch_at: string | null;
  date_created: string;
}

