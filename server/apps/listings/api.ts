import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { idParam } from '../../http/validate';
import { paginated, pageParams } from '../../http/pagination';
import { parseListingSearchParams } from './search-params';
import { featureOptions, listingById, listingTypesWithSubTypes, searchListings, serviceOptions } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { addSharedSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';
import { HUB_OPTIONS_API } from '../../../shared/listing-hub';
import type { ListingsService } from './service';

// ## Listings (spec 2 §3, §7): search, filter options, one listing, the type tree.
export function listingsApi(ctx: AppContext, listings: ListingsService): Router {
  const router = Router();
  const h = handlers(ctx, listings);
  router.get('/api/v2/listings/', sharedWithGuests, h.search);
  router.get('/api/v2/listings/services/', sharedWithGuests, h.services);
  router.get('/api/v2/listings/features/', sharedWithGuests, h.features);
  router.get(HUB_OPTIONS_API, h.hubOptions);
  router.get('/api/v2/listings/:id/', sharedWithGuests, h.detail);
  router.get('/api/v2/listing-types/', sharedWithGuests, h.types);
  return router;
}

/** Options lists are short; they answer the list shape with everything on one page. */
const OPTIONS_PAGE = 500;

function handlers(ctx: AppContext, listings: ListingsService) {
  const { dbRead: db, config } = ctx;
  const siteUrl = config.site.url;
  const member = (req: Request) => req.user?.id;
  return {
    // The listing-search island's filter options. The same for everybody, members included:
    // asked for by their current version, the answer never changes, so browsers and shared
    // caches keep it (a page printed before a change asks for an older version and gets the
    // current options, which shared caches keep for a minute only).
    async hubOptions(req: Request, res: Response) {
      const options = await listings.loadedHubOptions();
      const cacheControl = req.query.v === options.version ? 'public, max-age=31536000, immutable' : 'public, max-age=60';
      res.set({ 'Cache-Control': cacheControl, ETag: `"${options.version}"` });
      res.locals.sharedCacheControl = cacheControl;
      res.locals.sameForMembers = true;
      res.type('json').send(options.islandJson);
    },
    async search(req: Request, res: Response) {
      const params = parseListingSearchParams(req.query, undefined, ctx.now());
      const { count, results } = await searchListings(db, params, { siteUrl, memberId: member(req) });
      // Places of any type and neighbourhood: every place's change announces `places`.
      addSharedSurrogateKeys(res, [surrogateKeys.places]);
      res.json(paginated(req, params, count, results));
    },
    async detail(req: Request, res: Response) {
      const listing = await listingById(db, idParam(req.params.id), { siteUrl, memberId: member(req) });
      if (!listing) throw new NotFoundError();
      addSharedSurrogateKeys(res, [surrogateKeys.place(listing.id)]);
      res.json(listing);
    },
    async services(req: Request, res: Response) {
      const page = pageParams(req, OPTIONS_PAGE, OPTIONS_PAGE);
      const all = await serviceOptions(db);
      res.json(paginated(req, page, all.length, all.slice(page.offset, page.offset + page.limit)));
    },
    async features(req: Request, res: Response) {
      const page = pageParams(req, OPTIONS_PAGE, OPTIONS_PAGE);
      const all = await featureOptions(db);
      res.json(paginated(req, page, all.length, all.slice(page.offset, page.offset + page.limit)));
    },
    async types(req: Request, res: Response) {
      const page = pageParams(req, OPTIONS_PAGE, OPTIONS_PAGE);
      const all = await listingTypesWithSubTypes(db, siteUrl);
      res.json(paginated(req, page, all.length, all.slice(page.offset, page.offset + page.limit)));
    },
  };
}
