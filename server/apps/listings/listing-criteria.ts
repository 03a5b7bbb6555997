import type { Request } from 'express';
import type { AccessibilityAttribute } from '../../../shared/accessibility';
import { hubQueryString, parseHubQuery } from '../../../shared/listing-hub';
import { placeDay } from '../../../shared/place-closing';
import { ValidationError } from '../../http/errors';
import { pageNumber } from '../../http/pages/page-param';
import { LISTING_ORDERINGS, parseListingSearchParams, type ListingOrdering, type ListingSearchParams } from './search-params';
import { openNowProbe } from '../../../shared/place-hours';

// What a listing hub searches (spec 2 §2, §4), read once from the hub URL and typed: the hub
// page hands this one object to the search, the links it prints and the island's state. The
// URL is read here only (readListingCriteria); it is written here only (hubQuery).

/** The hub URL's criteria, every value checked. The hub's path (type, sub-type, neighbourhood) is not among them. */
export interface ListingCriteria {
  /** selectedCategoryIndex: a position in the hub options' types the URL kept beside its path. */
  categoryIndex: number | null;
  keywords: string | null;
  /** neighborhoodId: a neighbourhood filter (a neighbourhood hub's own neighbourhood is its path). */
  neighbourhoodId: number | null;
  subwayStopId: number | null;
  /** selectedServiceSlug */
  service: string | null;
  /** selectedFeatures: feature slugs. */
  features: string[];
  accessibility: AccessibilityAttribute[];
  bestOf: boolean;
  /** Open now (openNow=true): the search asks for places open at the minute it runs. */
  openNow: boolean;
  /** Closed places too (closed=include): the search drops its default of places still open for business. */
  includeClosed: boolean;
  /** The sort tab the URL names; null is the hub's default ordering. */
  ordering: ListingOrdering | null;
  /** ?page=, from 1. */
  page: number;
}

/**
 * Reads the hub's criteria from its URL, or throws a 400 naming the bad field. The URL's shape
 * (one value each, repeated checkboxes) is shared/listing-hub.ts' parseHubQuery; the values are
 * checked by the listing search's own schema (search-params.ts), which names the API's fields.
 */
export function readListingCriteria(req: Request): ListingCriteria {
  const parsed = parseHubQuery(req.query as Record<string, unknown>);
  if (!parsed.ok) throw new ValidationError({ [parsed.field]: [parsed.message] });
  const q = parsed.query;
  // lat/long (after 'Nearby' or a chosen place) are the island's: the page cannot search by
  // position, so it orders as the hub would by default until the island searches around them.
  const ordering = q.ordering === 'distance' && !q.subwayStopId ? undefined : q.ordering;
  const v = parseListingSearchParams({
    keywords: q.keywords,
    default_neighborhood: q.neighborhoodId,
    subway_stop: q.subwayStopId,
    service: q.selectedServiceSlug,
    features: q.selectedFeatures.join(','),
    accessibility: q.accessibility.join(','),
    ordering,
  });
  return {
    categoryIndex: q.selectedCategoryIndex ?? null,
    keywords: v.keywords ?? null,
    neighbourhoodId: v.default_neighborhood ?? null,
    subwayStopId: v.subway_stop ?? null,
    service: v.service ?? null,
    features: v.features,
    accessibility: v.accessibility ?? [],
    bestOf: q.bestOf,
    openNow: q.openNow,
    includeClosed: q.includeClosed,
    ordering: v.ordering ?? null,
    page: pageNumber(req),
  };
}

/** The query string (no '?') of a hub URL with these criteria: page from 2 on, in shared/listing-hub.ts' stable order. */
export function hubQuery(c: ListingCriteria): string {
  return hubQueryString(
    {
      selectedCategoryIndex: c.categoryIndex,
      keywords: c.keywords,
      neighborhoodId: c.neighbourhoodId,
      subwayStopId: c.subwayStopId,
      selectedServiceSlug: c.service,
      selectedFeatures: c.features,
      accessibility: c.accessibility,
      bestOf: c.bestOf,
      openNow: c.openNow,
      includeClosed: c.includeClosed,
      ordering: c.ordering,
    },
    { page: c.page },
  );
}

/** A hub URL: `path` with the criteria's query string, if any. */
export function hubUrl(path: string, c: ListingCriteria): string {
  const qs = hubQuery(c);
  return qs ? `${path}?${qs}` : path;
}

/** No criteria: a hub's plain first page (its canonical URL, with a page number from 2 on). */
export const NO_CRITERIA: ListingCriteria = Object.freeze({
  categoryIndex: null,
  keywords: null,
  neighbourhoodId: null,
  subwayStopId: null,
  service: null,
  features: [],
  accessibility: [],
  bestOf: false,
  openNow: false,
  includeClosed: false,
  ordering: null,
  page: 1,
}) as ListingCriteria;

/** A sort tab's or a hub's default ordering (shared/listing-hub.ts, untyped there) as the search's. */
export function listingOrdering(o: string): ListingOrdering {
  const found = LISTING_ORDERINGS.find((x) => x === o);
  if (!found) throw new Error(`Not a listing ordering: ${o}`);
  return found;
}

/** What the hub's path fixes: its listing type, sub-type and neighbourhood, by id. */
export interface HubPathIds {
  typeId: number;
  subTypeId?: number;
  neighbourhoodId?: number;
}

/**
 * The list query of a hub: the criteria on the hub's path, one page (medium bundle, as the
 * search's default). Its keys and values are those parseListingSearchParams gives the API for
 * the same search, in the same order, so the hub page and the island's API calls share the
 * search's cached answers (searchListings keys them by these params).
 */
export function hubSearchParams(c: ListingCriteria, path: HubPathIds, window: { limit: number; offset: number }, ordering: ListingOrdering | undefined, now: Date = new Date()): ListingSearchParams {
  return {
    limit: window.limit,
    offset: window.offset,
    keywords: c.keywords ?? undefined,
    type: { id: path.typeId },
    sub_type: path.subTypeId === undefined ? undefined : { id: path.subTypeId },
    default_neighborhood: path.neighbourhoodId ?? c.neighbourhoodId ?? undefined,
    point: undefined,
    bbox: undefined,
    subway_stop: c.subwayStopId ?? undefined,
    radius: undefined,
    service: c.service ?? undefined,
    features: c.features,
    accessibility: c.accessibility,
    appears_in_best_of_lists: c.bestOf ? true : undefined,
    open_now: c.openNow ? openNowProbe(now) : undefined,
    open_on: c.includeClosed ? undefined : placeDay(now),
    ordering,
    bundle_type: 'medium',
  };
}
