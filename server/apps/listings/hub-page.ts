import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { addIsland } from '../../views';
import { MemoryCache } from '../../cache/memory-cache';
import { PAGE_SIZE } from '../../../shared/constants';
import { urls } from '../../../shared/urls';
import { ValidationError } from '../../http/errors';
import { PageRedirect, type PageAnswer } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { pageNumber, pagesOrNotFound } from '../../http/pages/page-param';
import type { ListingTypeRow, SubTypeRow } from './page-queries';
import { parseListingSearchParams, type ListingOrdering } from './search-params';
import { featureOptions, listingTypesWithSubTypes, searchListings, serviceOptions, type ListingTypeOption } from './queries';

// The listing hubs (/{type}/, /{type}/{sub}/, /{type}/n/{id}/{slug}/): the listing-search
// island's page, rendered on the server with its first page of results and filters that work
// as a plain GET form. The query keeps the island's parameter names (spec 2 §2):
// neighborhoodId, subwayStopId, selectedServiceSlug, selectedFeatures, bestOf, ordering, page.
// The category and sub-category choices are paths, so the form sends them as `category` and
// `subcategory` and the server redirects to the path they name.

export interface HubScope {
  type: ListingTypeRow;
  subType?: SubTypeRow;
  /** A neighbourhood hub: the neighbourhood is part of the path, not a filter. */
  neighbourhood?: { id: number; name: string; slug: string };
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
const HUB_PARAMS = ['neighborhoodId', 'subwayStopId', 'selectedServiceSlug', 'selectedFeatures', 'bestOf', 'ordering'] as const;

/** The sort tabs of spec 2 §9; MOST RECENT is smart_review on a sub-category hub. */
function sortTabs(scope: HubScope): Array<{ label: string; ordering: ListingOrdering }> {
  return [
    { label: 'A–Z', ordering: 'name' },
    { label: 'RATING', ordering: '-rating' },
    { label: 'POPULARITY', ordering: '-favourite_count' },
    { label: 'MOST RECENT', ordering: scope.subType ? 'smart_review' : '-date_published' },
  ];
}

function defaultOrdering(scope: HubScope): ListingOrdering {
  return scope.subType ? 'smart_review' : 'name';
}

function hubPath(scope: HubScope): string {
  if (scope.neighbourhood) return urls.neighbourhoodListings(scope.type.slug, scope.neighbourhood.id, scope.neighbourhood.slug);
  return scope.subType ? urls.listingSubType(scope.type.slug, scope.subType.slug) : urls.listingType(scope.type.slug);
}

function one(v: unknown, field: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new ValidationError({ [field]: ['Choose one value.'] });
  return v;
}

/** selectedFeatures from checkboxes (repeated) or from the island (comma list). */
function featureSlugs(v: unknown): string[] {
  if (v === undefined || v === '') return [];
  const list = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : []));
  return [...new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean))];
}

export interface HubQuery {
  neighborhoodId?: string;
  subwayStopId?: string;
  selectedServiceSlug?: string;
  selectedFeatures: string[];
  bestOf: boolean;
  ordering?: string;
  page: number;
}

export function readHubQuery(req: Request): HubQuery {
  const q = req.query as Record<string, unknown>;
  const bestOf = one(q.bestOf, 'bestOf');
  return {
    neighborhoodId: one(q.neighborhoodId, 'neighborhoodId'),
    subwayStopId: one(q.subwayStopId, 'subwayStopId'),
    selectedServiceSlug: one(q.selectedServiceSlug, 'selectedServiceSlug'),
    selectedFeatures: featureSlugs(q.selectedFeatures),
    bestOf: bestOf !== undefined && /^(1|true|on)$/i.test(bestOf),
    ordering: one(q.ordering, 'ordering'),
    page: pageNumber(req),
  };
}

/** The hub's query string (without page unless asked), in a stable order, for links. */
export function hubQueryString(h: HubQuery, overrides: Partial<HubQuery> = {}): string {
  const v = { ...h, ...overrides };
  const params = new URLSearchParams();
  if (v.neighborhoodId) params.set('neighborhoodId', v.neighborhoodId);
  if (v.subwayStopId) params.set('subwayStopId', v.subwayStopId);
  if (v.selectedServiceSlug) params.set('selectedServiceSlug', v.selectedServiceSlug);
  if (v.selectedFeatures.length) params.set('selectedFeatures', v.selectedFeatures.join(','));
  if (v.bestOf) params.set('bestOf', 'true');
  if (v.ordering) params.set('ordering', v.ordering);
  if (overrides.page && overrides.page > 1) params.set('page', String(overrides.page));
  return params.toString();
}

/**
 * CASE: the plain form chose a category or sub-category (or a neighbourhood on a neighbourhood
 * hub): redirect to the path that names it, keeping the other filters. A new category drops the
 * sub-category, as the island does.
 */
function redirectForPathChoice(req: Request, scope: HubScope, hub: HubQuery): PageRedirect | null {
  const q = req.query as Record<string, unknown>;
  const n = scope.neighbourhood;
  const leavesNeighbourhood = Boolean(n && 'neighborhoodId' in q && q.neighborhoodId !== String(n.id));
  if (!('category' in q) && !('subcategory' in q) && !leavesNeighbourhood) return null;
  const category = one(q.category, 'category') ?? scope.type.slug;
  const sub = category === scope.type.slug ? one(q.subcategory, 'subcategory') : undefined;
  if (!SLUG.test(category)) throw new ValidationError({ category: ['Choose a valid category.'] });
  if (sub !== undefined && !SLUG.test(sub)) throw new ValidationError({ subcategory: ['Choose a valid sub-category.'] });
  const stays = n && !leavesNeighbourhood;
  const path = stays ? urls.neighbourhoodListings(category, n.id, n.slug) : sub ? urls.listingSubType(category, sub) : urls.listingType(category);
  // On a neighbourhood hub the neighbourhood is the path; a different one becomes a filter.
  const qs = hubQueryString(stays ? { ...hub, neighborhoodId: undefined } : hub);
  return new PageRedirect(path + (qs ? `?${qs}` : ''), 302);
}

interface HubOptions {
  types: ListingTypeOption[];
  neighbourhoods: Array<{ id: number; name: string; slug: string }>;
  subwayStops: Array<{ id: number; name: string }>;
  features: Array<{ id: number; name: string; slug: string }>;
  services: Array<{ id: number; name: string; slug: string }>;
}

// The filter choices change when editors add a type or a feature, not per request: each
// database keeps them for a minute.
const OPTIONS_TTL_MS = 60_000;
const optionsCache = new WeakMap<Db, MemoryCache<string, HubOptions>>();

function hubOptions(db: Db, siteUrl: string): Promise<HubOptions> {
  let cache = optionsCache.get(db);
  if (!cache) optionsCache.set(db, (cache = new MemoryCache<string, HubOptions>({ ttlMs: OPTIONS_TTL_MS, maxEntries: 4 })));
  return cache.load(siteUrl, () => Promise.all([
    listingTypesWithSubTypes(db, siteUrl),
    db('neighbourhoods').orderBy('name').select('id', 'name', 'slug'),
    db('subway_stops').orderBy('name').select('id', 'name'),
    featureOptions(db),
    serviceOptions(db),
  ]).then(([types, neighbourhoods, subwayStops, features, services]) => ({ types, neighbourhoods, subwayStops, features, services })));
}

export async function listingHubPage(ctx: AppContext, req: Request, res: Response, scope: HubScope): Promise<PageAnswer> {
  const hub = readHubQuery(req);
  const chosen = redirectForPathChoice(req, scope, hub);
  if (chosen) return chosen;
  const limit = PAGE_SIZE.listingSearch;
  const offset = (hub.page - 1) * limit;
  const params = parseListingSearchParams({
    type: String(scope.type.id),
    sub_type: scope.subType ? String(scope.subType.id) : undefined,
    default_neighborhood: scope.neighbourhood ? String(scope.neighbourhood.id) : hub.neighborhoodId,
    subwayStopId: hub.subwayStopId,
    service: hub.selectedServiceSlug,
    features: hub.selectedFeatures.join(','),
    appears_in_best_of_lists: hub.bestOf ? 'true' : undefined,
    // Around a subway stop the island orders by distance unless a tab says otherwise.
    ordering: hub.ordering ?? (hub.subwayStopId ? undefined : defaultOrdering(scope)),
    limit: String(limit),
    offset: String(offset),
  });
  const siteUrl = ctx.config.site.url;
  const [result, options] = await Promise.all([searchListings(ctx.db, params, { siteUrl }), hubOptions(ctx.db, siteUrl)]);
  const pages = pagesOrNotFound(hub.page, result.count, limit);

  const path = hubPath(scope);
  const activeOrdering = hub.ordering ?? (hub.subwayStopId ? 'distance' : defaultOrdering(scope));
  const typeOption = options.types.find((t) => t.id === scope.type.id);
  const filterNeighbourhood = scope.neighbourhood ?? options.neighbourhoods.find((n) => String(n.id) === hub.neighborhoodId);
  const what = scope.subType?.name ?? scope.type.name;
  const where = filterNeighbourhood?.name ?? ctx.config.city.name;
  const apiQuery = (o: number) => {
    const p = new URLSearchParams({ type: String(scope.type.id), limit: String(limit), offset: String(o), ordering: activeOrdering });
    if (scope.subType) p.set('sub_type', String(scope.subType.id));
    if (params.default_neighborhood) p.set('default_neighborhood', String(params.default_neighborhood));
    if (params.subway_stop) p.set('subway_stop', String(params.subway_stop));
    if (params.service) p.set('service', params.service);
    if (params.features.length) p.set('features', params.features.join(','));
    if (params.appears_in_best_of_lists) p.set('appears_in_best_of_lists', 'true');
    return `${siteUrl}/api/v2/listings/?${p}`;
  };

  addIsland(res, 'listing-search', {
    params: {
      selectedCategoryIndex: options.types.findIndex((t) => t.id === scope.type.id),
      category: scope.type.slug,
      subcategory: scope.subType?.slug ?? null,
      neighborhoodId: params.default_neighborhood ?? null,
      subwayStopId: params.subway_stop ?? null,
      selectedServiceSlug: params.service ?? null,
      selectedFeatures: params.features,
      bestOf: hub.bestOf,
      ordering: activeOrdering,
      page: hub.page,
      fixedNeighbourhood: scope.neighbourhood?.id ?? null,
    },
    results: {
      count: result.count,
      next: offset + limit < result.count ? apiQuery(offset + limit) : null,
      previous: offset > 0 ? apiQuery(Math.max(0, offset - limit)) : null,
      results: result.results,
    },
    options,
  });
  return {
    template: 'places/hub.njk',
    scope,
    hub,
    path,
    typeOption,
    options,
    chosenNeighbourhoodId: params.default_neighborhood ?? null,
    chosenSubwayStopId: params.subway_stop ?? null,
    result,
    what,
    where,
    page: hub.page,
    pages,
    pageQuery: hubQueryString(hub),
    tabs: sortTabs(scope).map((t) => {
      const qs = hubQueryString(hub, { ordering: t.ordering });
      return { label: t.label, url: `${path}?${qs}`, active: t.ordering === activeOrdering };
    }),
    pageTitle: scope.neighbourhood
      ? `${scope.type.name} in ${scope.neighbourhood.name}`
      : `${scope.subType ? `${scope.subType.name} ${scope.type.name.toLowerCase()}` : scope.type.name} in ${ctx.config.city.name}`,
    pageDescription: `${result.count} ${what.toLowerCase()} in ${where}, with ratings, photos, maps and food-safety records.`,
    // Filtered and sorted views are the same page as far as search engines go; page n is its own.
    canonicalUrl: absolute(ctx, path) + (hub.page > 1 ? `?page=${hub.page}` : ''),
  };
}

