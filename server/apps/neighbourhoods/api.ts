import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { paginated, pageParams } from '../../http/pagination';
import { validate } from '../../http/validate';
import { listNeighbourhoods, listSubwayStops } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';

// ## Neighbourhoods and subway stops: the listing filters' dropdowns and the maps.
export function neighbourhoodsApi(ctx: AppContext): Router {
  const router = Router();
  const h = handlers(ctx);
  router.get('/api/v2/neighbourhoods/', sharedWithGuests, h.neighbourhoods);
  router.get('/api/v2/subway-stops/', sharedWithGuests, h.subwayStops);
  return router;
}

/** The city has 158 neighbourhoods and 70 stations: one page holds them all. */
const ALL_ON_ONE_PAGE = 200;

const neighbourhoodQuery = z.object({
  boundaries: z.enum(['', '0', '1', 'true', 'false'], { message: 'Must be a valid boolean.' }).optional(),
});

function handlers({ dbRead: db, config }: AppContext) {
  return {
    async neighbourhoods(req: Request, res: Response) {
      const page = pageParams(req, ALL_ON_ONE_PAGE, ALL_ON_ONE_PAGE);
      const { boundaries } = validate(neighbourhoodQuery, req.query);
      const withBoundaries = boundaries === '1' || boundaries === 'true';
      const { count, results } = await listNeighbourhoods(db, { siteUrl: config.site.url, withBoundaries, ...page });
      res.json(paginated(req, page, count, results));
    },
    async subwayStops(req: Request, res: Response) {
      const page = pageParams(req, ALL_ON_ONE_PAGE, ALL_ON_ONE_PAGE);
      const { count, results } = await listSubwayStops(db, page);
      res.json(paginated(req, page, count, results));
    },
  };
}
