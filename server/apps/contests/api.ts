import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { paginated } from '../../http/pagination';
import { listContests, parseContestListParams } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';

// ## Contests (spec 1 §7): GET /api/v2/contests/?offset=&limit=&ordering=&expired=0|1
export function contestsApi(ctx: AppContext): Router {
  const router = Router();
  router.get('/api/v2/contests/', sharedWithGuests, listHandler(ctx));
  return router;
}

function listHandler({ dbRead: db, config, now }: AppContext) {
  return async (req: Request, res: Response) => {
    const params = parseContestListParams(req.query);
    const { count, results } = await listContests(db, params, { siteUrl: config.site.url, now: now() });
    res.json(paginated(req, params, count, results));
  };
}
