import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import type { ListingDTO } from '../../../shared/dto';
import { urls } from '../../../shared/urls';
import {
  defaultHubOrdering,
  HUB_PAGE_SIZE,
  hubApiQuery,
  hubApiSearchParams,
  hubPathOf,
  hubQueryString as hubSearch,
  hubSortTabs,
  parseHubQuery,
  type HubUrlQuery,
  type ListingSearchInitialState,
} from '../../../shared/listing-hub';
import { ValidationError } from '../../http/errors';
import { ACCESSIBILITY_ATTRIBUTES, ACCESSIBILITY_MAJORITY } from '../../../shared/accessibility';
import { PageRedirect, type PageAnswer } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { pageNumber, pagesOrFirstPage } from '../../http/pages/page-param';
import type { ListingTypeRow, SubTypeRow } from './page-queries';
import { parseListingSearchParams } from './search-params';
import { searchListings } from './queries';
import { hubOptionsUrl, loadedHubOptions } from './hub-options';

// The listing hubs (/{type}/, /{type}/{sub}/, /{type}/n/{id}/{slug}/): the listing-search
// island's page, rendered on the server with its first page of results and filters that work
// as a plain GET form. The hub rules (URL names, sort tabs, default ordering, the API query)
// are the island's too: shared/listing-hub.ts. The category and sub-category choices are
// paths, so the form sends them as `category` and `subcategory` and the server redirects to
// the path they name.

export interface HubScope {
  type: ListingTypeRow;
  subType?: SubTypeRow;
  /** A neighbourhood hub: the neighbourhood is part of the path, not a filter. */
  neighbourhood?: { id: number; name: string; slug: string };
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

function hubPath(scope: HubScope): string {
  if (scope.neighbourhood) return urls.neighbourhoodListings(scope.type.slug, scope.neighbourhood.id, scope.neighbourhood.slug);
  return hubPathOf(scope.type.slug, scope.subType?.slug);
}

function one(v: unknown, field: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new ValidationError({ [field]: ['Choose one value.'] });
  return v;
}

export interface HubQuery extends Omit<HubUrlQuery, 'point'> {
  page: number;
}

export function readHubQuery(req: Request): HubQuery {
  const parsed = parseHubQuery(req.query as Record<string, unknown>);
  if (!parsed.ok) throw new ValidationError({ [parsed.field]: [parsed.message] });
  // lat/long (after 'Nearby' or a chosen place) are the island's: the page cannot search by
  // position, so it orders as the hub would by default until the island searches around them.
  const { point: _point, ...query } = parsed.query;
  if (query.ordering === 'distance' && !query.subwayStopId) query.ordering = undefined;
  return { ...query, page: pageNumber(req) };
}

/** The hub's query string (without page unless asked), in a stable order, for links. */
export function hubQueryString(h: HubQuery, overrides: Partial<HubQuery> = {}): string {
  return hubSearch({ ...h, ...overrides }, { page: overrides.page });
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
  // The form's category replaces any position the URL kept for the old one.
  const qs = hubQueryString({ ...hub, selectedCategoryIndex: undefined, ...(stays ? { neighborhoodId: undefined } : {}) });
  return new PageRedirect(path + (qs ? `?${qs}` : ''), 302);
}

/**
 * CASE: the URL keeps selectedCategoryIndex (spec 2 §2, the listing panel's URL state): it is
 * restored. Naming this hub's category it stays as it is; naming another, the page is that
 * category's hub (the path is the category), with the other filters; naming none, a 400.
 */
async function redirectForCategoryIndex(ctx: AppContext, scope: HubScope, hub: HubQuery): Promise<PageRedirect | null> {
  if (hub.selectedCategoryIndex === undefined) return null;
  const { options } = await loadedHubOptions(ctx);
  const type = options.types[hub.selectedCategoryIndex];
  if (!type) throw new ValidationError({ selectedCategoryIndex: ['Choose a valid category.'] });
  if (type.id === scope.type.id) return null;
  const n = scope.neighbourhood;
  const path = n ? urls.neighbourhoodListings(type.slug, n.id, n.slug) : urls.listingType(type.slug);
  const qs = hubQueryString(hub);
  return new PageRedirect(path + (qs ? `?${qs}` : ''), 302);
}

export async function listingHubPage(ctx: AppContext, req: Request, res: Response, scope: HubScope): Promise<PageAnswer> {
  const hub = readHubQuery(req);
  const chosen = redirectForPathChoice(req, scope, hub) ?? (await redirectForCategoryIndex(ctx, scope, hub));
  if (chosen) return chosen;
  const limit = HUB_PAGE_SIZE;
  const offset = (hub.page - 1) * limit;
  const defaultOrdering = defaultHubOrdering({ subwayStopId: hub.subwayStopId, subcategory: scope.subType?.slug });
  const search = {
    type: scope.type.id,
    subType: scope.subType?.id,
    keywords: hub.keywords,
    neighbourhood: scope.neighbourhood?.id ?? hub.neighborhoodId,
    subwayStopId: hub.subwayStopId,
    service: hub.selectedServiceSlug,
    features: hub.selectedFeatures,
    accessibility: hub.accessibility,
    bestOf: hub.bestOf,
  };
  // Around a subway stop the search's own default (distance) applies unless a tab says otherwise.
  const asked = hub.ordering ?? (hub.subwayStopId ? undefined : defaultOrdering);
  const params = parseListingSearchParams(Object.fromEntries(hubApiSearchParams(hubApiQuery({ ...search, ordering: asked }, offset, limit))));
  const siteUrl = ctx.config.site.url;
  const [result, loaded] = await Promise.all([searchListings(ctx.db, params, { siteUrl }), loadedHubOptions(ctx)]);
  const options = loaded.options;
  const pages = pagesOrFirstPage(req, hub.page, result.count, limit);

  const path = hubPath(scope);
  const activeOrdering = hub.ordering ?? defaultOrdering;
  const typeOption = options.types.find((t) => t.id === scope.type.id);
  const filterNeighbourhood = scope.neighbourhood ?? options.neighbourhoods.find((n) => String(n.id) === hub.neighborhoodId);
  const what = scope.subType?.name ?? scope.type.name;
  const where = filterNeighbourhood?.name ?? ctx.config.city.name;
  const apiQuery = (o: number) => {
    const q = hubApiQuery({ ...search, neighbourhood: params.default_neighborhood, subwayStopId: params.subway_stop, service: params.service, features: params.features, accessibility: params.accessibility, ordering: activeOrdering }, o, limit);
    return `${siteUrl}/api/v2/listings/?${hubApiSearchParams(q)}`;
  };

  const islandState: ListingSearchInitialState = {
    params: {
      selectedCategoryIndex: options.types.findIndex((t) => t.id === scope.type.id),
      category: scope.type.slug,
      subcategory: scope.subType?.slug ?? null,
      neighborhoodId: params.default_neighborhood ?? null,
      subwayStopId: params.subway_stop ?? null,
      selectedServiceSlug: params.service ?? null,
      selectedFeatures: params.features,
      accessibility: params.accessibility,
      bestOf: hub.bestOf,
      ordering: activeOrdering,
      page: hub.page,
      fixedNeighbourhood: scope.neighbourhood?.id ?? null,
      keywords: params.keywords ?? null,
    },
    results: {
      count: result.count,
      next: offset + limit < result.count ? apiQuery(offset + limit) : null,
      previous: offset > 0 ? apiQuery(Math.max(0, offset - limit)) : null,
      // The medium bundle (the search's default) carries every ListingDTO field.
      results: result.results as ListingDTO[],
    },
    optionsUrl: hubOptionsUrl(loaded),
  };
  addIsland(res, 'listing-search', islandState);
  return {
    template: 'places/hub.njk',
    scope,
    hub,
    path,
    typeOption,
    options,
    accessibilityOptions: ACCESSIBILITY_ATTRIBUTES,
    accessibilityMajority: ACCESSIBILITY_MAJORITY,
    chosenNeighbourhoodId: params.default_neighborhood ?? null,
    chosenSubwayStopId: params.subway_stop ?? null,
    result,
    what,
    where,
    page: hub.page,
    pages,
    pageQuery: hubQueryString(hub),
    tabs: hubSortTabs(scope.subType?.slug).map((t) => {
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

