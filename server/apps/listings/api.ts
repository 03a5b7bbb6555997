import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { idParam } from '../../http/validate';
import { paginated, pageParams } from '../../http/pagination';
import { parseListingSearchParams } from './search-params';
import { featureOptions, listingById, listingTypesWithSubTypes, searchListings, serviceOptions } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';

// ## Listings (spec 2 §3, §7): search, filter options, one listing, the type tree.
export function listingsApi(ctx: AppContext): Router {
  const router = Router();
  const h = handlers(ctx);
  router.get('/api/v2/listings/', sharedWithGuests, h.search);
  router.get('/api/v2/listings/services/', sharedWithGuests, h.services);
  router.get('/api/v2/listings/features/', sharedWithGuests, h.features);
  router.get('/api/v2/listings/:id/', sharedWithGuests, h.detail);
  router.get('/api/v2/listing-types/', sharedWithGuests, h.types);
  return router;
}

/** Options lists are short; they answer the list shape with everything on one page. */
const OPTIONS_PAGE = 500;

function handlers({ db, config }: AppContext) {
  const siteUrl = config.site.url;
  const member = (req: Request) => req.user?.id;
  return {
    async search(req: Request, res: Response) {
      const params = parseListingSearchParams(req.query);
      const { count, results } = await searchListings(db, params, { siteUrl, memberId: member(req) });
      res.json(paginated(req, params, count, results));
    },
    async detail(req: Request, res: Response) {
      const listing = await listingById(db, idParam(req.params.id), { siteUrl, memberId: member(req) });
      if (!listing) throw new NotFoundError();
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
