import { z } from 'zod';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import { isDbId, validate } from '../../http/validate';
import { ValidationError } from '../../http/errors';
import { pageParamsFromQuery, type PageParams } from '../../http/pagination';
import type { AccessibilityAttribute } from '../../../shared/accessibility';
import { accessibilityFilterField } from '../accessibility/schemas';
import { openNowProbe, type OpenNowProbe } from '../../../shared/place-hours';
import { placeDay } from '../../../shared/place-closing';

// The listing search parameters of spec 2 §3, parsed once for the API and the hub pages.
// Unknown parameters are ignored (the hubs keep their own state in the URL); a known one
// with a bad value is a 400 naming it.

export const LISTING_ORDERINGS = ['name', '-rating', '-favourite_count', '-date_published', 'distance', 'smart_review'] as const;
export type ListingOrdering = (typeof LISTING_ORDERINGS)[number];

export const BUNDLE_TYPES = ['simple', 'medium', 'large'] as const;
export type BundleType = (typeof BUNDLE_TYPES)[number];

/** Listings "near" a subway stop are within this many km of it unless `radius` says otherwise. */
export const SUBWAY_STOP_RADIUS_KM = 1;
export const MAX_RADIUS_KM = 50;

/** An id (digits) or a slug; which one is decided when the query is built. */
export type IdOrSlug = { id: number } | { slug: string };

export interface BoundingBox {
  left: number; // west longitude
  bottom: number; // south latitude
  right: number; // east longitude
  top: number; // north latitude
}

export interface ListingSearchParams extends PageParams {
  keywords?: string;
  type?: IdOrSlug;
  sub_type?: IdOrSlug;
  default_neighborhood?: number;
  point?: { latitude: number; longitude: number };
  bbox?: BoundingBox;
  subway_stop?: number;
  /** km; with a point or a subway stop, only listings this close. */
  radius?: number;
  service?: string;
  features: string[];
  /** Accessibility attributes the place must have (verified, or a clear majority of reports). */
  accessibility?: AccessibilityAttribute[];
  appears_in_best_of_lists?: boolean;
  /**
   * open_now=true: places open at this minute (city time). The probe, not a flag, is kept so that
   * the search's cached answers are keyed by the minute they are true for.
   */
  open_now?: OpenNowProbe;
  /**
   * Closed places (closed_on on or before this city day) are left out: the default. Undefined
   * with closed=include, which a search for any place, open or not, asks for.
   */
  open_on?: string;
  /** What the caller asked for; undefined means the default order (see queries.ts). */
  ordering?: ListingOrdering;
  bundle_type: BundleType;
}

const text = (max: number) => z.string().trim().max(max, `Ensure this field has no more than ${max} characters.`);
const slug = z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, 'Enter a valid slug.');

const idOrSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, 'Enter a valid id or slug.')
  // All digits is an id, so it must fit the id column.
  .refine((v) => !/^\d+$/.test(v) || isDbId(v), 'Enter a valid id or slug.')
  .transform((v): IdOrSlug => (/^\d+$/.test(v) ? { id: Number(v) } : { slug: v.toLowerCase() }));

const positiveId = z
  .string()
  .trim()
  .regex(/^\d{1,9}$/, 'A valid integer is required.')
  .transform(Number)
  .refine((n) => n >= 1, 'A valid integer is required.');

const number = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/, 'A valid number is required.')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `Ensure this value is between ${min} and ${max}.`);

const bool = z
  .string()
  .trim()
  .regex(/^(1|0|true|false|True|False)$/, 'Must be a valid boolean.')
  .transform((v) => v === '1' || v.toLowerCase() === 'true');

const bbox = z
  .string()
  .trim()
  .transform((v, ctx): BoundingBox => {
    const parts = v.split(',').map((p) => p.trim());
    const nums = parts.map((p) => (/^-?\d{1,3}(\.\d{1,15})?$/.test(p) ? Number(p) : NaN));
    if (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
      ctx.addIssue({ code: 'custom', message: 'Enter four numbers: left,bottom,right,top.' });
      return z.NEVER;
    }
    const [left, bottom, right, top] = nums;
    if ([left, right].some((x) => x < -180 || x > 180) || [bottom, top].some((y) => y < -90 || y > 90)) {
      ctx.addIssue({ code: 'custom', message: 'Longitudes must be between -180 and 180 and latitudes between -90 and 90.' });
      return z.NEVER;
    }
    if (left > right || bottom > top) {
      ctx.addIssue({ code: 'custom', message: 'left must not exceed right, nor bottom top.' });
      return z.NEVER;
    }
    return { left, bottom, right, top };
  });

const featureList = z
  .string()
  .trim()
  .transform((v) => [...new Set(v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))])
  .refine((list) => list.length <= 20, 'Choose at most 20 features.')
  .refine((list) => list.every((s) => slug.safeParse(s).success), 'Enter a comma-separated list of feature slugs.');

// Empty strings mean "not given": query strings drop nothing, and the islands send `type=`.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === undefined || v === null ? undefined : v), schema.optional());

const schema = z.object({
  keywords: optional(text(100)),
  type: optional(idOrSlug),
  sub_type: optional(idOrSlug),
  default_neighborhood: optional(positiveId),
  latitude: optional(number(-90, 90)),
  longitude: optional(number(-180, 180)),
  bbox: optional(bbox),
  subway_stop: optional(positiveId),
  subwayStopId: optional(positiveId),
  radius: optional(number(0.01, MAX_RADIUS_KM)),
  service: optional(slug.transform((s) => s.toLowerCase())),
  features: optional(featureList),
  accessibility: optional(accessibilityFilterField),
  appears_in_best_of_lists: optional(bool),
  open_now: optional(bool),
  closed: optional(z.enum(['exclude', 'include'], { message: 'Select a valid choice: exclude, include.' })),
  ordering: optional(z.enum(LISTING_ORDERINGS, { message: `Select a valid choice: ${LISTING_ORDERINGS.join(', ')}.` })),
  bundle_type: optional(z.enum(BUNDLE_TYPES, { message: `Select a valid choice: ${BUNDLE_TYPES.join(', ')}.` })),
});

/**
 * Parses a query object (req.query) into typed search parameters, or throws a ValidationError
 * (400) naming each bad field. `defaultLimit` is the spec's 40 for listing search.
 */
export function parseListingSearchParams(query: unknown, defaultLimit: number = PAGE_SIZE.listingSearch, now: Date = new Date()): ListingSearchParams {
  const q = (query ?? {}) as Record<string, unknown>;
  // pageParams reads only req.query: the same limit/offset rules and messages as every list.
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  const v = validate(schema, q);
  if ((v.latitude === undefined) !== (v.longitude === undefined)) {
    const missing = v.latitude === undefined ? 'latitude' : 'longitude';
    throw ValidationError.field(missing, 'Send latitude and longitude together.');
  }
  const point = v.latitude !== undefined && v.longitude !== undefined ? { latitude: v.latitude, longitude: v.longitude } : undefined;
  const subway_stop = v.subway_stop ?? v.subwayStopId;
  if (v.ordering === 'distance' && !point && !subway_stop) {
    throw ValidationError.field('ordering', 'Ordering by distance needs latitude and longitude or a subway stop.');
  }
  if (v.radius !== undefined && !point && !subway_stop) {
    throw ValidationError.field('radius', 'A radius needs latitude and longitude or a subway stop.');
  }
  return {
    ...page,
    keywords: v.keywords || undefined,
    type: v.type,
    sub_type: v.sub_type,
    default_neighborhood: v.default_neighborhood,
    point,
    bbox: v.bbox,
    subway_stop,
    radius: v.radius,
    service: v.service,
    features: v.features ?? [],
    accessibility: v.accessibility ?? [],
    appears_in_best_of_lists: v.appears_in_best_of_lists,
    open_now: v.open_now ? openNowProbe(now) : undefined,
    open_on: v.closed === 'include' ? undefined : placeDay(now),
    ordering: v.ordering,
    bundle_type: v.bundle_type ?? 'medium',
  };
}
