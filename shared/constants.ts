// Numbers from the specs (spec 1 §9, spec 2 §9), imported by the server and the islands alike
// so that a page size or a limit is written exactly once.

export const PAGE_SIZE = {
  default: 12,
  favourites: 15,
  ratings: 15,
  articleBookmarks: 15,
  videoBookmarks: 15,
  eventBookmarks: 15,
  photos: 15,
  completedTodos: 15,
  incompleteTodos: 100,
  listingPhotos: 24,
  videos: 36,
  bestOf: 6,
  latestNews: 48,
  searchRelevancy: 18,
  searchDefault: 20,
  listingSearch: 40,
  articleSearch: 12,
  events: 6,
  contests: 12,
} as const;

/** No list answers more than this many rows, whatever `limit` asks for. */
export const MAX_PAGE_SIZE = 100;

export const LIMITS = {
  nameMax: 50,
  emailMax: 255,
  passwordMax: 255,
  passwordMin: 8,
  eventTitleMax: 255,
  eventVenueMax: 255,
  eventAddressMax: 255,
  contactCommentMax: 600,
  contactNameMax: 255,
  profilePhotoBytes: 6 * 1024 * 1024, // 6291456, spec 1 §5
  eventImageBoxWidth: 300,
  eventImageBoxHeight: 200,
  eventImageMinWidth: 615,
} as const;

export const TIMINGS_MS = {
  passwordSuccessHide: 3000,
  onboardingRedirect: 3000,
  nameBlur: 250,
  fade: 500,
  resizeDebounce: 300,
  cropDelay: 200,
  ratingConfirm: 1600,
  venueSearchDebounce: 600,
  searchPanelOpen: 100,
  newsletterPromptHide: 3000,
  photoUploadRedirect: 1000,
  recentUploadNotice: 8000,
  mapPopupReopen: 500,
  /** A result highlighted by the pointer stays so this long after the pointer leaves the list (spec 2 §9). */
  activeResultDeactivation: 300,
  /** A save toggle's icon, turned on by the member, animates this long (spec 2 §9). */
  iconAnimation: 1200,
  /** The event form's date picker closes this long after a day is picked or focus leaves it (spec 2 §9). */
  datePickerBlur: 250,
  /** An ad slot in view, with the tab visible, shows a new ad this often (spec 1 §9). */
  adRefresh: 45_000,
  /** Bidders have this long to answer; then the house ad shows (spec 1 §9). */
  adBidTimeout: 3_500,
} as const;

export const SESSION_VALID_DAYS = 5;
/**
 * Set (readable by scripts, no secret in it) while a member is signed in, so the islands know
 * whether to ask GET /api/v2/profiles/hi/ who it is: pages are the same for everybody and no
 * longer say. The session itself stays in the httpOnly session cookie.
 */
export const SIGNED_IN_COOKIE = 'signed_in';
export const AGE_GATE_REMEMBER_DAYS = 30;
export const NEWSLETTER_COOKIE_DAYS = 30;

/** Legal age for cannabis content by province (spec 2 §9). */
export const LEGAL_AGE_BY_PROVINCE: Record<string, number> = { default: 19, QC: 21, AB: 18 };

export const EARTH_RADIUS_KM = 6371;

/**
 * Every size /media/ renders: exactly the sizes the pages, islands and feeds ask for, plus the
 * 610 square made ahead at photo upload. The URL builders in shared/format/image-url.ts take
 * only these names, and the image endpoint answers any other size 400 (nothing rendered,
 * nothing stored), so an original never has more renditions than there are entries here.
 * `h: null` scales to the width.
 */
export const IMAGE_SIZES = {
  listingCard: { w: 210, h: 140, cmd: 'crop' },
  avatar: { w: 80, h: 80, cmd: 'crop' },
  squareSmall: { w: 340, h: 340, cmd: 'crop' },
  square: { w: 610, h: 610, cmd: 'crop' },
  squareLarge: { w: 720, h: 720, cmd: 'fit' },
  articleCard: { w: 720, h: 480, cmd: 'crop' },
  /** Events wherever the spec draws them: hub and home cards, the event page (spec 2 §9). */
  eventCard: { w: 600, h: 400, cmd: 'crop' },
  /** The spec's saved-video thumbnail (spec 1 §9). */
  savedVideo: { w: 250, h: 250, cmd: 'crop' },
  photoViewer: { w: 1080, h: null, cmd: 'fit' },
  hero: { w: 1200, h: 800, cmd: 'crop' },
  heroSquare: { w: 1200, h: 1200, cmd: 'crop' },
  /** A story's social image (Open Graph, X): 1200×630, as the networks draw it. */
  social: { w: 1200, h: 630, cmd: 'crop' },
} as const satisfies Record<string, { w: number; h: number | null; cmd: 'crop' | 'fit' }>;
export type ImageSizeName = keyof typeof IMAGE_SIZES;
export const DEFAULT_IMAGE_QUALITY = 70;

export const MAP = {
  singleMarkerZoom: 15,
  defaultZoom: 12,
  minZoom: 10,
  popupMaxWidthListing: 454,
  popupMaxWidth: 300,
} as const;

export const BREAKPOINTS = { xSmallMax: 639, smallMax: 940, mediumMax: 1019, largeMin: 1020 } as const;

export const NAV_TITLE = { truncateAt: 64, truncateOver: 68, ellipsis: ' ...' } as const;
export const TITLE_LENGTH_CLASSES = [50, 80, 90, 100] as const;

export const SCHEDULE_TYPES = ['single_day', 'day_range', 'weekly', 'irregular'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** 0 Sunday … 6 Saturday, as spec 1 §9 numbers them. */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export const NEWSLETTERS = [
  { id: 'settings_receive_newsletter_news', guestField: 'news', name: 'Top Stories', schedule: 'daily', requires: null },
  { id: 'settings_receive_newsletter_events', guestField: 'events', name: 'Top Events', schedule: 'weekly', requires: 'events' },
  { id: 'settings_receive_newsletter_foods', guestField: 'foods', name: 'Dished', schedule: 'weekly', requires: 'listings' },
  { id: 'settings_receive_newsletter_real_estate', guestField: 'real_estate', name: 'Real Estate', schedule: 'weekly', requires: 'listings' },
  { id: 'settings_receive_newsletter_travel', guestField: 'travel', name: 'Travel', schedule: 'weekly', requires: 'listings' },
  { id: 'settings_receive_newsletter_photo_challenge_alerts', guestField: null, name: 'Photo Challenges', schedule: 'no set schedule', requires: 'photoChallenges' },
  { id: 'settings_receive_newsletter_promotions', guestField: 'promotions', name: 'Contests and Promotions', schedule: 'no set schedule', requires: null },
  { id: 'settings_receive_newsletter_contests', guestField: 'contests', name: 'Contests', schedule: 'no set schedule', requires: 'contests' },
] as const;

/** A member's choice of each newsletter: a profiles column and a field of the profile API. */
export type NewsletterSettingKey = (typeof NEWSLETTERS)[number]['id'];
export type NewsletterSettings = Record<NewsletterSettingKey, boolean>;
export const NEWSLETTER_SETTING_KEYS: readonly NewsletterSettingKey[] = NEWSLETTERS.map((n) => n.id);

/** The article types of the news hubs, in menu order (spec 2 §2). */
export const ARTICLE_TYPES = [
  { slug: 'news', name: 'News' },
  { slug: 'culture', name: 'Culture' },
  { slug: 'food', name: 'Food' },
  { slug: 'real-estate', name: 'Real Estate' },
  { slug: 'sports', name: 'Sports' },
  { slug: 'tech', name: 'Tech' },
  { slug: 'travel', name: 'Travel' },
  { slug: 'best-of', name: 'Best Of' },
] as const;

export const FEATURE_FLAGS = [
  'listings',
  'events',
  'contests',
  'videos',
  'bestOf',
  'photoChallenges',
  'patioGuide',
  'photoUpload',
  'newsOnly',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export type FeatureFlags = Record<FeatureFlag, boolean>;

/**
 * An article hub's layout (spec 1 §9, spec 2 §9): page one leads with the type's 7 newest
 * stories; the article list under them shows only when the type has more than 7, and a page
 * that starts above offset 7 (page two on) recommends the type's featured stories, which a
 * reader past the lead has not met on that page.
 */
export const ARTICLE_HUB = { leadCount: 7, recommendedCount: 3 } as const;

/** Numbered pagination (spec 1 §9): 1 page kept at each end, a window of 4 around the current. */
export const PAGINATION = { marginPages: 1, pageRange: 4 } as const;

/** Share pop-up windows (spec 1 §9): Facebook's sharer 670x340, X's intent 550x425. */
export const SHARE_WINDOWS = {
  facebook: { width: 670, height: 340 },
  x: { width: 550, height: 425 },
} as const;

/** How far below the top of the screen the contest pages' sticky aside rests (spec 1 §9):
 *  60 px under the medium nav bar, 120 px under the large one (from 1025 px). */
export const STICKY_OFFSETS = { contest: { small: 60, large: 120 } } as const;
/**
 * The events hub island (spec 1 §9, spec 2 §7 and §9): the first 8 events of the chosen day
 * are the featured grid, the list goes on from offset 8, and each load-more asks for the
 * events page size with bundle_type medium.
 */
export const EVENTS_HUB = { featuredCount: 8, listInitialOffset: 8, loadMoreLimit: 15, bundleType: 'medium', ordering: 'start_date_time' } as const;

/**
 * The site's colour, the red of its tile: the browser's theme-color and the web app manifest's,
 * the offline page, the app icons, the map's markers. The stylesheets have it once as --accent
 * (static/css/site.css) and the two SVGs that draw in it (static/img/favicon.svg,
 * placeholders/event.svg) once each; server/http/pwa.test.ts holds them to this value.
 */
export const THEME_COLOR = '#c8102e';

/** The installable site's paths: the server serves them (server/http/pwa.ts), the offline island and its worker use them. */
export const PWA_PATHS = { serviceWorker: '/sw.js', manifest: '/manifest.webmanifest', offlinePage: '/offline/' } as const;
