import { ValidationError } from '../../http/errors';
import type { OrderTerms } from './save-kind';

/** Reads `ordering` from the query: one of the kind's choices, else a 400 naming the field. */
export function orderingParam(value: unknown, choices: Record<string, OrderTerms>, fallback: string): OrderTerms {
  if (value === undefined || value === '') return choices[fallback];
  if (typeof value === 'string' && Object.hasOwn(choices, value)) return choices[value];
  const shown = typeof value === 'string' ? value.slice(0, 50) : String(value);
  throw ValidationError.field('ordering', `Select a valid choice. "${shown}" is not one of ${Object.keys(choices).join(', ')}.`);
}

/** The specs' default ordering of saved things (spec 1 §9: -date_created), and its reverse. */
export const BY_DATE_SAVED: Record<string, OrderTerms> = {
  '-date_created': [{ column: 's.date_created', order: 'desc' }],
  date_created: [{ column: 's.date_created', order: 'asc' }],
};
