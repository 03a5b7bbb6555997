import type { Knex } from 'knex';
import { ratingRank, smartReviewScore, SMART_REVIEW_RECENT_DAYS } from '../listings/smart-review';

// A listing's star average and its two damped scores (rating_rank for the RATING ordering,
// smart_review_score for smart_review), recomputed whenever a member's rating changes. The
// formula is the listings app's (smart-review.ts), the same the seed uses in bulk.

/**
 * Sets listings.rating (average, 2 decimals), rating_count, rating_rank and smart_review_score
 * from the ratings table. Run inside the transaction that changed a rating: the listing row is
 * locked first, so two members rating one place at once are counted one after the other (the
 * second reads the ratings after the first commits).
 */
export async function recomputeListingRating(trx: Knex.Transaction, listingId: number): Promise<void> {
  // NOTE: FOR NO KEY UPDATE, not FOR UPDATE: each new rating row already holds a KEY SHARE
  // lock on its listing (the foreign key), which FOR UPDATE would wait on, in both directions.
  const locked = await trx('listings').where({ id: listingId }).forNoKeyUpdate().first('id');
  if (!locked) return;
  const stats = await trx('ratings')
    .where({ listing_id: listingId })
    .first(
      trx.raw(
        `count(*)::int as n, coalesce(sum(rating), 0)::int as total,
         (count(*) filter (where date_created > now() - make_interval(days => ?)))::int as recent`,
        [SMART_REVIEW_RECENT_DAYS],
      ),
    );
  const n = Number(stats?.n ?? 0);
  const sum = Number(stats?.total ?? 0);
  const rating = { n, sum, recent: Number(stats?.recent ?? 0) };
  await trx('listings')
    .where({ id: listingId })
    .update({
      rating: n ? Math.round((sum / n) * 100) / 100 : null,
      rating_count: n,
      rating_rank: ratingRank(rating),
      smart_review_score: smartReviewScore(rating),
    });
}
