import { PAGE_SIZE } from './constants';
import { urls } from './urls';
import { accessibilityKeysOf } from './accessibility';

// The listing hubs' rules (spec 2 §2 "Listing search panel", §4 "Listing filters", §9 sort
// tabs), written once for the hub page the server renders (server/apps/listings/pages.ts)
// and the listing-search island that takes it over (islands/listing-search): the criteria,
// the page URL that keeps them (parse and serialise), the API query they become, the sort
// tabs and the default ordering.

/** Listing search pages are 40 long (spec 2 §9), on the page and in the island alike. */
export const HUB_PAGE_SIZE = PAGE_SIZE.listingSearch;

/** The 'Nearby' neighbourhood choice: the visitor's position instead of a neighbourhood. */
export const NEARBY_ID = -2;

/** left (west lng), bottom (south lat), right (east lng), top (north lat): the API's bbox order. */
export type HubBBox = [number, number, number, number];

/** The search criteria: every filter, the ordering and the map area. */
export interface HubCriteria {
  categoryIndex: number;
  category: string;
  subcategory: string | null;
  /** A neighbourhood id, NEARBY_ID, or null for all. */
  neighborhoodId: number | null;
  subwayStopId: number | null;
  /** Words a listing's name must contain (the panel's keyword field). */
  keywords: string | null;
  /** A chosen place suggestion (spec 2 §2): the search goes around its lat/long, nearest first. */
  selectedSuggestion: string | null;
  selectedServiceSlug: string | null;
  selectedFeatures: string[];
  /** Accessibility attributes a place must have (shared/accessibility.ts); absent is none. */
  accessibility?: string[];
  bestOf: boolean;
  /** Places open now (hours known and open at this minute, city time). */
  openNow?: boolean;
  /** Closed places too (URL and API `closed=include`); absent or false leaves them out. */
  includeClosed?: boolean;
  ordering: string;
  lat: number | null;
  long: number | null;
  bbox: HubBBox | null;
}

// ## What the hub page prints for the island (#initial-state 'listing-search')

export interface HubSubTypeOption {
  id: number;
  name: string;
  slug: string;
  index: number;
}

export interface HubTypeOption {
  id: number;
  name: string;
  slug: string;
  sub_types: HubSubTypeOption[];
}

export interface HubOptions {
  types: HubTypeOption[];
  neighbourhoods: Array<{ id: number; name: string; slug: string }>;
  subwayStops: Array<{ id: number; name: string }>;
  features: Array<{ id: number; name: string; slug: string }>;
  services: Array<{ id: number; name: string; slug: string }>;
}

export interface HubParams {
  selectedCategoryIndex: number;
  category: string;
  subcategory: string | null;
  neighborhoodId: number | null;
  subwayStopId: number | null;
  selectedServiceSlug: string | null;
  selectedFeatures: string[];
  /** The accessibility filter (URL and API name `accessibility`). */
  accessibility?: string[];
  bestOf: boolean;
  openNow?: boolean;
  includeClosed?: boolean;
  ordering: string;
  page: number;
  fixedNeighbourhood: number | null;
  /** The keyword field, as the hub page searched it. */
  keywords?: string | null;
}

/**
 * The first page as the hub printed it. Its cards are in the page's HTML, which the island
 * keeps as they are; the state names them by id only (for paging on without repeats), so the
 * page does not carry its 40 cards twice. What the map view needs of them it fetches when
 * the map is opened.
 */
export interface HubPrintedPage {
  count: number;
  next: string | null;
  previous: string | null;
  /** The ids of the printed cards, in their order. */
  ids: number[];
}

export interface ListingSearchInitialState {
  params: HubParams;
  results: HubPrintedPage;
  /** Where the island fetches HubOptions: HUB_OPTIONS_API with the options' version. */
  optionsUrl: string;
}

/**
 * The filter options the island fetches (server/apps/listings/hub-option-queries.ts): the same for
 * every hub and every visitor, so not printed on each hub page but kept by the browser.
 */
export const HUB_OPTIONS_API = '/api/v2/listings/hub-options/';

// ## Ordering

/** The sort tabs of spec 2 §9; MOST RECENT is smart_review on a sub-category hub. */
export function hubSortTabs(subcategory: string | null | undefined): Array<{ label: string; ordering: string }> {
  return [
    { label: 'A–Z', ordering: 'name' },
    { label: 'RATING', ordering: '-rating' },
    { label: 'POPULARITY', ordering: '-favourite_count' },
    { label: 'MOST RECENT', ordering: subcategory ? 'smart_review' : '-date_published' },
  ];
}

/** What a hub orders by when the URL names no ordering: distance around a subway stop, else by hub. */
export function defaultHubOrdering(c: { subwayStopId?: number | string | null; subcategory?: string | null }): string {
  if (c.subwayStopId) return 'distance';
  return c.subcategory ? 'smart_review' : 'name';
}

// ## The page URL (spec 2 §2: the island's parameter names, the ones the hub page reads)

/** What the page URL keeps of the criteria; ids may still be the URL's strings. */
export interface HubUrlState {
  /** The category's position in the Category dropdown (HubOptions.types), kept beside its path. */
  selectedCategoryIndex?: number | null;
  keywords?: string | null;
  neighborhoodId?: number | string | null;
  lat?: number | null;
  long?: number | null;
  subwayStopId?: number | string | null;
  selectedSuggestion?: string | null;
  selectedServiceSlug?: string | null;
  selectedFeatures: readonly string[];
  accessibility?: readonly string[];
  bestOf: boolean;
  openNow?: boolean;
  /** Written as `closed=include`, the API's own name and value. */
  includeClosed?: boolean;
  ordering?: string | null;
}

/**
 * The query string (no '?') for these criteria, in a stable order, selectedCategoryIndex first
 * when anything else is written. `page` is written from 2 on;
 * `defaultOrdering`, when given, is left out as the hub page would choose it anyway.
 */
export function hubQueryString(s: HubUrlState, opts: { page?: number; defaultOrdering?: string } = {}): string {
  const q = new URLSearchParams();
  if (s.keywords) q.set('keywords', s.keywords);
  if (s.neighborhoodId) q.set('neighborhoodId', String(s.neighborhoodId));
  if (s.lat != null && s.long != null) {
    q.set('lat', String(s.lat));
    q.set('long', String(s.long));
  }
  if (s.subwayStopId) q.set('subwayStopId', String(s.subwayStopId));
  if (s.selectedSuggestion) q.set('selectedSuggestion', s.selectedSuggestion);
  if (s.selectedServiceSlug) q.set('selectedServiceSlug', s.selectedServiceSlug);
  if (s.selectedFeatures.length) q.set('selectedFeatures', s.selectedFeatures.join(','));
  if (s.accessibility?.length) q.set('accessibility', s.accessibility.join(','));
  if (s.bestOf) q.set('bestOf', 'true');
  if (s.openNow) q.set('openNow', 'true');
  if (s.includeClosed) q.set('closed', 'include');
  if (s.ordering && s.ordering !== opts.defaultOrdering) q.set('ordering', s.ordering);
  if (opts.page && opts.page > 1) q.set('page', String(opts.page));
  const rest = q.toString();
  // The category index travels with the other parameters (spec 2 §2); a bare hub's path
  // already names its category, so its URL stays bare.
  if (!rest || s.selectedCategoryIndex == null || s.selectedCategoryIndex < 0) return rest;
  return `selectedCategoryIndex=${s.selectedCategoryIndex}&${rest}`;
}

/** The hub path of a category and sub-category: /{type}/ or /{type}/{sub}/. */
export function hubPathOf(category: string, subcategory: string | null | undefined): string {
  return subcategory ? urls.listingSubType(category, subcategory) : urls.listingType(category);
}

/** The filters the page URL carries, as read from it (no ids checked: the API's parser does that). */
export interface HubUrlQuery {
  /** A position in HubOptions.types; the hub page checks it names a category. */
  selectedCategoryIndex?: number;
  keywords?: string;
  neighborhoodId?: string;
  subwayStopId?: string;
  selectedServiceSlug?: string;
  selectedFeatures: string[];
  /** Accessibility attribute keys as the URL gave them (the API's parser rejects unknown ones). */
  accessibility: string[];
  bestOf: boolean;
  openNow: boolean;
  /** closed=include; closed=exclude (the default) or absent is false. */
  includeClosed: boolean;
  ordering?: string;
  /** lat/long after 'Nearby': only the island can search by them. */
  point: { lat: number; long: number } | null;
}

export type HubQueryResult = { ok: true; query: HubUrlQuery } | { ok: false; field: string; message: string };

const MANY = Symbol('many');

/** One value of a query parameter: undefined when absent or empty, MANY when repeated. */
function oneValue(v: unknown): string | undefined | typeof MANY {
  if (v === undefined || v === '') return undefined;
  return typeof v === 'string' ? v : MANY;
}

/** selectedFeatures from checkboxes (repeated) or from the island (comma list). */
function featureSlugs(v: unknown): string[] {
  if (v === undefined || v === '') return [];
  const list = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : []));
  return [...new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean))];
}

/** lat/long of the URL, or null when either is missing or not a coordinate. */
export function hubPointOf(q: { lat?: unknown; long?: unknown }): { lat: number; long: number } | null {
  if (typeof q.lat !== 'string' || typeof q.long !== 'string' || !q.lat || !q.long) return null;
  const lat = Number(q.lat);
  const long = Number(q.long);
  if (!Number.isFinite(lat) || !Number.isFinite(long) || Math.abs(lat) > 90 || Math.abs(long) > 180) return null;
  return { lat, long };
}

/** Reads the hub's filters from a parsed query (Express' req.query, or URLSearchParams' entries). */
export function parseHubQuery(q: Record<string, unknown>): HubQueryResult {
  const read: Partial<Record<'selectedCategoryIndex' | 'keywords' | 'bestOf' | 'openNow' | 'closed' | 'neighborhoodId' | 'subwayStopId' | 'selectedServiceSlug' | 'ordering', string>> = {};
  for (const field of ['selectedCategoryIndex', 'keywords', 'bestOf', 'openNow', 'closed', 'neighborhoodId', 'subwayStopId', 'selectedServiceSlug', 'ordering'] as const) {
    const v = oneValue(q[field]);
    if (v === MANY) return { ok: false, field, message: 'Choose one value.' };
    read[field] = v;
  }
  if (read.selectedCategoryIndex !== undefined && !/^\d{1,4}$/.test(read.selectedCategoryIndex)) {
    return { ok: false, field: 'selectedCategoryIndex', message: 'A valid integer is required.' };
  }
  // The API's values and message, so the page and the API refuse the same URL alike.
  if (read.closed !== undefined && read.closed !== 'include' && read.closed !== 'exclude') {
    return { ok: false, field: 'closed', message: 'Select a valid choice: exclude, include.' };
  }
  return {
    ok: true,
    query: {
      selectedCategoryIndex: read.selectedCategoryIndex === undefined ? undefined : Number(read.selectedCategoryIndex),
      keywords: read.keywords?.trim() || undefined,
      neighborhoodId: read.neighborhoodId,
      subwayStopId: read.subwayStopId,
      selectedServiceSlug: read.selectedServiceSlug,
      selectedFeatures: featureSlugs(q.selectedFeatures),
      accessibility: accessibilityKeysOf(q.accessibility),
      bestOf: read.bestOf !== undefined && /^(1|true|on)$/i.test(read.bestOf),
      openNow: read.openNow !== undefined && /^(1|true|on)$/i.test(read.openNow),
      includeClosed: read.closed === 'include',
      ordering: read.ordering,
      point: hubPointOf(q),
    },
  };
}

// ## The API query (spec 2 §3 listing search params)

/** What one search of a hub asks the listing API for. */
export interface HubSearch {
  /** The listing type and sub-type, by id or slug (the API takes either). */
  type: number | string;
  subType?: number | string | null;
  keywords?: string | null;
  neighbourhood?: number | string | null;
  point?: { lat: number; long: number } | null;
  subwayStopId?: number | string | null;
  service?: string | null;
  features: readonly string[];
  accessibility?: readonly string[];
  bestOf: boolean;
  openNow?: boolean;
  includeClosed?: boolean;
  bbox?: HubBBox | null;
  ordering?: string | null;
  bundleType?: 'simple' | 'medium' | 'large';
}

export type HubApiQuery = Record<string, string | number | null>;

/** The API's bbox parameter, 5 decimals (about a metre). */
export function bboxParam(b: HubBBox): string {
  return b.map((n) => n.toFixed(5)).join(',');
}

/** GET /api/v2/listings/ parameters for a hub search; absent choices are null (query strings drop them). */
export function hubApiQuery(s: HubSearch, offset: number, limit: number = HUB_PAGE_SIZE): HubApiQuery {
  return {
    type: s.type,
    sub_type: s.subType ?? null,
    keywords: s.keywords ?? null,
    default_neighborhood: s.neighbourhood ?? null,
    latitude: s.point ? s.point.lat : null,
    longitude: s.point ? s.point.long : null,
    subway_stop: s.subwayStopId ?? null,
    service: s.service ?? null,
    features: s.features.length ? s.features.join(',') : null,
    accessibility: s.accessibility?.length ? s.accessibility.join(',') : null,
    appears_in_best_of_lists: s.bestOf ? 'true' : null,
    open_now: s.openNow ? 'true' : null,
    closed: s.includeClosed ? 'include' : null,
    bbox: s.bbox ? bboxParam(s.bbox) : null,
    ordering: s.ordering ?? null,
    bundle_type: s.bundleType ?? null,
    limit,
    offset,
  };
}

/** The query as URL parameters, nulls dropped (spec 1 §7: query strings drop null values). */
export function hubApiSearchParams(q: HubApiQuery): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== null && v !== '') p.set(k, String(v));
  return p;
}

// ## The island's criteria through those rules

/** 'Nearby' or a place suggestion with a position: the search is around that point. */
export function hasPoint(c: HubCriteria): boolean {
  return (c.neighborhoodId === NEARBY_ID || c.selectedSuggestion !== null) && c.lat !== null && c.long !== null;
}

/**
 * The API query of the criteria; a neighbourhood hub searches its own neighbourhood. The first
 * page is the medium bundle; next pages ask for the large one (spec 2 §9).
 */
export function criteriaApiQuery(c: HubCriteria, fixedNeighbourhood: number | null, offset: number, limit: number = HUB_PAGE_SIZE, bundleType: 'medium' | 'large' = 'medium'): HubApiQuery {
  const point = hasPoint(c) ? { lat: c.lat as number, long: c.long as number } : null;
  return hubApiQuery(
    {
      type: c.category,
      subType: c.subcategory,
      keywords: c.keywords,
      neighbourhood: fixedNeighbourhood ?? (c.neighborhoodId && c.neighborhoodId > 0 ? c.neighborhoodId : null),
      point,
      subwayStopId: c.subwayStopId,
      service: c.selectedServiceSlug,
      features: c.selectedFeatures,
      accessibility: c.accessibility ?? [],
      bestOf: c.bestOf,
      openNow: c.openNow ?? false,
      includeClosed: c.includeClosed ?? false,
      bbox: c.bbox,
      ordering: c.ordering,
      bundleType,
    },
    offset,
    limit,
  );
}

/** The page URL (path and query) of the criteria, as history.replaceState keeps it. A neighbourhood hub keeps its own path. */
export function criteriaPageUrl(c: HubCriteria, opts: { path: string; fixedNeighbourhood: number | null; page: number }): string {
  const point = hasPoint(c);
  const qs = hubQueryString(
    {
      selectedCategoryIndex: c.categoryIndex,
      keywords: c.keywords,
      neighborhoodId: opts.fixedNeighbourhood === null && c.neighborhoodId && c.neighborhoodId > 0 ? c.neighborhoodId : null,
      lat: point ? c.lat : null,
      long: point ? c.long : null,
      subwayStopId: c.subwayStopId,
      selectedSuggestion: c.selectedSuggestion,
      selectedServiceSlug: c.selectedServiceSlug,
      selectedFeatures: c.selectedFeatures,
      accessibility: c.accessibility ?? [],
      bestOf: c.bestOf,
      openNow: c.openNow ?? false,
      includeClosed: c.includeClosed ?? false,
      ordering: c.ordering,
    },
    { page: opts.page, defaultOrdering: defaultHubOrdering(c) },
  );
  const path = opts.fixedNeighbourhood !== null ? opts.path : hubPathOf(c.category, c.subcategory);
  return path + (qs ? `?${qs}` : '');
}

/** lat/long in the page URL (a reload after 'Nearby'), or null. */
export function pointFromSearch(search: string): { lat: number; long: number } | null {
  const q = new URLSearchParams(search);
  return hubPointOf({ lat: q.get('lat') ?? undefined, long: q.get('long') ?? undefined });
}

/** A place suggestion kept in the page URL (selectedSuggestion with its lat/long), or null. */
export function suggestionFromSearch(search: string): { name: string; lat: number; long: number } | null {
  const name = new URLSearchParams(search).get('selectedSuggestion')?.trim();
  const point = pointFromSearch(search);
  return name && point ? { name, ...point } : null;
}
