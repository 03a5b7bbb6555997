import { readPlaceHours, type PlaceHours } from '../../../shared/place-hours';
import { describeHours } from '../../../shared/place-hours-form';
import type { SuggestionKind } from '../../../shared/place-suggestions';
import { stableJson } from '../../../shared/places-desk';

// What a suggestion holds, by kind: the place's field it is about (the desk's field names),
// the value as that field keeps it, the key under which agreeing suggestions are grouped, and
// the words staff read beside the current value.

/** The listings column each kind suggests a new value for. */
export const SUGGESTION_FIELD: Record<SuggestionKind, 'closed_on' | 'address' | 'hours' | 'phone' | 'website' | 'name'> = {
  closed: 'closed_on',
  moved: 'address',
  hours: 'hours',
  phone: 'phone',
  website: 'website',
  name: 'name',
};

/**
 * Suggestions that say the same thing share a key: every "closed" report of a place agrees
 * (their days may differ; staff apply the earliest), texts agree whatever their case and spacing.
 */
export function groupKey(kind: SuggestionKind, value: unknown): string {
  if (kind === 'closed') return 'closed';
  if (typeof value === 'string') return `${kind}:${value.trim().replace(/\s+/g, ' ').toLowerCase().replace(/\/+$/, '')}`;
  return `${kind}:${stableJson(value)}`;
}

/** A field's value as staff read it on the suggestions page. */
export function describeValue(kind: SuggestionKind, value: unknown): string {
  if (kind === 'closed') return value ? `Closed on ${String(value)}` : 'Closed';
  if (kind === 'hours') return value === null ? 'not known' : describeHours(readPlaceHours(value) as PlaceHours | null);
  if (value === null || value === undefined || value === '') return '(none)';
  return String(value);
}

/** The current value of a kind's field, as staff read it ("Open" for a place not closed). */
export function describeCurrent(kind: SuggestionKind, value: unknown): string {
  if (kind === 'closed') return value ? `Closed on ${String(value)}` : 'Open';
  return describeValue(kind, value);
}
