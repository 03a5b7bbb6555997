import type { Knex } from 'knex';

// listings.rating_rank: the damped (Bayesian) star rating that the RATING ordering sorts by, so
// one 5-star vote no longer puts a place first (server/apps/listings/smart-review.ts has the
// formula and the README the reasoning). Null without ratings: unrated places sort last.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.double('rating_rank');
  });
  await knex.raw(
    `WITH s AS (SELECT listing_id, count(*)::float8 AS n, sum(rating)::float8 AS total FROM ratings GROUP BY listing_id)
     UPDATE listings l SET rating_rank = (5 * 3.5 + s.total) / (5 + s.n)
       FROM s WHERE l.id = s.listing_id`,
  );
  await knex.raw('CREATE INDEX listings_rating_rank_desc ON listings (rating_rank DESC NULLS LAST, id)');
}
