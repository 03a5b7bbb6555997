import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { paginated } from '../../http/pagination';
import { listEvents, parseEventListParams } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { addSharedSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// ## Events (spec 2 §7): GET /api/v2/events/?date=YYYY-MM-DD&ordering=&limit=&offset=&bundle_type=
export function eventsApi(ctx: AppContext): Router {
  const router = Router();
  router.get('/api/v2/events/', sharedWithGuests, listHandler(ctx));
  return router;
}

function listHandler({ dbRead: db, config, now }: AppContext) {
  return async (req: Request, res: Response) => {
    const params = parseEventListParams(req.query);
    const { count, results } = await listEvents(db, params, { siteUrl: config.site.url, now: now() });
    // Every events' change announces `events` (surrogate-keys.ts eventKeys).
    addSharedSurrogateKeys(res, [surrogateKeys.events]);
    res.json(paginated(req, params, count, results));
  };
}
