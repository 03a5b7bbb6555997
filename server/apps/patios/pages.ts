import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { PAGE_SIZE } from '../../../shared/constants';
import type { ListingDTO } from '../../../shared/dto';
import { addIsland } from '../../views';
import { page, type PageView } from '../../http/pages/page-view';
import { absolute, trailingSlash } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow, pathWithQuery } from '../../http/pages/page-param';
import { searchListings } from '../listings/queries';
import { addSavesIsland, LISTING_SAVE_KINDS } from '../saves/page-island';
import { patioArticles, patioSeasonStart } from './queries';

// The Patio Guide (FEATURE_PATIO_GUIDE, a guide to places, so it needs FEATURE_LISTINGS too,
// as the navbar link does): every place with the patio feature on a map and in a list by
// pages, and the patio season's stories. Off, /patios/ is a 404.

export const PATIOS_PATH = '/patios/';
/** The feature slug that marks a place as having a patio. */
export const PATIO_FEATURE = 'patio';
/** Places by the listing search's page size (spec 2 §9); stories by the Best of grid's 6. */
export const PATIO_PAGE_SIZE = PAGE_SIZE.listingSearch;
export const PATIO_STORIES = PAGE_SIZE.bestOf;

export function patiosPages(ctx: AppContext): Router {
  const router = Router();
  const shared = 'shared-for-guests';

  // ## Patio Guide
  router.get(PATIOS_PATH, patioGuideOn(ctx), trailingSlash, page(shared, (req, res) => patioGuidePage(ctx, req, res)));
  return router;
}

function patioGuideOn(ctx: AppContext) {
  return (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags.patioGuide && ctx.config.flags.listings ? undefined : 'route');
}

async function patioGuidePage(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const now = ctx.now();
  const { page: pageNo, limit, offset } = pageWindow(req, PATIO_PAGE_SIZE);
  const seasonStart = patioSeasonStart(now, ctx.config.city.timeZone);
  const [places, stories] = await Promise.all([
    // The page's HTML is the same for everybody: no member, so no user_rating in it.
    searchListings(ctx.dbRead, { limit, offset, features: [PATIO_FEATURE], ordering: 'smart_review', bundle_type: 'medium' }, { siteUrl: '' }),
    pageNo === 1 ? patioArticles(ctx.dbRead, seasonStart, now, PATIO_STORIES) : { season: [], earlier: [] },
  ]);
  const pages = pagesOrFirstPage(req, pageNo, places.count, PATIO_PAGE_SIZE);
  const listings = places.results;
  // The map island marks this page's places (their share_url are site paths, as the cards'),
  // and is only asked for when one of them has a point.
  const mapped = listings.filter((l) => l.coordinates);
  // The medium bundle (the search's default) carries every ListingDTO field, as on the listings hub.
  if (mapped.length) addIsland(res, 'patio-map', { listings: mapped as ListingDTO[] });
  if (listings.length) addSavesIsland(ctx, req, res, LISTING_SAVE_KINDS);
  const seasonYear = seasonStart.getFullYear();
  return {
    template: 'patios/index.njk',
    places: listings,
    mappedCount: mapped.length,
    count: places.count,
    page: pageNo,
    pages,
    seasonYear,
    seasonStories: stories.season,
    earlierStories: stories.earlier,
    pageTitle: pageNo > 1 ? `Patio Guide – Page ${pageNo}` : `Patio Guide: ${ctx.config.city.name} patios for ${seasonYear}`,
    pageDescription: `Every ${ctx.config.city.name} restaurant, bar and cafe with a patio, on a map, plus this season's patio news.`,
    canonicalUrl: absolute(ctx, pathWithQuery(PATIOS_PATH, { page: pageNo })),
  };
}
