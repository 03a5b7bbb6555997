import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { listingPhotoViewer } from '../../../shared/photo-viewer';
import { idFromSlugSegment, urls } from '../../../shared/urls';
import { idParam } from '../../http/validate';
import { page, type PageAnswer } from '../../http/pages/page-view';
import { absolute, canonicalRedirect } from '../../http/pages/canonical-url';
import { whenFlag } from '../../http/pages/feature-gate';
import { safeHttpUrl } from '../../http/pages/safe-link';
import { listingDetail, listingDetailExtras, listingTypesWithCounts, recentListings } from './page-queries';
import { listingPath, toListingDTO } from './serialize';
import { hoursRows, listingStructuredData } from './structured-data';
import { listingHubPage } from './hub-page';
import { hubListingType, hubNeighbourhood, hubSubType } from './hub-options';
import { addSavesIsland, LISTING_SAVE_KINDS } from '../saves/page-island';
import { listingAccessibility } from '../accessibility/queries';

// Places pages: /places/, a hub per listing type, sub-type and neighbourhood, and each
// listing's page. Paths are patterns (/{type}/...), so this router comes last in the registry
// and lets anything that is not a known listing type fall through to the 404 page.

export function listingsPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'listings');
  const shared = 'shared-for-guests';

  // ## Places
  router.get('/places/', on, page(shared, (req, res) => placesLanding(ctx, req, res)));
  router.get('/:type/n/:neighbourhoodId/:slug/', on, page(shared, (req, res) => neighbourhoodHub(ctx, req, res)));
  router.get('/:type/', on, page(shared, (req, res) => typeHub(ctx, req, res)));
  router.get('/:type/:segment/', on, page(shared, (req, res) => subTypeHubOrListing(ctx, req, res)));

  return router;
}

async function placesLanding(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const [types, recent] = await Promise.all([listingTypesWithCounts(ctx.dbRead), recentListings(ctx.dbRead, 12)]);
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
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
async function typeHub(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const type = await hubListingType(ctx, String(req.params.type));
  if (!type) return null;
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  return listingHubPage(ctx, req, res, { type });
}

async function neighbourhoodHub(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const type = await hubListingType(ctx, String(req.params.type));
  if (!type || !/^\d{1,9}$/.test(String(req.params.neighbourhoodId))) return null;
  const neighbourhood = await hubNeighbourhood(ctx, idParam(req.params.neighbourhoodId));
  if (!neighbourhood) return null;
  const moved = canonicalRedirect(req, urls.neighbourhoodListings(type.slug, neighbourhood.id, neighbourhood.slug));
  if (moved) return moved;
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  return listingHubPage(ctx, req, res, { type, neighbourhood });
}

async function subTypeHubOrListing(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const type = await hubListingType(ctx, String(req.params.type));
  if (!type) return null;
  const segment = String(req.params.segment);
  const id = idFromSlugSegment(segment);
  if (id === null) {
    const subType = await hubSubType(ctx, type, segment);
    if (!subType) return null;
    addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
    return listingHubPage(ctx, req, res, { type, subType });
  }
  return listingPage(ctx, req, res, id);
}

async function listingPage(ctx: AppContext, req: Request, res: Response, id: number): Promise<PageAnswer> {
  const listing = await listingDetail(ctx.dbRead, id);
  if (!listing) return null;
  const moved = canonicalRedirect(req, listingPath(listing));
  if (moved) return moved;
  const [extras, accessibility] = await Promise.all([listingDetailExtras(ctx.dbRead, listing), listingAccessibility(ctx.dbRead, listing.id)]);
  const dto = toListingDTO(listing, ctx.config.site.url);
  const hasPoint = listing.latitude !== null && listing.longitude !== null;
  addIsland(res, 'listing-map', { listing: dto, coordinates: dto.coordinates, nearby: extras.nearby.map((n) => toListingDTO(n, ctx.config.site.url)) });
  addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  if (extras.photos.photos.length) addIsland(res, 'photo-viewer', listingPhotoViewer(listing, extras.photos));
  return {
    template: 'places/listing.njk',
    listing,
    dto,
    hours: hoursRows(listing.hours),
    website: safeHttpUrl(listing.website),
    accessibility,
    ...extras,
    nearby: extras.nearby.map((n) => ({ ...toListingDTO(n, ''), distance: n.distance })),
    // The static map image (spec 2: zoom 14, 1080x300), drawn by server/apps/map-tiles.
    staticMapUrl: hasPoint ? `/static-maps/listings/${listing.id}.png` : null,
    structuredData: listingStructuredData(listing, ctx.config.site.url, ctx.config.city.name, accessibility),
    pageTitle: `${listing.name}${listing.sub_type_name ? ` – ${listing.sub_type_name}` : ''} in ${listing.neighbourhood_name ?? ctx.config.city.name}`,
    pageDescription: listing.description || `${listing.name}, ${listing.address}: ${listing.type_name} in ${ctx.config.city.name}.`,
    canonicalUrl: absolute(ctx, listingPath(listing)),
  };
}
