import type { Knex } from 'knex';
import type { Db } from '../../db';

// A listing's star average, and its smart review score: the Bayesian average that the
// "smart_review" ordering of listings sorts by, so a place with one 5-star rating does not
// outrank a place with two hundred 4.6-star ratings.
//
//   smart_review_score = (C × m + sum of the listing's ratings) / (C + number of ratings)
//
// C = 5 is how many ratings the prior weighs, and m is the mean of all ratings on the site
// (3.5 before there are any). A listing without ratings scores 0, as one never rated does
// (the column's default), so unrated places sort after rated ones.

export const SMART_REVIEW_PRIOR_WEIGHT = 5;
export const SMART_REVIEW_DEFAULT_MEAN = 3.5;

export function smartReviewScore(sum: number, count: number, globalMean: number | null): number {
  if (count === 0) return 0;
  const m = globalMean ?? SMART_REVIEW_DEFAULT_MEAN;
  return (SMART_REVIEW_PRIOR_WEIGHT * m + sum) / (SMART_REVIEW_PRIOR_WEIGHT + count);
}

/** The mean of every rating on the site, or null before the first. */
export async function globalMeanRating(db: Db): Promise<number | null> {
  const row = await db('ratings').first(db.raw('avg(rating)::float8 as mean'));
  return row?.mean === null || row?.mean === undefined ? null : Number(row.mean);
}

/**
 * Sets listings.rating (average, 2 decimals), rating_count and smart_review_score from the
 * ratings table. Run inside the transaction that changed a rating: the listing row is locked
 * first, so two members rating one place at once are counted one after the other (the
 * second reads the ratings after the first commits).
 */
export async function recomputeListingRating(trx: Knex.Transaction, listingId: number): Promise<void> {
  // NOTE: FOR NO KEY UPDATE, not FOR UPDATE: each new rating row already holds a KEY SHARE
  // lock on its listing (the foreign key), which FOR UPDATE would wait on, in both directions.
  const locked = await trx('listings').where({ id: listingId }).forNoKeyUpdate().first('id');
  if (!locked) return;
  const stats = await trx('ratings').where({ listing_id: listingId }).first(trx.raw('count(*)::int as n, coalesce(sum(rating), 0)::int as total'));
  const n = Number(stats?.n ?? 0);
  const total = Number(stats?.total ?? 0);
  await trx('listings')
    .where({ id: listingId })
    .update({
      rating: n ? Math.round((total / n) * 100) / 100 : null,
      rating_count: n,
      smart_review_score: smartReviewScore(total, n, await globalMeanRating(trx)),
    });
}
