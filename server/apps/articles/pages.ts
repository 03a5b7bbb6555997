import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { page } from '../../http/pages/page-view';
import { trailingSlash } from '../../http/pages/canonical-url';
import { addSavesIsland } from '../saves/page-island';
import { addIsland } from '../../views';
import { articlePage, articlePathFrom, bestOfChangesPage, bestOfListPage, bestOfPage, hubPage, HUB_TYPES, slideshowPage } from './page-service';

// Article pages. Mounted after every fixed-path app (see apps/index.ts): the detail route is a
// pattern, and it passes on anything that is not /{type}/{yyyy}/{mm}/{slug}/.
export function articlesPages(ctx: AppContext): Router {
  const router = Router();
  const shared = 'shared-for-guests';

  // ## Best of
  router.get('/best-of/', trailingSlash, page(shared, (req) => bestOfPage(ctx, req)));
  router.get('/best-of/:slug/', trailingSlash, page(shared, async (req, res) => {
    const view = await bestOfListPage(ctx, String(req.params.slug));
    if (view.mapState) addIsland(res, 'best-of-map', view.mapState);
    return view;
  }));
  router.get('/best-of/:slug/changes/', trailingSlash, page(shared, (req) => bestOfChangesPage(ctx, req, String(req.params.slug))));

  // ## Hubs, one per article type
  for (const hub of HUB_TYPES) {
    router.get(`/${hub.slug}/`, trailingSlash, page(shared, (req) => hubPage(ctx, req, hub)));
  }

  // ## Article detail and its slideshow, at the article's stored path
  router.get('/:type/:year/:month/:slug/', articleShaped, trailingSlash, page(shared, (req, res) => articleWithSaves(ctx, req, res)));
  router.get('/:type/:year/:month/:slug/slideshow/', articleShaped, trailingSlash, page(shared, (req, res) => slideshowPage(ctx, req, res.locals.articlePath)));
  return router;
}

async function articleWithSaves(ctx: AppContext, req: Request, res: Response) {
  const view = await articlePage(ctx, res.locals.articlePath);
  addSavesIsland(ctx, req, res, ['articleBookmarks']);
  return view;
}

/** Lets only /{type}/{yyyy}/{mm}/{slug}/ through, with the stored path it names in res.locals. */
function articleShaped(req: Request, res: Response, next: NextFunction): void {
  const path = articlePathFrom(req.params as { type: string; year: string; month: string; slug: string });
  if (!path) return next('route');
  res.locals.articlePath = path;
  next();
}
