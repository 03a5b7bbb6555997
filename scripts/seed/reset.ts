import type { Knex } from 'knex';

// Everything the seed writes. Sessions, knex's migration tables and anything else not listed
// are left alone; TRUNCATE ... CASCADE follows the foreign keys to the rest.
export const CONTENT_TABLES = [
  'neighbourhoods', 'subway_stops', 'listing_types', 'listing_sub_types', 'features', 'services', 'listings', 'listing_features', 'listing_services',
  'article_types', 'articles', 'article_slides', 'best_of_lists', 'best_of_list_items', 'events', 'event_occurrences', 'contests', 'contest_entries', 'video_categories', 'videos',
  'photos', 'favourites', 'todos', 'ratings', 'article_bookmarks', 'video_bookmarks', 'event_bookmarks', 'profiles', 'password_reset_tokens', 'calendar_credentials',
  'guest_newsletter_subscriptions', 'contact_messages', 'photo_challenges',
];

export async function isSeeded(db: Knex): Promise<boolean> {
  const row = await db('neighbourhoods').count<{ n: number }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0) > 0;
}

/** Empties the content tables (for `npm run seed -- --force`); ids restart at 1. */
export async function truncateContent(db: Knex): Promise<void> {
  await db.raw(`TRUNCATE ${CONTENT_TABLES.map(() => '??').join(', ')} RESTART IDENTITY CASCADE`, CONTENT_TABLES);
  await db('sessions').delete();
}
