import { pluralize } from './text';

// A listing's rating as cards, lists and the detail print it. The RATING order ranks by a
// damped (Bayesian) average, so 4.59 from 22 votes sits above 5.0 from one: the count beside
// the number is what makes that order readable.

/** '4.59', or '-' when nobody has rated the place (spec 1 §3: 2 decimals or '-'). */
export function formatRating(value: number | string | null | undefined): string {
  return value === null || value === undefined || value === '' ? '-' : Number(value).toFixed(2);
}

/** '22 ratings' / '1 rating' / 'No ratings'. */
export function formatRatingCount(count: number | null | undefined): string {
  return pluralize(Number(count ?? 0), 'rating');
}
