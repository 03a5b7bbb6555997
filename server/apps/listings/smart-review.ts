// The two damped rating columns of listings, the one formula for everybody who writes them
// (server/apps/ratings when a member rates; the seed's recomputeListingStats in bulk) and for
// tests.
//
//   rating_rank        = (C * m + Σr) / (C + n)                    the RATING ordering
//   smart_review_score = rating_rank * (1 + 0.1 * recent / n)      the smart_review ordering
//
//   n       the listing's number of ratings, Σr their sum
//   m = 3.5 the prior: a middling place. A fixed prior, not the live site mean, so a listing's
//           rank never goes stale when other places are rated (and no write rescans the site)
//   C = 5   the listing counts as if it had five more ratings of m, so one 5-star
//           rating (rank 3.75 at m = 3.5) does not outrank forty ratings averaging 4.6 (4.48):
//           a place needs several good votes to climb
//   recent  its ratings from the last 365 days: a listing whose ratings are all from the past
//           year is lifted by at most 10%, so a place people still rate beats a stale one
//
// Without ratings rating_rank is null and smart_review_score 0, so unrated listings come last.
// The star average shown to readers (listings.rating) stays the plain mean.

export const SMART_REVIEW_PRIOR_WEIGHT = 5;
export const SMART_REVIEW_PRIOR_MEAN = 3.5;
export const SMART_REVIEW_RECENCY_LIFT = 0.1;
export const SMART_REVIEW_RECENT_DAYS = 365;

export interface RatingStats {
  /** Number of ratings of the listing. */
  n: number;
  /** Sum of its ratings (1–5 each). */
  sum: number;
  /** How many of them are from the last SMART_REVIEW_RECENT_DAYS days. */
  recent: number;
}

/** The damped star rating the RATING ordering sorts by; null without ratings. */
export function ratingRank({ n, sum }: Pick<RatingStats, 'n' | 'sum'>): number | null {
  if (n <= 0) return null;
  return (SMART_REVIEW_PRIOR_WEIGHT * SMART_REVIEW_PRIOR_MEAN + sum) / (SMART_REVIEW_PRIOR_WEIGHT + n);
}

export function smartReviewScore(stats: RatingStats): number {
  const rank = ratingRank(stats);
  if (rank === null) return 0;
  return rank * (1 + (SMART_REVIEW_RECENCY_LIFT * Math.min(stats.recent, stats.n)) / stats.n);
}
