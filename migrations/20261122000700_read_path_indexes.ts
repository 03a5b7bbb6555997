import type { Knex } from 'knex';

// Indexes for the public read paths at city scale (100k articles, 20k listings, 37k event
// occurrences), each measured with EXPLAIN (ANALYZE, BUFFERS) on the city-scale seed
// (scripts/bench/explain.ts):
//
// - Published articles, newest first, all or of one type: partial btrees holding only
//   status = 'published', so the list's count is an index-only scan (once VACUUM has set the
//   visibility map) instead of a 90 ms sequential scan of 100k wide rows, and the page walks
//   the index without filtering drafts.
// - Upcoming events: the longest occurrence bounds how far before "now" a not-yet-over
//   occurrence can start; max(duration) answers from this expression index at once, so the
//   list scans starts_at from (now - longest) instead of from the first occurrence ever.
// - Approved events by id: the event lists join occurrences to approved events; counting the
//   upcoming ones hashed a sequential scan of the wide events table (10 ms), this partial
//   index answers the same ids by an index-only scan (0.5 ms).
// - Listing type-ahead: the count of names starting with the keywords was a 4 ms filter over
//   every listing (an expression index cannot answer an index-only scan); the same prefix
//   btree carrying the name answers it in 0.1 ms. It replaces listings_name_prefix.
// - Listings near a point, in a box or around a subway stop: the (latitude, longitude) btree
//   carrying the id answers the box and the distance of every candidate from the index alone
//   (index-only scan, no visit to 300 heap pages); it replaces the plain (latitude, longitude)
//   index. Distance order picks its page this way before joining (1.5 ms → 0.7 ms).
// - Published article ids: a member's bookmark list counts only bookmarks of published
//   articles. With the published-by-date index above, the planner hashed all 100k published
//   articles for a member's 1,000 bookmarks (90 ms); this index makes the existence check an
//   index-only probe per bookmark (1.5 ms).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX articles_published_date ON articles (date_published DESC, id DESC) WHERE status = 'published'`);
  await knex.raw(`CREATE INDEX articles_published_id ON articles (id) WHERE status = 'published'`);
  await knex.raw(`CREATE INDEX articles_published_type_date ON articles (type_id, date_published DESC, id DESC) WHERE status = 'published'`);
  await knex.raw(`CREATE INDEX listings_name_prefix_name ON listings (lower(name) text_pattern_ops) INCLUDE (name)`);
  await knex.raw(`DROP INDEX listings_name_prefix`);
  await knex.raw(`CREATE INDEX listings_latitude_longitude_id ON listings (latitude, longitude) INCLUDE (id)`);
  await knex.raw(`DROP INDEX listings_latitude_longitude_index`);
  await knex.raw(`CREATE INDEX events_approved_id ON events (id) WHERE status = 'approved'`);
  await knex.raw(`CREATE INDEX event_occurrences_duration ON event_occurrences ((coalesce(ends_at, starts_at) - starts_at))`);
}
