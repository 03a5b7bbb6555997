import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../context';
import { PageRedirect } from './page-view';

// Each page has one URL: the site's absolute form for <link rel="canonical">, permanent
// redirects from the other spellings (no trailing slash, an old or hand-typed slug).

/** The query string of the current request, with a leading '?', or ''. */
export function queryString(req: Request): string {
  const i = req.originalUrl.indexOf('?');
  return i === -1 ? '' : req.originalUrl.slice(i);
}

/** CASE: the slug in the URL is not the current one (renamed, or typed by hand): 301 to it. */
export function canonicalRedirect(req: Request, path: string): PageRedirect | null {
  return req.path === path ? null : new PageRedirect(path + queryString(req), 301);
}

export function absolute(ctx: AppContext, path: string): string {
  return ctx.config.site.url + path;
}

/** Pages live at paths ending in '/': the path without it answers a 301 to the canonical one. */
export function trailingSlash(req: Request, res: Response, next: NextFunction): void {
  if (req.path.endsWith('/')) return next();
  res.redirect(301, `${req.path}/${queryString(req)}`);
}
