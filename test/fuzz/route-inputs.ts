import { appleLoginSchema, changePasswordSchema, loginSchema, registrationSchema, rememberedActionSchema, resetConfirmSchema, resetRequestSchema } from '../../server/apps/accounts/schemas';
import { profilePatchSchema, profilePutSchema } from '../../server/apps/profiles/schemas';
import { photoListQuerySchema, photoUploadSchema } from '../../server/apps/photos/schemas';
import { imageUploadFieldsSchema } from '../../server/apps/uploads/schemas';
import { contactSchema } from '../../server/apps/contact/schemas';
import { GUEST_FIELDS } from '../../server/apps/newsletters/schemas';
import { closePlaceSchema, locateQuerySchema } from '../../server/apps/places-desk/schemas';
import { captchaFieldsSchema, suggestionFormSchema } from '../../server/apps/place-suggestions/schemas';
import { HOURS_FIELDS } from '../../shared/place-hours-form';

// What each route of the app reads, for the hostile-input test: its path parameters (with a
// valid value each, so that one parameter at a time can be made hostile), its query parameters
// and its body fields. Field names come from the routes' zod schemas where those are exported;
// otherwise they are the names the handlers read. The test checks this table against the
// app's router stack both ways, so a new route fails it until it is listed here.

export interface FuzzFixtures {
  memberEmail: string;
  typeSlug: string;
  subTypeSlug: string;
  listingId: number;
  listingSegment: string;
  neighbourhoodId: number;
  neighbourhoodSlug: string;
  subwayStopId: number;
  photoId: number;
  pendingEventId: number;
  contactMessageId: number;
  article: { type: string; year: string; month: string; slug: string };
  bestOfSlug: string;
  videoSlug: string;
  videoId: number;
  eventId: number;
  /** A reader's suggestion about the listing, pending. */
  suggestionId: number;
  videoCategorySlug: string;
  contestName: string;
  contestId: number;
  houseAdId: number;
  photoChallengeName: string;
  eventSegment: string;
  mediaKey: string;
  saves: { favourite: number; todo: number; rating: number; articleBookmark: number; videoBookmark: number; eventBookmark: number; photo: number };
  futureDate: string;
  pngBase64: string;
  /** A newsroom story, one of its revisions and one of its preview links. */
  story: { id: number; revisionId: number; previewId: number };
}

type Scalar = string | number | boolean;
export type BodyEncoding = 'json' | 'form' | 'multipart';

export interface RouteInputs {
  /** A valid value for every path parameter of the route. */
  path?: Record<string, (f: FuzzFixtures) => string>;
  query?: readonly string[];
  body?: {
    encodings: readonly BodyEncoding[];
    fields: readonly string[];
    /** Valid values for the other fields, so a hostile one gets as far as it can. */
    valid?: (f: FuzzFixtures) => Record<string, Scalar>;
    /** A multipart body also carries this image file part. */
    filePart?: string;
  };
}

const keys = (schema: { shape: object }) => Object.keys(schema.shape);
const PAGE = ['limit', 'offset'] as const;
const SAVE_LIST = [...PAGE, 'ordering'] as const;
const id = (pick: (f: FuzzFixtures) => number) => ({ id: (f: FuzzFixtures) => String(pick(f)) });
const ARTICLE_PATH = {
  type: (f: FuzzFixtures) => f.article.type,
  year: (f: FuzzFixtures) => f.article.year,
  month: (f: FuzzFixtures) => f.article.month,
  slug: (f: FuzzFixtures) => f.article.slug,
};
const LISTING_HUB = ['neighborhoodId', 'subwayStopId', 'selectedServiceSlug', 'selectedFeatures', 'accessibility', 'bestOf', 'ordering', 'page', 'category', 'subcategory', 'offset', 'keywords'];
const LISTING_SEARCH = ['keywords', 'type', 'sub_type', 'default_neighborhood', 'latitude', 'longitude', 'bbox', 'subway_stop', 'subwayStopId', 'radius', 'service', 'features', 'accessibility', 'appears_in_best_of_lists', 'open_now', 'closed', 'ordering', 'bundle_type', ...PAGE];
/** The places desk's place form (issue 39): its fields and the hours' fields. */
const PLACE_FORM = ['name', 'type_id', 'sub_type_id', 'address', 'latitude', 'longitude', 'phone', 'website', 'price_range', 'feature_1', 'service_1', ...HOURS_FIELDS];
const placeFormValid = () => ({ name: 'Fuzz Place', type_id: '1', address: '1 Queen St W', latitude: '43.6525', longitude: '-79.381', hours_unknown: 'on' });
const EVENT_FORM = [
  'title', 'description', 'venue_name', 'venue_display_name', 'listing', 'address', 'website', 'is_multiple_venues', 'is_virtual_event',
  'schedule_type', 'date', 'start_date', 'end_date', 'start_time', 'end_time', 'all_day', 'weekdays', 'weekly-weekdays', 'irregular-TOTAL_FORMS', 'irregular-0-date',
  'uploaded_image_url', 'thumbnail_image_url', 'hub_page_image_top', 'box_width',
];

export const ROUTE_INPUTS: Record<string, RouteInputs> = {
  // ## Before sessions
  'GET /healthz': {},
  'GET /sw.js': {},
  'GET /manifest.webmanifest': {},
  'GET /offline/': {},
  'USE /static/dist': { path: {} },
  'USE /static': { path: {} },
  'GET /media/*splat': { path: { splat: (f) => f.mediaKey }, query: ['w', 'h', 'cmd', 'quality'] },

  // ## Accounts
  'POST /events/add/': {
    body: {
      encodings: ['form', 'multipart'],
      fields: EVENT_FORM,
      valid: (f) => ({ title: 'Jazz night', description: 'Live music.', venue_name: 'Massey Hall', address: '178 Victoria St', website: 'example.com', schedule_type: 'single_day', date: f.futureDate, start_time: '7:00 PM', end_time: '9:00 PM' }),
    },
  },
  'POST /api/v2/profiles/email-registration/': {
    query: keys(rememberedActionSchema),
    body: { encodings: ['json'], fields: keys(registrationSchema), valid: () => ({ email: 'fuzz-new@example.com', password: 'a long fuzz password 7' }) },
  },
  'POST /api/v2/profiles/email-login/': {
    query: keys(loginSchema),
    body: { encodings: ['json'], fields: keys(loginSchema), valid: (f) => ({ email: f.memberEmail, password: 'not the password', post_authenticate_action: 'add-favourite', object_id: 1 }) },
  },
  'POST /api/v2/profiles/reset-password/': { body: { encodings: ['json'], fields: keys(resetRequestSchema), valid: (f) => ({ email: f.memberEmail }) } },
  'POST /api/v2/profiles/reset-password/confirm/': {
    body: { encodings: ['json'], fields: ['token', ...keys(resetConfirmSchema)], valid: () => ({ token: 'A'.repeat(43), new_password: 'a long fuzz password 7', new_password_confirm: 'a long fuzz password 7' }) },
  },
  'POST /api/v2/profiles/me/password/': {
    body: { encodings: ['json'], fields: keys(changePasswordSchema), valid: () => ({ current_password: 'not the password', new_password: 'a long fuzz password 7' }) },
  },
  'POST /api/v2/profiles/auth/apple/manual-login/': { body: { encodings: ['json'], fields: keys(appleLoginSchema) } },
  'GET /accounts/login': { query: ['next', 'signup', 'social_error'] },
  'POST /accounts/login': {
    query: ['next'],
    body: { encodings: ['form'], fields: ['email', 'password', 'next', 'form'], valid: (f) => ({ email: f.memberEmail, password: 'not the password' }) },
  },
  'POST /accounts/signup': {
    body: { encodings: ['form'], fields: ['email', 'password', 'password_confirm', 'next'], valid: () => ({ email: 'fuzz-signup@example.com', password: 'a long fuzz password 7', password_confirm: 'a long fuzz password 7' }) },
  },
  'GET /profiles/logout': { query: ['next'] },
  'POST /profiles/logout': { query: ['next'], body: { encodings: ['form'], fields: ['next'] } },
  'GET /profiles/facebook-login/': { query: ['next'] },
  'GET /profiles/facebook-login/callback/': { query: ['code', 'state', 'error', 'error_reason'] },
  'GET /accounts/password-reset/': {},
  'POST /accounts/password-reset/': { body: { encodings: ['form'], fields: ['email'] } },
  'GET /accounts/reset/:token/': { path: { token: () => 'A'.repeat(43) } },
  'POST /accounts/reset/:token/': {
    path: { token: () => 'A'.repeat(43) },
    body: { encodings: ['form'], fields: ['new_password', 'new_password_confirm'], valid: () => ({ new_password: 'a long fuzz password 7', new_password_confirm: 'a long fuzz password 7' }) },
  },
  'GET /accounts/delete/': {},
  'POST /accounts/delete/': {
    body: { encodings: ['form'], fields: ['password', 'content'], valid: () => ({ password: 'not the password', content: 'anonymise' }) },
  },
  'GET /accounts/delete/scheduled/': {},
  'GET /accounts/delete/confirm/:token/': { path: { token: () => 'A'.repeat(43) } },
  'POST /accounts/delete/confirm/:token/': { path: { token: () => 'A'.repeat(43) }, body: { encodings: ['form'], fields: [] } },
  'GET /accounts/delete/undo/:token/': { path: { token: () => 'A'.repeat(43) } },
  'POST /accounts/delete/undo/:token/': { path: { token: () => 'A'.repeat(43) }, body: { encodings: ['form'], fields: [] } },
  'GET /accounts/onboarding': { query: ['next'] },
  'GET /accounts/dashboard/': {},

  // ## Staff
  'GET /staff/contests/': { query: ['page'] },
  'GET /staff/contests/:id/': { path: id((f) => f.contestId), query: ['page', 'drawn'] },
  'POST /staff/contests/:id/draw/': { path: id((f) => f.contestId), body: { encodings: ['form', 'json'], fields: ['redraw'] } },
  'GET /api/ads/serve/': { query: ['slot'] },
  'GET /ads/:id/click/': { path: id((f) => f.houseAdId) },
  'GET /staff/ads/': { query: ['saved', 'deleted'] },
  'GET /staff/ads/new/': {},
  'GET /staff/ads/:id/': { path: id((f) => f.houseAdId) },
  'POST /staff/ads/save/': {
    body: {
      encodings: ['multipart'],
      fields: ['id', 'name', 'slot', 'link_url', 'alt_text', 'starts_on', 'ends_on', 'weight'],
      valid: (f) => ({ id: String(f.houseAdId), name: 'Fuzz ad', slot: 'leaderboard', link_url: 'https://example.com/', alt_text: 'Fuzz ad', starts_on: '2026-01-01', weight: '1' }),
      filePart: 'image',
    },
  },
  'POST /staff/ads/:id/delete/': { path: id((f) => f.houseAdId), body: { encodings: ['form'], fields: [] } },
  // ## The newsroom (issue 37): its API (staff with a role) and pages
  'USE /api/v2/staff/': { path: {} },
  'GET /api/v2/staff/stories/': { query: ['status', 'type', 'author', 'q', ...PAGE] },
  'POST /api/v2/staff/stories/': { body: { encodings: ['json'], fields: ['fields'], valid: () => ({}) } },
  'GET /api/v2/staff/stories/:id/': { path: id((f) => f.story.id) },
  'PATCH /api/v2/staff/stories/:id/': { path: id((f) => f.story.id), body: { encodings: ['json'], fields: ['base_version', 'fields', 'explicit'], valid: () => ({ base_version: 1 }) } },
  'POST /api/v2/staff/stories/:id/submit/': { path: id((f) => f.story.id) },
  'POST /api/v2/staff/stories/:id/publish/': { path: id((f) => f.story.id), body: { encodings: ['json'], fields: ['override_reason'] } },
  'POST /api/v2/staff/stories/:id/schedule/': { path: id((f) => f.story.id), body: { encodings: ['json'], fields: ['publish_at', 'override_reason'], valid: () => ({ publish_at: '2031-01-01T09:00' }) } },
  'POST /api/v2/staff/stories/:id/unschedule/': { path: id((f) => f.story.id) },
  'POST /api/v2/staff/stories/:id/unpublish/': { path: id((f) => f.story.id), body: { encodings: ['json'], fields: ['at'] } },
  'GET /api/v2/staff/stories/:id/checks/': { path: id((f) => f.story.id) },
  'GET /api/v2/staff/stories/:id/revisions/': { path: id((f) => f.story.id) },
  'GET /api/v2/staff/stories/:id/revisions/:rid/': { path: { ...id((f) => f.story.id), rid: (f) => String(f.story.revisionId) } },
  'POST /api/v2/staff/stories/:id/revisions/:rid/restore/': { path: { ...id((f) => f.story.id), rid: (f) => String(f.story.revisionId) } },
  'GET /api/v2/staff/stories/:id/previews/': { path: id((f) => f.story.id) },
  'POST /api/v2/staff/stories/:id/previews/': { path: id((f) => f.story.id) },
  'DELETE /api/v2/staff/stories/:id/previews/:pid/': { path: { ...id((f) => f.story.id), pid: (f) => String(f.story.previewId) } },
  'POST /api/v2/staff/stories/:id/presence/': { path: id((f) => f.story.id) },
  'DELETE /api/v2/staff/stories/:id/presence/': { path: id((f) => f.story.id) },
  'POST /api/v2/staff/stories/:id/fetch-image/': { path: id((f) => f.story.id), body: { encodings: ['json'], fields: ['url'], valid: () => ({ url: 'http://127.0.0.1:9/none.png' }) } },
  'GET /api/v2/staff/link-targets/': { query: ['q'] },
  'GET /api/v2/staff/card-targets/': { query: ['q', 'kind'] },
  'GET /staff/stories/': { query: ['status', 'type', 'author', 'q', 'page'] },
  'GET /staff/stories/new/': {},
  'GET /staff/stories/:id/': { path: id((f) => f.story.id) },
  'GET /staff/roles/': { query: ['done'] },
  'POST /staff/roles/': { body: { encodings: ['form'], fields: ['email', 'role'], valid: (f) => ({ email: f.memberEmail, role: 'contributor' }) } },
  'GET /preview/:token/': { path: { token: () => 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } },
  // Last: old addresses of stories (an imported site's), answered with a 301 when known.
  'GET /*splat': { path: { splat: () => '2019/05/17/old-story' } },
  'GET /staff/best-of/': {},
  'GET /staff/best-of/:slug/': { path: { slug: (f) => f.bestOfSlug }, query: ['done'] },
  'POST /staff/best-of/:slug/add/': { path: { slug: (f) => f.bestOfSlug }, body: { encodings: ['form'], fields: ['listing', 'blurb', 'reason'], valid: (f) => ({ listing: String(f.listingId), reason: 'Fuzz' }) } },
  'POST /staff/best-of/:slug/remove/': { path: { slug: (f) => f.bestOfSlug }, body: { encodings: ['form'], fields: ['listing', 'reason'], valid: () => ({ listing: '999999', reason: 'Fuzz' }) } },
  'POST /staff/best-of/:slug/move/': { path: { slug: (f) => f.bestOfSlug }, body: { encodings: ['form'], fields: ['listing', 'direction', 'reason'], valid: (f) => ({ listing: String(f.listingId), direction: 'up', reason: 'Fuzz' }) } },
  'POST /staff/best-of/:slug/criteria/': { path: { slug: (f) => f.bestOfSlug }, body: { encodings: ['form'], fields: ['criteria', 'reason'], valid: () => ({ criteria: 'Fuzz', reason: 'Fuzz' }) } },
  'POST /staff/best-of/:slug/visited/': { path: { slug: (f) => f.bestOfSlug }, body: { encodings: ['form'], fields: ['listing', 'visited_on', 'reason'], valid: (f) => ({ listing: String(f.listingId), visited_on: '2026-01-02', reason: 'Fuzz' }) } },
  // ## The places desk and the other kinds' editors (issue 39)
  'GET /staff/places/': { query: ['q', 'type', 'neighbourhood', 'closed', 'recent', 'reported', 'page'] },
  'GET /staff/places/new/': {},
  'POST /staff/places/new/': { body: { encodings: ['form'], fields: PLACE_FORM, valid: placeFormValid } },
  'GET /staff/places/:id/': { path: id((f) => f.listingId), query: ['done', 'closing'] },
  'POST /staff/places/:id/': { path: id((f) => f.listingId), body: { encodings: ['form'], fields: [...PLACE_FORM, 'base_revision'], valid: placeFormValid } },
  'GET /staff/places/:id/revisions/': { path: id((f) => f.listingId), query: ['page', 'reverted'] },
  'POST /staff/places/:id/revisions/:rev/revert/': { path: { ...id((f) => f.listingId), rev: () => '999999' }, body: { encodings: ['form'], fields: [] } },
  'GET /staff/places/:id/close/': { path: id((f) => f.listingId) },
  'POST /staff/places/:id/close/': { path: id((f) => f.listingId), body: { encodings: ['form'], fields: keys(closePlaceSchema), valid: () => ({ closed_on: '2026-01-02' }) } },
  'POST /staff/places/:id/reopen/': { path: id((f) => f.listingId), body: { encodings: ['form'], fields: [] } },
  'GET /staff/places/:id/review/': { path: id((f) => f.listingId), query: ['done'] },
  'POST /staff/places/:id/review/': { path: id((f) => f.listingId), body: { encodings: ['form'], fields: ['review', 'byline', 'publish'], valid: () => ({ review: 'Fuzz.', byline: 'Fuzz', publish: 'no' }) } },
  'GET /api/v2/places-desk/locate/': { query: keys(locateQuerySchema) },
  'GET /places/:id/suggest/': { path: id((f) => f.listingId), query: ['sent'] },
  'POST /places/:id/suggest/': {
    path: id((f) => f.listingId),
    body: { encodings: ['form'], fields: [...keys(suggestionFormSchema), ...keys(captchaFieldsSchema), ...HOURS_FIELDS], valid: () => ({ kind: 'phone', phone: '416-555-0100' }) },
  },
  'GET /staff/places/suggestions/': { query: ['done', 'place'] },
  'POST /staff/places/suggestions/:id/apply/': { path: id((f) => f.suggestionId), body: { encodings: ['form'], fields: [] } },
  'POST /staff/places/suggestions/:id/dismiss/': { path: id((f) => f.suggestionId), body: { encodings: ['form'], fields: [] } },
  'POST /staff/best-of/new/': { body: { encodings: ['form'], fields: ['title', 'slug', 'intro', 'criteria'], valid: () => ({ title: 'Fuzz list', criteria: 'Fuzz' }) } },
  'GET /staff/videos/': { query: ['saved'] },
  'GET /staff/videos/new/': {},
  'GET /staff/videos/:id/': { path: id((f) => f.videoId) },
  'POST /staff/videos/save/': {
    body: {
      encodings: ['multipart'],
      fields: ['id', 'youtube', 'title', 'slug', 'description', 'category', 'image_source'],
      valid: (f) => ({ id: String(f.videoId), youtube: 'dQw4w9WgXcQ', title: 'Fuzz video', category: '1' }),
      filePart: 'image',
    },
  },
  'GET /staff/contests/new/': {},
  'GET /staff/contests/:id/edit/': { path: id((f) => f.contestId) },
  'POST /staff/contests/save/': {
    body: {
      encodings: ['multipart'],
      fields: ['id', 'title', 'name', 'description', 'prize', 'rules', 'odds', 'start_date', 'end_date', 'skill_question', 'skill_answer'],
      valid: (f) => ({ id: String(f.contestId), title: 'Fuzz contest', prize: 'A prize', start_date: '2026-01-01T09:00', end_date: '2031-01-01T09:00' }),
      filePart: 'image',
    },
  },
  'GET /staff/events/new/': {},
  'POST /staff/events/new/': {
    body: {
      encodings: ['form', 'multipart'],
      fields: EVENT_FORM,
      valid: (f) => ({ title: 'Jazz night', description: 'Live music.', venue_name: 'Massey Hall', address: '178 Victoria St', website: 'example.com', schedule_type: 'single_day', date: f.futureDate, start_time: '7:00 PM', end_time: '9:00 PM' }),
    },
  },
  'GET /staff/events/published/': { query: ['q', 'tab', 'page'] },
  'GET /staff/events/:id/edit/': { path: id((f) => f.eventId) },
  'POST /staff/events/edit/': {
    body: {
      encodings: ['form', 'multipart'],
      fields: ['event_id', ...EVENT_FORM],
      valid: (f) => ({ event_id: String(f.eventId), title: 'Jazz night', description: 'Live music.', venue_name: 'Massey Hall', address: '178 Victoria St', website: 'example.com', schedule_type: 'single_day', date: f.futureDate, start_time: '7:00 PM', end_time: '9:00 PM' }),
    },
  },
  'GET /accounts/dashboard': {},
  'GET /accounts/dashboard/export.zip': {},
  'HEAD /accounts/dashboard/export.zip': {},
  'GET /_=_': {},

  // ## Profile and saved things
  'GET /api/v2/profiles/hi/': {},
  'GET /api/v2/csrf/': {},
  'GET /api/v2/profiles/me/': {},
  'PATCH /api/v2/profiles/me/': { body: { encodings: ['json'], fields: keys(profilePatchSchema) } },
  'PUT /api/v2/profiles/me/': { body: { encodings: ['json'], fields: keys(profilePutSchema), valid: (f) => ({ email: f.memberEmail }) } },
  'GET /api/v2/profiles/me/dashboard/': {},
  'GET /api/v2/favourites/': { query: SAVE_LIST },
  'POST /api/v2/favourites/': { body: { encodings: ['json'], fields: ['listing'] } },
  'GET /api/v2/favourites/listing_ids/': {},
  'GET /api/v2/favourites/:id/': { path: id((f) => f.saves.favourite) },
  'DELETE /api/v2/favourites/:id/': { path: id((f) => f.saves.favourite) },
  'GET /api/v2/todos/': { query: [...SAVE_LIST, 'completed'] },
  'POST /api/v2/todos/': { body: { encodings: ['json'], fields: ['listing'] } },
  'GET /api/v2/todos/listing_ids/': {},
  'GET /api/v2/todos/:id/': { path: id((f) => f.saves.todo) },
  'PATCH /api/v2/todos/:id/': { path: id((f) => f.saves.todo), body: { encodings: ['json'], fields: ['is_done'] } },
  'DELETE /api/v2/todos/:id/': { path: id((f) => f.saves.todo) },
  'GET /api/v2/ratings/': { query: SAVE_LIST },
  'POST /api/v2/ratings/': { body: { encodings: ['json'], fields: ['listing', 'rating'], valid: (f) => ({ listing: f.listingId, rating: 4 }) } },
  'GET /api/v2/ratings/listing_ids/': {},
  'GET /api/v2/ratings/:id/': { path: id((f) => f.saves.rating) },
  'PATCH /api/v2/ratings/:id/': { path: id((f) => f.saves.rating), body: { encodings: ['json'], fields: ['rating'] } },
  'DELETE /api/v2/ratings/:id/': { path: id((f) => f.saves.rating) },
  'GET /api/v2/article-bookmarks/': { query: SAVE_LIST },
  'POST /api/v2/article-bookmarks/': { body: { encodings: ['json'], fields: ['object_id'] } },
  'GET /api/v2/article-bookmarks/article_ids/': {},
  'GET /api/v2/article-bookmarks/:id/': { path: id((f) => f.saves.articleBookmark) },
  'DELETE /api/v2/article-bookmarks/:id/': { path: id((f) => f.saves.articleBookmark) },
  'GET /api/v2/video-bookmarks/': { query: SAVE_LIST },
  'POST /api/v2/video-bookmarks/': { body: { encodings: ['json'], fields: ['video'] } },
  'GET /api/v2/video-bookmarks/video_ids/': {},
  'GET /api/v2/video-bookmarks/:id/': { path: id((f) => f.saves.videoBookmark) },
  'DELETE /api/v2/video-bookmarks/:id/': { path: id((f) => f.saves.videoBookmark) },
  'GET /api/v2/event-bookmarks/': { query: SAVE_LIST },
  'POST /api/v2/event-bookmarks/': { body: { encodings: ['json'], fields: ['object_id', 'add_to_calendar'] } },
  'GET /api/v2/event-bookmarks/event_ids/': {},
  'GET /api/v2/event-bookmarks/:id/': { path: id((f) => f.saves.eventBookmark) },
  'DELETE /api/v2/event-bookmarks/:id/': { path: id((f) => f.saves.eventBookmark) },
  'GET /api/v2/photos/': { query: [...keys(photoListQuerySchema), ...PAGE] },
  'GET /api/v2/photos/me/': { query: [...keys(photoListQuerySchema), ...PAGE] },
  'POST /api/v2/photos/': {
    body: { encodings: ['json'], fields: keys(photoUploadSchema), valid: (f) => ({ image: f.pngBase64, title: 'Fuzz', description: 'Fuzz photo', listing: f.listingId }) },
  },
  'DELETE /api/v2/photos/:id/': { path: id((f) => f.saves.photo) },
  'POST /streams/image-upload/': { body: { encodings: ['multipart'], fields: keys(imageUploadFieldsSchema), filePart: 'file' } },
  'GET /events/add/': {},
  'GET /events/add/success/': {},
  'GET /api/v2/profiles/oauth-authorization/': { query: ['next_url'] },
  'GET /profiles/oauth2callback/': { query: ['state', 'code', 'error'] },
  'GET /api/v2/profiles/me/ics-feed/': {},
  'POST /api/v2/profiles/me/ics-feed/': {},
  'DELETE /api/v2/profiles/me/ics-feed/': {},
  'GET /profiles/oauth-connect/': { query: ['next'] },
  'GET /api/v2/profiles/me/calendar/': {},
  // Organisers' calendar feeds (server/apps/calendar-feeds); no feed has this id, so a check fetches nothing.
  'GET /api/v2/calendar-feeds/': { query: PAGE },
  'POST /api/v2/calendar-feeds/': { body: { encodings: ['json'], fields: ['url'], valid: () => ({ url: 'https://calendar.example/events.ics' }) } },
  'DELETE /api/v2/calendar-feeds/:id/': { path: { id: () => '999999' } },
  'POST /api/v2/calendar-feeds/:id/check/': { path: { id: () => '999999' } },
  'GET /calendar/:token.ics': { path: { token: () => 'A'.repeat(43) } },

  // ## Staff area (server/apps/staff): members and guests are turned away before any input is read
  'GET /staff/': {},
  'GET /staff/events/': { query: ['done', 'event', 'count', 'mail'] },
  'POST /staff/events/:id/moderate/': { path: id((f) => f.pendingEventId), body: { encodings: ['form'], fields: ['decision', 'note'], valid: () => ({ decision: 'rejected', note: 'Not in the city' }) } },
  'POST /staff/events/bulk/': { body: { encodings: ['form'], fields: ['ids', 'decision', 'note'], valid: (f) => ({ ids: f.pendingEventId, decision: 'rejected', note: 'Not in the city' }) } },
  'GET /staff/photos/': { query: ['page', 'removed'] },
  'POST /staff/photos/:id/remove/': { path: id((f) => f.photoId), body: { encodings: ['form'], fields: ['confirm', 'note'] } },
  'GET /staff/contact/': { query: ['page'] },
  'POST /staff/contact/:id/handled/': { path: id((f) => f.contactMessageId) },
  'GET /staff/audit/': {},
  'GET /staff/accessibility/': { query: ['page', 'done'] },
  'POST /staff/accessibility/decide/': {
    body: { encodings: ['form'], fields: ['listing', 'attribute', 'decision', 'note'], valid: (f) => ({ listing: f.listingId, attribute: 'step_free_entrance', decision: 'dismiss', note: '' }) },
  },
  'GET /staff/jobs/': { query: ['retried', 'queue'] },
  'POST /staff/jobs/retry/': { body: { encodings: ['form'], fields: ['queue', 'id'], valid: () => ({ queue: 'story.publish', id: '00000000-0000-4000-8000-000000000000' }) } },
  'POST /staff/jobs/retry-failed/': { body: { encodings: ['form'], fields: ['queue'], valid: () => ({ queue: 'story.publish' }) } },

  // ## Public content API and search
  'GET /api/v2/listings/': { query: LISTING_SEARCH },
  'GET /api/v2/listings/services/': { query: PAGE },
  'GET /api/v2/listings/features/': { query: PAGE },
  'GET /api/v2/listings/hub-options/': { query: ['v'] },
  'GET /api/v2/listings/:id/': { path: id((f) => f.listingId) },
  // ## Accessibility of places (server/apps/accessibility)
  'GET /api/v2/listings/:id/accessibility/': { path: id((f) => f.listingId) },
  'POST /api/v2/listings/:id/accessibility/': {
    path: id((f) => f.listingId),
    body: { encodings: ['json', 'form'], fields: ['attribute', 'answer', 'note'], valid: () => ({ attribute: 'quiet_hours', answer: 'yes', note: 'Mornings' }) },
  },
  'GET /api/v2/listings/:id/accessibility/mine/': { path: id((f) => f.listingId) },
  'GET /places/:id/accessibility/': { path: id((f) => f.listingId), query: ['saved'] },
  'POST /places/:id/accessibility/': {
    path: id((f) => f.listingId),
    body: { encodings: ['form'], fields: ['attribute', 'answer', 'note'], valid: () => ({ attribute: 'quiet_hours', answer: 'no', note: '' }) },
  },
  'GET /api/v2/listing-types/': { query: PAGE },
  'GET /api/v2/articles/': { query: ['type', 'ordering', 'bundle_type', 'is_featured', ...PAGE] },
  'GET /api/v2/events/': { query: ['date', 'ordering', 'bundle_type', ...PAGE] },
  'GET /api/v2/contests/': { query: ['ordering', 'expired', ...PAGE] },
  'GET /api/v2/videos/': { query: ['category', 'ordering', ...PAGE] },
  'GET /api/v2/neighbourhoods/': { query: ['boundaries', ...PAGE] },
  'GET /api/v2/subway-stops/': { query: PAGE },
  'GET /api/search/': { query: ['q', 'categories', 'ordering', 'serialize_for', ...PAGE] },
  'GET /api/v2/geocode/': { query: ['q'] },
  'POST /api/v2/profiles/guest-newsletters/': { body: { encodings: ['json'], fields: ['email', ...GUEST_FIELDS], valid: () => ({ email: 'fuzz-news@example.com', news: true }) } },

  // ## Public pages with fixed paths
  'GET /': {},
  'GET /newsletters/': { query: ['email', ...GUEST_FIELDS] },
  'GET /newsletters/unsubscribe/': { query: ['token'] },
  'POST /newsletters/unsubscribe/': { query: ['token'], body: { encodings: ['form'], fields: ['scope', 'List-Unsubscribe'] } },
  'POST /newsletters/': { body: { encodings: ['form'], fields: ['email', ...GUEST_FIELDS], valid: () => ({ email: 'fuzz-news-form@example.com', news: 'on' }) } },
  'GET /contact/': { query: ['category', 'sent'] },
  'POST /contact/': {
    body: {
      encodings: ['form', 'json'],
      fields: keys(contactSchema),
      valid: (f) => ({ question_category: 'general', comment: 'Hello', name: 'Fuzz', email: f.memberEmail, confirm_email: f.memberEmail, captcha_key: 'x', captcha: '4' }),
    },
  },
  'GET /contact/captcha/': {},
  'GET /about': {},
  'GET /jobs': {},
  'GET /privacy/': {},
  'GET /termsofservice/': {},
  'GET /archives/': { query: ['year', 'month'] },
  'GET /archives/:year/:month/': { path: { year: (f) => f.article.year, month: (f) => f.article.month }, query: ['page'] },
  'USE /cannabis': { path: {} },
  'GET /age-gate/': { query: ['next'] },
  'POST /age-gate/': { body: { encodings: ['form'], fields: ['answer', 'remember', 'next'], valid: () => ({ answer: 'yes', next: '/cannabis/' }) } },
  'GET /robots.txt': {},
  'GET /sitemap.xml': {},
  'GET /sitemaps/:file': { path: { file: () => 'pages.xml' } },
  'GET /rss.xml': {},
  'GET /news/rss.xml': {},
  'GET /culture/rss.xml': {},
  'GET /food/rss.xml': {},
  'GET /real-estate/rss.xml': {},
  'GET /sports/rss.xml': {},
  'GET /tech/rss.xml': {},
  'GET /travel/rss.xml': {},
  'GET /search': { query: ['q', 'categories', 'ordering', 'page', ...PAGE] },
  'GET /events/': { query: ['date', 'page'] },
  'GET /events/:segment/': { path: { segment: (f) => f.eventSegment } },
  'GET /contests/': { query: ['offset'] },
  'GET /contests/:name/': { path: { name: (f) => f.contestName } },
  'GET /contests/:name/rules/': { path: { name: (f) => f.contestName } },
  'GET /contests/:name/enter/': { path: { name: (f) => f.contestName }, query: ['skill_answer'] },
  'POST /contests/:name/enter/': { path: { name: (f) => f.contestName }, body: { encodings: ['form', 'json'], fields: ['skill_answer'], valid: () => ({ skill_answer: '12' }) } },
  'GET /videos/': { query: ['page'] },
  'GET /videos/category/:slug/': { path: { slug: (f) => f.videoCategorySlug }, query: ['page'] },
  'GET /videos/:slug/': { path: { slug: (f) => f.videoSlug } },
  'GET /neighbourhoods/': { query: ['neighbourhood'] },
  'GET /neighbourhoods/:slug/': { path: { slug: (f) => f.neighbourhoodSlug } },
  'GET /best-of/': { query: ['page'] },
  'GET /best-of/:slug/': { path: { slug: (f) => f.bestOfSlug }, query: ['ordering', 'page'] },
  'GET /best-of/:slug/changes/': { path: { slug: (f) => f.bestOfSlug }, query: ['page'] },
  'GET /best-of/:slug/changes/rss.xml': { path: { slug: (f) => f.bestOfSlug } },
  'GET /news/': { query: ['page'] },
  'GET /culture/': { query: ['page'] },
  'GET /food/': { query: ['page'] },
  'GET /real-estate/': { query: ['page'] },
  'GET /sports/': { query: ['page'] },
  'GET /tech/': { query: ['page'] },
  'GET /travel/': { query: ['page'] },
  'GET /cannabis/': { query: ['page'] },
  'GET /masthead/': {},
  'GET /patios/': { query: ['page'] },
  'GET /photo-challenges/': { query: ['page'] },
  'GET /photo-challenges/:name/': { path: { name: (f) => f.photoChallengeName }, query: ['page'] },

  // ## Public pages with pattern paths
  'GET /:type/:year/:month/:slug/': { path: ARTICLE_PATH },
  'GET /:type/:year/:month/:slug/slideshow/': { path: ARTICLE_PATH, query: ['slide'] },
  'GET /:type/:segment/photos/': { path: { type: (f) => f.typeSlug, segment: (f) => f.listingSegment }, query: ['page', 'upload'] },
  'GET /:type/:segment/photos/:photoId/': { path: { type: (f) => f.typeSlug, segment: (f) => f.listingSegment, photoId: (f) => String(f.photoId) } },
  'GET /places/': {},
  'GET /:type/n/:neighbourhoodId/:slug/': {
    path: { type: (f) => f.typeSlug, neighbourhoodId: (f) => String(f.neighbourhoodId), slug: (f) => f.neighbourhoodSlug },
    query: LISTING_HUB,
  },
  'GET /:type/': { path: { type: (f) => f.typeSlug }, query: LISTING_HUB },
  'GET /:type/:segment/': { path: { type: (f) => f.typeSlug, segment: (f) => f.subTypeSlug }, query: LISTING_HUB },

  // ## Base map files (server/apps/map-tiles)
  'GET /map-tiles/:file': { path: { file: () => 'toronto.pmtiles' } },
  'GET /static-maps/listings/:file': { path: { file: (f) => `${f.listingId}.png` } },
};
