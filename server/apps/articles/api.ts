import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { paginated } from '../../http/pagination';
import { listArticles, parseArticleListParams } from './queries';
import { sharedWithGuests } from '../../http/api-cache-headers';

// ## Articles (spec 2 §7): GET /api/v2/articles/?type=&ordering=&limit=&offset=&bundle_type=
export function articlesApi(ctx: AppContext): Router {
  const router = Router();
  router.get('/api/v2/articles/', sharedWithGuests, listHandler(ctx));
  return router;
}

function listHandler({ dbRead: db, config, now }: AppContext) {
  return async (req: Request, res: Response) => {
    const params = parseArticleListParams(req.query);
    const { count, results } = await listArticles(db, params, { siteUrl: config.site.url, now: now() });
    res.json(paginated(req, params, count, results));
  };
}
