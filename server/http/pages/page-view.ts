import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pageCache, type PageCacheKind } from './cache-headers';

/**
 * What every public HTML page route starts with: the cache headers of its kind (see cache-headers.ts). `router.get('/news/', ...publicPage('content'), handler)`.
 */
export function publicPage(kind: PageCacheKind): RequestHandler[] {
  return [pageCache(kind)];
}

export interface PageView {
  template: string;
  [local: string]: unknown;
}

/**
 * Adapts a page function `(req, res) => Promise<{template, ...locals}>` into a route handler,
 * so routers stay one line per page and the page functions stay testable without Express.
 */
export function renderView(view: (req: Request, res: Response) => Promise<PageView> | PageView): RequestHandler {
  return async function renderPageView(req, res) {
    const { template, ...locals } = await view(req, res);
    res.render(template, locals);
  };
}

/** Pages live at paths ending in '/': the path without it answers a 301 to the canonical one. */
export function trailingSlash(req: Request, res: Response, next: NextFunction): void {
  if (req.path.endsWith('/')) return next();
  const query = req.originalUrl.slice(req.originalUrl.indexOf('?') === -1 ? req.originalUrl.length : req.originalUrl.indexOf('?'));
  res.redirect(301, `${req.path}/${query}`);
}
