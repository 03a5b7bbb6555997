import type { PlaceHours } from './place-hours';

// The places desk (issue 39): what staff (and readers' suggestions, once applied) change on a
// place, shared by the desk's service, its pages and the suggestions app.

/**
 * A change to a place: only the fields given change. Neighbourhood and nearest station are not
 * here: they follow latitude/longitude. The slug follows the name.
 */
export interface PlaceChanges {
  name?: string;
  type_id?: number;
  sub_type_id?: number | null;
  address?: string;
  latitude?: number | null;
  longitude?: number | null;
  /** "416-555-0100" (normalisePhone), '' for none. */
  phone?: string;
  /** http(s) address, '' for none. */
  website?: string;
  /** 1–4 ($–$$$$), null when not said. */
  price_range?: number | null;
  hours?: PlaceHours | null;
  /** Feature ids; the order does not matter. */
  features?: number[];
  services?: number[];
}

export type PlaceField = keyof PlaceChanges;

/** In the order the form and the revision lines name them. */
export const PLACE_FIELDS: readonly PlaceField[] = ['name', 'type_id', 'sub_type_id', 'address', 'latitude', 'longitude', 'phone', 'website', 'price_range', 'hours', 'features', 'services'];

export const PRICE_RANGES = [
  { value: 1, label: '$' },
  { value: 2, label: '$$' },
  { value: 3, label: '$$$' },
  { value: 4, label: '$$$$' },
] as const;

export const PLACE_NAME_MAX = 255;
export const PLACE_ADDRESS_MAX = 255;
export const PLACE_WEBSITE_MAX = 500;

/**
 * A North American number as "416-555-0100" (with " x123" for an extension), or null when it
 * is not one: ten digits (a leading 1 or +1 dropped) whose area code and exchange do not start
 * with 0 or 1.
 */
export function normalisePhone(text: string): string | null {
  const m = /^(.*?)(?:\s*(?:x|ext\.?|extension)\s*(\d{1,6}))?$/i.exec(text.trim());
  if (!m) return null;
  if (/[^\d\s().+-]/.test(m[1])) return null;
  let digits = m[1].replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10 || /^[01]/.test(digits) || /^[01]/.test(digits.slice(3))) return null;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}${m[2] ? ` x${m[2]}` : ''}`;
}

/** "tel:+14165550100" (with ";ext=123") for a normalised number. */
export function phoneHref(phone: string): string {
  const m = /^(\d{3})-(\d{3})-(\d{4})(?: x(\d+))?$/.exec(phone);
  if (!m) return `tel:${phone.replace(/[^\d+]/g, '')}`;
  return `tel:+1${m[1]}${m[2]}${m[3]}${m[4] ? `;ext=${m[4]}` : ''}`;
}

/**
 * JSON with object keys sorted, so equal values have equal text whatever order they were built
 * in (jsonb stores keys in its own order; a revision's "to" and the place's value must compare equal).
 */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
