import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { urls, idFromSlugSegment } from '../../../shared/urls';
import { defaultHubOrdering, HUB_PAGE_SIZE, hubApiQuery, hubApiSearchParams, hubPathOf, hubSortTabs, type ListingSearchInitialState } from '../../../shared/listing-hub';
import { ValidationError } from '../../http/errors';
import { ACCESSIBILITY_ATTRIBUTES, ACCESSIBILITY_MAJORITY } from '../../../shared/accessibility';
import { PageRedirect, type PageAnswer, page } from '../../http/pages/page-view';
import { absolute, canonicalRedirect } from '../../http/pages/canonical-url';
import { pagesOrFirstPage } from '../../http/pages/page-param';
import type { ListingTypeRow, SubTypeRow } from './queries';
import { hubQuery, hubSearchParams, hubUrl, listingOrdering, NO_CRITERIA, readListingCriteria, type ListingCriteria } from './listing-criteria';
import { searchListings } from './queries';
import { hubOptionsUrl } from './hub-option-queries';
import type { ListingsService } from './service';
import { Router, type Request, type Response } from 'express';
import { listingPhotoViewer } from '../../../shared/photo-viewer';
import { idParam } from '../../http/validate';
import { whenFlag } from '../../http/pages/feature-gate';
import { safeHttpUrl } from '../../http/pages/safe-link';
import { listingDetail, listingDetailExtras, listingTypesWithCounts, recentListings } from './queries';
import { listingPath, toListingDTO } from './serialize';
import { listingStructuredData, placeHoursView } from './structured-data';
import { secondsStateHolds } from '../../../shared/place-hours';
import { addSavesIsland, LISTING_SAVE_KINDS } from '../saves/page-island';
import { listingAccessibility } from '../accessibility/queries';
import { addSurrogateKeys, keepAtEdgeAtMost, surrogateKeys } from '../../http/surrogate-keys';
import { closedDay, closingDayLabel, isClosedOn, placeDay } from '../../../shared/place-closing';
import { renderStoryDoc } from '../../../shared/story-render';

// The listing hubs (/{type}/, /{type}/{sub}/, /{type}/n/{id}/{slug}/): the listing-search
// island's page, rendered on the server with its first page of results and filters that work
// as a plain GET form. The hub rules (URL names, sort tabs, default ordering, the API query)
// are the island's too: shared/listing-hub.ts. The category and sub-category choices are
// paths, so the form sends them as `category` and `subcategory` and the server redirects to
// the path they name. What the hub searches is one ListingCriteria, read once from the URL
// (listing-criteria.ts) and handed as it is to the search, the links and the island's state.

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

/**
 * CASE: the plain form chose a category or sub-category (or a neighbourhood on a neighbourhood
 * hub): redirect to the path that names it, keeping the other filters. A new category drops the
 * sub-category, as the island does.
 */
function redirectForPathChoice(req: Request, scope: HubScope, criteria: ListingCriteria): PageRedirect | null {
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
  // The form's category replaces any position the URL kept for the old one. A new path starts at page 1.
  return new PageRedirect(hubUrl(path, { ...criteria, categoryIndex: null, ...(stays ? { neighbourhoodId: null } : {}), page: 1 }), 302);
}

/**
 * CASE: the URL keeps selectedCategoryIndex (spec 2 §2, the listing panel's URL state): it is
 * restored. Naming this hub's category it stays as it is; naming another, the page is that
 * category's hub (the path is the category), with the other filters; naming none, a 400.
 */
async function redirectForCategoryIndex(listings: ListingsService, scope: HubScope, criteria: ListingCriteria): Promise<PageRedirect | null> {
  if (criteria.categoryIndex === null) return null;
  const { options } = await listings.loadedHubOptions();
  const type = options.types[criteria.categoryIndex];
  if (!type) throw new ValidationError({ selectedCategoryIndex: ['Choose a valid category.'] });
  if (type.id === scope.type.id) return null;
  const n = scope.neighbourhood;
  const path = n ? urls.neighbourhoodListings(type.slug, n.id, n.slug) : urls.listingType(type.slug);
  return new PageRedirect(hubUrl(path, { ...criteria, page: 1 }), 302);
}

export async function listingHubPage(ctx: AppContext, listings: ListingsService, req: Request, res: Response, scope: HubScope): Promise<PageAnswer> {
  const criteria = readListingCriteria(req);
  const chosen = redirectForPathChoice(req, scope, criteria) ?? (await redirectForCategoryIndex(listings, scope, criteria));
  if (chosen) return chosen;
  const limit = HUB_PAGE_SIZE;
  const offset = (criteria.page - 1) * limit;
  const defaultOrdering = defaultHubOrdering({ subwayStopId: criteria.subwayStopId, subcategory: scope.subType?.slug });
  const activeOrdering = criteria.ordering ?? defaultOrdering;
  const pathIds = { typeId: scope.type.id, subTypeId: scope.subType?.id, neighbourhoodId: scope.neighbourhood?.id };
  // Around a subway stop the search's own default (distance) applies unless a tab says otherwise.
  const params = hubSearchParams(criteria, pathIds, { limit, offset }, criteria.ordering ?? (criteria.subwayStopId ? undefined : listingOrdering(defaultOrdering)), ctx.now());
  const siteUrl = ctx.config.site.url;
  const [result, loaded] = await Promise.all([searchListings(ctx.dbRead, params, { siteUrl }), listings.loadedHubOptions()]);
  const options = loaded.options;
  const pages = pagesOrFirstPage(req, criteria.page, result.count, limit);

  const path = hubPath(scope);
  const typeOption = options.types.find((t) => t.id === scope.type.id);
  // The neighbourhood searched: the hub's own, else the filter's.
  const neighbourhoodId = scope.neighbourhood?.id ?? criteria.neighbourhoodId;
  const filterNeighbourhood = scope.neighbourhood ?? options.neighbourhoods.find((n) => n.id === criteria.neighbourhoodId);
  const what = scope.subType?.name ?? scope.type.name;
  const where = filterNeighbourhood?.name ?? ctx.config.city.name;
  // The island's next and previous pages, from the listing API (its own URL, not the hub's).
  const apiPageUrl = (o: number) => {
    const q = hubApiQuery(
      { type: scope.type.id, subType: scope.subType?.id, keywords: criteria.keywords, neighbourhood: neighbourhoodId, subwayStopId: criteria.subwayStopId, service: criteria.service, features: criteria.features, accessibility: criteria.accessibility, bestOf: criteria.bestOf, openNow: criteria.openNow, includeClosed: criteria.includeClosed, ordering: activeOrdering },
      o,
      limit,
    );
    return `${siteUrl}/api/v2/listings/?${hubApiSearchParams(q)}`;
  };

  const islandState: ListingSearchInitialState = {
    params: {
      selectedCategoryIndex: options.types.findIndex((t) => t.id === scope.type.id),
      category: scope.type.slug,
      subcategory: scope.subType?.slug ?? null,
      neighborhoodId: neighbourhoodId,
      subwayStopId: criteria.subwayStopId,
      selectedServiceSlug: criteria.service,
      selectedFeatures: criteria.features,
      accessibility: criteria.accessibility,
      bestOf: criteria.bestOf,
      openNow: criteria.openNow,
      includeClosed: criteria.includeClosed,
      ordering: activeOrdering,
      page: criteria.page,
      fixedNeighbourhood: scope.neighbourhood?.id ?? null,
      keywords: criteria.keywords,
    },
    results: {
      count: result.count,
      next: offset + limit < result.count ? apiPageUrl(offset + limit) : null,
      previous: offset > 0 ? apiPageUrl(Math.max(0, offset - limit)) : null,
      // The cards are in the HTML (the island keeps them): their ids are enough here.
      ids: result.results.map((l) => l.id),
    },
    optionsUrl: hubOptionsUrl(loaded),
  };
  addIsland(res, 'listing-search', islandState);
  // Without JavaScript, the two long lists (every neighbourhood, every subway stop: 2.7 KB of the
  // hub's 11 KB compressed, half its weight beside the home) are printed when one is chosen or
  // asked for: the field is a link to this same page with `choose` and the list in it. The island
  // fetches its own options and never reads these.
  const asked = req.query.choose;
  const longLists = { neighbourhood: Boolean(neighbourhoodId) || asked === 'neighbourhood', subway: Boolean(criteria.subwayStopId) || asked === 'subway' };
  const chooseUrl = (list: 'neighbourhood' | 'subway') => {
    const url = hubUrl(path, criteria);
    return `${url}${url.includes('?') ? '&' : '?'}choose=${list}#hub-${list}`;
  };
  return {
    template: 'places/hub.njk',
    scope,
    criteria,
    path,
    typeOption,
    options,
    accessibilityOptions: ACCESSIBILITY_ATTRIBUTES,
    accessibilityMajority: ACCESSIBILITY_MAJORITY,
    chosenNeighbourhoodId: neighbourhoodId,
    longLists,
    chooseUrls: { neighbourhood: chooseUrl('neighbourhood'), subway: chooseUrl('subway') },
    result,
    what,
    where,
    pages,
    // The numbered links add their own page to the criteria's other parameters.
    pageQuery: hubQuery({ ...criteria, page: 1 }),
    tabs: hubSortTabs(scope.subType?.slug).map((t) => ({ label: t.label, url: hubUrl(path, { ...criteria, ordering: listingOrdering(t.ordering), page: 1 }), active: t.ordering === activeOrdering })),
    pageTitle: scope.neighbourhood
      ? `${scope.type.name} in ${scope.neighbourhood.name}`
      : `${scope.subType ? `${scope.subType.name} ${scope.type.name.toLowerCase()}` : scope.type.name} in ${ctx.config.city.name}`,
    pageDescription: `${result.count} ${what.toLowerCase()} in ${where}, with ratings, photos, maps and food-safety records.`,
    // Filtered and sorted views are the same page as far as search engines go; page n is its own.
    canonicalUrl: hubUrl(absolute(ctx, path), { ...NO_CRITERIA, page: criteria.page }),
  };
}

// Places pages: /places/, a hub per listing type, sub-type and neighbourhood, and each
// listing's page. Paths are patterns (/{type}/...), so this router comes last in the registry
// and lets anything that is not a known listing type fall through to the 404 page.

export function listingsPages(ctx: AppContext, listings: ListingsService): Router {
  const router = Router();
  const on = whenFlag(ctx, 'listings');
  const shared = 'shared-for-guests';

  // ## Places
  router.get('/places/', on, page(shared, (req, res) => placesLanding(ctx, req, res)));
  router.get('/:type/n/:neighbourhoodId/:slug/', on, page(shared, (req, res) => neighbourhoodHub(ctx, listings, req, res)));
  router.get('/:type/', on, page(shared, (req, res) => typeHub(ctx, listings, req, res)));
  router.get('/:type/:segment/', on, page(shared, (req, res) => subTypeHubOrListing(ctx, listings, req, res)));

  return router;
}

async function placesLanding(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const [types, recent] = await Promise.all([listingTypesWithCounts(ctx.dbRead), recentListings(ctx.dbRead, 12)]);
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  // Counts and recent places of every type: any place's change touches it.
  addSurrogateKeys(res, [surrogateKeys.places]);
  return {
    template: 'places/index.njk',
    types,
    recent: recent.map((r) => toListingDTO(r, '')),
    total: types.reduce((sum, t) => sum + t.count, 0),
    pageTitle: `Places in ${ctx.config.city.name}`,
    pageDescription: `Restaurants, bars, cafes, bakeries and food shops across ${ctx.config.city.name}, with ratings, photos, maps and food-safety records.`,
    canonicalUrl: absolute(ctx, '/places/'),
  };
}

// The type, sub-type and neighbourhood a hub path names come from the hub's cached options.
async function typeHub(ctx: AppContext, listings: ListingsService, req: Request, res: Response): Promise<PageAnswer> {
  const type = await listings.hubListingType(String(req.params.type));
  if (!type) return null;
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  addSurrogateKeys(res, [surrogateKeys.hub(type.slug)]);
  return listingHubPage(ctx, listings, req, res, { type });
}

async function neighbourhoodHub(ctx: AppContext, listings: ListingsService, req: Request, res: Response): Promise<PageAnswer> {
  const type = await listings.hubListingType(String(req.params.type));
  if (!type || !/^\d{1,9}$/.test(String(req.params.neighbourhoodId))) return null;
  const neighbourhood = await listings.hubNeighbourhood(idParam(req.params.neighbourhoodId));
  if (!neighbourhood) return null;
  const moved = canonicalRedirect(req, urls.neighbourhoodListings(type.slug, neighbourhood.id, neighbourhood.slug));
  if (moved) return moved;
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  addSurrogateKeys(res, [surrogateKeys.neighbourhood(neighbourhood.id)]);
  return listingHubPage(ctx, listings, req, res, { type, neighbourhood });
}

async function subTypeHubOrListing(ctx: AppContext, listings: ListingsService, req: Request, res: Response): Promise<PageAnswer> {
  const type = await listings.hubListingType(String(req.params.type));
  if (!type) return null;
  const segment = String(req.params.segment);
  const id = idFromSlugSegment(segment);
  if (id === null) {
    const subType = await listings.hubSubType(type, segment);
    if (!subType) return null;
    addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
    addSurrogateKeys(res, [surrogateKeys.hub(type.slug)]);
    return listingHubPage(ctx, listings, req, res, { type, subType });
  }
  return listingPage(ctx, listings, req, res, id);
}

async function listingPage(ctx: AppContext, listings: ListingsService, req: Request, res: Response, id: number): Promise<PageAnswer> {
  const listing = await listingDetail(ctx.dbRead, id);
  if (!listing) return null;
  const moved = canonicalRedirect(req, listingPath(listing));
  if (moved) return moved;
  const [extras, boundary, accessibility] = await Promise.all([
    listingDetailExtras(ctx.dbRead, listing, placeDay(ctx.now(), ctx.config.city.timeZone)),
    listings.neighbourhoodBoundary(listing.neighbourhood_id),
    listingAccessibility(ctx.dbRead, listing.id),
  ]);
  const dto = toListingDTO(listing, ctx.config.site.url);
  const hasPoint = listing.latitude !== null && listing.longitude !== null;
  addIsland(res, 'listing-map', { listing: dto, coordinates: dto.coordinates, nearby: extras.nearby.map((n) => toListingDTO(n, ctx.config.site.url)) });
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  addSurrogateKeys(res, [surrogateKeys.place(listing.id)]);
  // A closed place (issue 39) keeps its page, which says since when instead of its hours' state.
  const closedOn = closedDay(listing.closed_on);
  const closed = closedOn !== null && isClosedOn(closedOn, placeDay(ctx.now(), ctx.config.city.timeZone));
  const hours = closed ? null : placeHoursView(listing.hours, ctx.now(), ctx.config.city.timeZone);
  // Its open state ("Open now · Closes at 10 pm") goes with the clock, which no change
  // announces: the edge keeps the page no longer than the line holds.
  if (hours) keepAtEdgeAtMost(res, secondsStateHolds(hours.state, ctx.now(), ctx.config.city.timeZone));
  if (extras.photos.photos.length) addIsland(res, 'photo-viewer', listingPhotoViewer(listing, extras.photos));
  return {
    template: 'places/listing.njk',
    listing,
    dto,
    hours,
    closedSince: closed ? closingDayLabel(closedOn!) : null,
    closingOn: closedOn && !closed ? closingDayLabel(closedOn) : null,
    website: safeHttpUrl(listing.website),
    // A review written in the editor (issue 39), through the stories' renderer: escaped, the
    // schema's nodes only. Null: a plain-text review, printed as paragraphs.
    reviewHtml: listing.review_published_at && listing.review_doc ? renderStoryDoc(listing.review_doc).html : null,
    accessibility,
    ...extras,
    boundary,
    nearby: extras.nearby.map((n) => ({ ...toListingDTO(n, ''), distance: n.distance })),
    // The static map image (spec 2: zoom 14, 1080x300), drawn by server/apps/map-tiles.
    staticMapUrl: hasPoint ? `/static-maps/listings/${listing.id}.png` : null,
    structuredData: listingStructuredData(listing, ctx.config.site.url, ctx.config.city.name, accessibility, ctx.now(), ctx.config.city.timeZone),
    pageTitle: `${listing.name}${listing.sub_type_name ? ` – ${listing.sub_type_name}` : ''} in ${listing.neighbourhood_name ?? ctx.config.city.name}`,
    // A published review is what the page says about the place (issue 39); else the seed's description.
    pageDescription: (listing.review_published_at ? listing.review : '') || listing.description || `${listing.name}, ${listing.address}: ${listing.type_name} in ${ctx.config.city.name}.`,
    canonicalUrl: absolute(ctx, listingPath(listing)),
  };
}
