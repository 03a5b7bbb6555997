// The `smart_review` ordering of listing search: listings by listings.smart_review_score,
// highest first (ties by id), read straight from the column so the sort is one walk of the
// listings_smart_review_desc index.
//
// The score is a Bayesian average of the listing's ratings with a recency lift:
//
//   smart_review_score = ((C * m + Σr) / (C + n)) * (1 + 0.1 * recent / n)
//
//   n       the listing's number of ratings, Σr their sum
//   m       the mean of every rating on the site
//   C = 5   the listing counts as if it had five more ratings at the site mean, so one 5-star
//           rating does not outrank forty ratings averaging 4.6
//   recent  its ratings from the last 365 days: a listing whose ratings are all from the past
//           year is lifted by at most 10%, so a place people still rate beats a stale one
//
// and 0 for a listing without ratings, so unrated listings come last. The column is kept
// current by whoever writes ratings (server/apps/ratings; the seed's recomputeListingStats in
// scripts/seed/engagement.ts does the same sum in bulk). This function is the formula for one
// listing, for those writers and for tests.

export const SMART_REVIEW_PRIOR_WEIGHT = 5;
export const SMART_REVIEW_RECENCY_LIFT = 0.1;
export const SMART_REVIEW_RECENT_DAYS = 365;

export interface RatingStats {
  /** Number of ratings of the listing. */
  n: number;
  /** Sum of its ratings (1–5 each). */
  sum: number;
  /** How many of them are from the last SMART_REVIEW_RECENT_DAYS days. */
  recent: number;
  /** Mean rating across the whole site. */
  siteMean: number;
}

export function smartReviewScore({ n, sum, recent, siteMean }: RatingStats): number {
  if (n <= 0) return 0;
  const bayesian = (SMART_REVIEW_PRIOR_WEIGHT * siteMean + sum) / (SMART_REVIEW_PRIOR_WEIGHT + n);
  return bayesian * (1 + (SMART_REVIEW_RECENCY_LIFT * Math.min(recent, n)) / n);
}
