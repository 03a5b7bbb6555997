import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { paginated } from '../../http/pagination';
import { listVideos, parseVideoListParams } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';

// ## Videos: GET /api/v2/videos/?category=&ordering=&limit=&offset=
export function videosApi(ctx: AppContext): Router {
  const router = Router();
  router.get('/api/v2/videos/', sharedWithGuests, listHandler(ctx));
  return router;
}

function listHandler({ dbRead: db, config, now }: AppContext) {
  return async (req: Request, res: Response) => {
    const params = parseVideoListParams(req.query);
    const { count, results } = await listVideos(db, params, { siteUrl: config.site.url, now: now() });
    res.json(paginated(req, params, count, results));
  };
}
