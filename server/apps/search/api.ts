import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { paginated } from '../../http/pagination';
import { parseSiteSearchParams } from './params';
import type { SearchService } from './service';
import type { SearchCategory } from './source-queries';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { addSharedSurrogateKeys, keepAtEdgeAtMost, SITE_SEARCH_EDGE_SECONDS, siteSearchKeys } from '../../http/surrogate-keys';

// ## Site search (spec 2 §7): GET /api/search/?serialize_for=web&q=&categories=&ordering=&offset=&limit=
export function searchApi(ctx: AppContext, search: SearchService): Router {
  const router = Router();
  router.get('/api/search/', sharedWithGuests, searchHandler(ctx, search));
  return router;
}

/** Sections switched off by a feature flag are not searched. */
export function enabledCategories(flags: AppContext['config']['flags']): Set<SearchCategory> {
  const on = new Set<SearchCategory>(['articles']);
  if (!flags.newsOnly) {
    if (flags.listings) on.add('listings');
    if (flags.events) on.add('events');
    if (flags.videos) on.add('videos');
    if (flags.contests) on.add('contests');
  }
  return on;
}

function searchHandler({ dbRead: db, config, now }: AppContext, search: SearchService) {
  const enabled = enabledCategories(config.flags);
  return async (req: Request, res: Response) => {
    const params = parseSiteSearchParams(req.query);
    const categories = params.categories.filter((c) => enabled.has(c));
    const result = categories.length ? await search.searchSite(db, { ...params, categories }, config.site.url, { now: now() }) : null;
    const page = paginated(req, params, result?.count ?? 0, result?.results ?? []);
    addSharedSurrogateKeys(res, siteSearchKeys(page.results));
    keepAtEdgeAtMost(res, SITE_SEARCH_EDGE_SECONDS);
    res.json({
      ...page,
      counts: result?.counts ?? {},
      count_estimated: result?.count_estimated ?? false,
      match: result?.match ?? 'none',
      corrected: result?.corrected ?? null,
      query: params.q,
    });
  };
}
