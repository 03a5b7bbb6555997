import { z } from 'zod';
import { SCHEDULE_TYPES } from './constants';
import type {
  CalendarStatusDTO,
  ArticleBookmarkDTO,
  ArticleDTO,
  EventBookmarkDTO,
  EventDTO,
  FavouriteDTO,
  ListingDTO,
  ProfileCountsDTO,
  ProfileDTO,
  RatingDTO,
  TodoDTO,
  VideoBookmarkDTO,
  VideoDTO,
} from './dto';
import type { HubPrintedPage } from './listing-hub';

// The DTOs the islands consume, as zod schemas. The contract: a server test parses the real
// routes' answers with these (server/apps/saves/dto-contract.test.ts) and the islands' tests
// parse their fake answers with the same (islands/common/fixtures-contract.test.ts), so a fake
// cannot keep a shape the server no longer answers. Objects are strict: a field added on one
// side only fails too. Test code only: the islands' bundles do not import zod through this.

/** Compile-time: the schema's type is exactly the DTO's, so neither drifts from shared/dto.ts. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(ok: Same<A, B>) => ok;

const namedLink = { name: z.string(), share_url: z.string() };
const isoDate = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d/, 'an ISO 8601 date-time');

export const listingSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  image_url: z.string().nullable(),
  share_url: z.string(),
  review_url: z.string().nullable(),
  coordinates: z.strictObject({ latitude: z.number(), longitude: z.number() }).nullable(),
  type: z.strictObject({ ...namedLink, id: z.number().int(), slug: z.string() }),
  sub_type: z.strictObject({ ...namedLink, id: z.number().int(), slug: z.string() }).nullable(),
  default_neighborhood: z.strictObject({ id: z.number().int(), name: z.string(), path: z.string() }).nullable(),
  rating: z.number().nullable(),
  rating_count: z.number().int(),
  appears_in_best_of_lists: z.boolean(),
  address: z.string(),
  phone: z.string(),
  website: z.string(),
  dinesafe_establishment_id: z.number().int().nullable(),
  favourite_count: z.number().int(),
  date_published: isoDate,
  closed_on: z.string().regex(/^\d{4}-\d\d-\d\d$/, 'a day, YYYY-MM-DD').nullable().optional(),
  user_rating: z.strictObject({ id: z.number().int(), rating: z.number().int() }).nullable().optional(),
  distance: z.number().optional(),
});
same<z.infer<typeof listingSchema>, ListingDTO>(true);

export const articleSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  image_url: z.string().nullable(),
  share_url: z.string(),
  date_published: isoDate,
  type: z.strictObject(namedLink),
  is_slideshow: z.boolean(),
  slideshow_url: z.string().nullable(),
  excerpt: z.string().optional(),
});
same<z.infer<typeof articleSchema>, ArticleDTO>(true);

export const videoSchema = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  image_url: z.string().nullable(),
  share_url: z.string(),
  date_published: isoDate,
  youtube_code: z.string(),
  category: z.strictObject({ name: z.string(), get_absolute_url: z.string() }).nullable(),
});
same<z.infer<typeof videoSchema>, VideoDTO>(true);

export const eventSchema = z.strictObject({
  id: z.number().int(),
  event_id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  title: z.string(),
  image_url: z.string().nullable(),
  share_url: z.string(),
  start_date_time: isoDate,
  end_date_time: isoDate.nullable(),
  all_day: z.boolean(),
  location: z.strictObject({ lat: z.number(), lng: z.number() }).nullable(),
  venue_name: z.string(),
  address: z.string(),
  website: z.string(),
  listing: z.strictObject({ id: z.number().int(), name: z.string(), share_url: z.string() }).nullable(),
  can_be_bookmarked: z.boolean(),
  schedule_type: z.enum(SCHEDULE_TYPES),
  date_created: isoDate,
});
same<z.infer<typeof eventSchema>, EventDTO>(true);

export const favouriteSchema = z.strictObject({ id: z.number().int(), date_created: isoDate, listing: listingSchema });
same<z.infer<typeof favouriteSchema>, FavouriteDTO>(true);

export const todoSchema = z.strictObject({ id: z.number().int(), is_done: z.boolean(), date_created: isoDate, date_completed: isoDate.nullable(), listing: listingSchema });
same<z.infer<typeof todoSchema>, TodoDTO>(true);

export const ratingSchema = z.strictObject({ id: z.number().int(), rating: z.number().int(), date_created: isoDate, date_updated: isoDate, listing: listingSchema });
same<z.infer<typeof ratingSchema>, RatingDTO>(true);

export const articleBookmarkSchema = z.strictObject({ id: z.number().int(), object_id: z.number().int(), date_created: isoDate, article: articleSchema });
same<z.infer<typeof articleBookmarkSchema>, ArticleBookmarkDTO>(true);

export const videoBookmarkSchema = z.strictObject({ id: z.number().int(), object_id: z.number().int(), date_created: isoDate, video: videoSchema.extend({ date_created: isoDate }) });
same<z.infer<typeof videoBookmarkSchema>, VideoBookmarkDTO>(true);

export const eventBookmarkSchema = z.strictObject({ id: z.number().int(), object_id: z.number().int(), add_to_calendar: z.boolean(), date_created: isoDate, event: eventSchema });
same<z.infer<typeof eventBookmarkSchema>, EventBookmarkDTO>(true);

export const profileSchema = z.strictObject({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
  avatar_url: z.string().nullable(),
  sync_bookmarked_events_to_google_calendar: z.boolean().nullable(),
  settings_receive_newsletter_news: z.boolean(),
  settings_receive_newsletter_events: z.boolean(),
  settings_receive_newsletter_foods: z.boolean(),
  settings_receive_newsletter_real_estate: z.boolean(),
  settings_receive_newsletter_travel: z.boolean(),
  settings_receive_newsletter_photo_challenge_alerts: z.boolean(),
  settings_receive_newsletter_promotions: z.boolean(),
  settings_receive_newsletter_contests: z.boolean(),
});
same<z.infer<typeof profileSchema>, ProfileDTO>(true);

export const profileCountsSchema = z.strictObject({
  favourite_count: z.number().int(),
  todos_count: z.number().int(),
  bookmark_count: z.number().int(),
  saved_events_count: z.number().int(),
  ratings_count: z.number().int(),
  photo_count: z.number().int(),
  video_bookmarks_count: z.number().int(),
});
same<z.infer<typeof profileCountsSchema>, ProfileCountsDTO>(true);

export const calendarStatusSchema = z.strictObject({
  google: z.strictObject({ configured: z.boolean(), connected: z.boolean(), connect_url: z.string().nullable(), setup_hint: z.string().nullable() }),
  feed: z.strictObject({ url: z.string().nullable(), webcal_url: z.string().nullable() }),
});
same<z.infer<typeof calendarStatusSchema>, CalendarStatusDTO>(true);

/** A list answer: {count, next, previous, results}, with server_time on bookmark lists. */
export function pageSchema<T extends z.ZodType>(item: T, opts: { serverTime?: boolean } = {}) {
  const base = { count: z.number().int(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) };
  return opts.serverTime ? z.strictObject({ ...base, server_time: isoDate }) : z.strictObject(base);
}

/** The listing hub's first page in the island's state: its cards are in the HTML, named by id. */
export const hubPrintedPageSchema = z.strictObject({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  ids: z.array(z.number().int().positive()),
});
same<z.infer<typeof hubPrintedPageSchema>, HubPrintedPage>(true);
