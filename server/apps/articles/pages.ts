import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { publicPage, renderView, trailingSlash } from '../site-pages/public-page';
import { addSavesIsland } from '../saves/page-island';
import { articlePage, articlePathFrom, bestOfListPage, bestOfPage, hubPage, HUB_TYPES, slideshowPage } from './page-service';

// Article pages. Mounted after every fixed-path app (see apps/index.ts): the detail route is a
// pattern, and it passes on anything that is not /{type}/{yyyy}/{mm}/{slug}/.
export function articlesPages(ctx: AppContext): Router {
  const router = Router();
  const content = publicPage('content');

  // ## Best of
  router.get('/best-of/', trailingSlash, ...content, renderView((req) => bestOfPage(ctx, req)));
  router.get('/best-of/:slug/', trailingSlash, ...content, renderView((req) => bestOfListPage(ctx, String(req.params.slug))));

  // ## Hubs, one per article type
  for (const hub of HUB_TYPES) {
    router.get(`/${hub.slug}/`, trailingSlash, ...content, renderView((req) => hubPage(ctx, req, hub)));
  }

  // ## Article detail and its slideshow, at the article's stored path
  router.get(
    '/:type/:year/:month/:slug/',
    articleShaped,
    trailingSlash,
    ...content,
    renderView(async (req, res) => {
      const view = await articlePage(ctx, res.locals.articlePath);
      addSavesIsland(ctx, req, res, ['articleBookmarks']);
      return view;
    }),
  );
  router.get('/:type/:year/:month/:slug/slideshow/', articleShaped, trailingSlash, ...content, renderView((req, res) => slideshowPage(ctx, req, res.locals.articlePath)));
  return router;
}

/** Lets only /{type}/{yyyy}/{mm}/{slug}/ through, with the stored path it names in res.locals. */
function articleShaped(req: Request, res: Response, next: NextFunction): void {
  const path = articlePathFrom(req.params as { type: string; year: string; month: string; slug: string });
  if (!path) return next('route');
  res.locals.articlePath = path;
  next();
}
