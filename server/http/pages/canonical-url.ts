import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { FeatureFlag } from '../../../shared/constants';
import { ValidationError } from '../../http/errors';
import { setPageCache } from '../site-pages/cache-headers';

// Small pieces every places/events/contests/videos page shares: the feature-flag gate, the
// ?page= reader, permanent redirects to canonical paths, and anonymous-page caching.

/**
 * Skips the whole router when a section is off: its paths then fall through to the 404 page
 * (and pattern paths such as /{type}/ stay free for other apps).
 */
export function whenFlag(ctx: AppContext, flag: FeatureFlag) {
  return (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags[flag] ? undefined : 'route');
}

/** ?page= as a 1-based page number; anything but a positive whole number is a 400 naming it. */
export function pageNumber(req: Request, param = 'page'): number {
  const raw = (req.query as Record<string, unknown>)[param];
  if (raw === undefined || raw === '') return 1;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw) || Number(raw) < 1) {
    throw new ValidationError({ [param]: ['A valid page number is required.'] });
  }
  return Number(raw);
}

/** ?offset= as a whole number of 0 or more (the load-more links). */
export function offsetParam(req: Request, max = 100_000): number {
  const raw = (req.query as Record<string, unknown>).offset;
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) > max) {
    throw new ValidationError({ offset: ['A valid integer is required.'] });
  }
  return Number(raw);
}

/** The query string of the current request, with a leading '?', or ''. */
export function queryString(req: Request): string {
  const i = req.originalUrl.indexOf('?');
  return i === -1 ? '' : req.originalUrl.slice(i);
}

/** CASE: the slug in the URL is not the current one (renamed, or typed by hand): 301 to it. */
export function redirectToCanonical(req: Request, res: Response, path: string): boolean {
  if (req.path === path) return false;
  res.redirect(301, path + queryString(req));
  return true;
}

export function absolute(ctx: AppContext, path: string): string {
  return ctx.config.site.url + path;
}

/**
 * Cache headers of a content page (the same HTML for every guest): the site-wide policy of
 * site-pages/cache-headers.ts, so places pages cache exactly as the editorial ones do.
 */
export function cacheForAnonymous(req: Request, res: Response): void {
  setPageCache(req, res, 'content');
}

/** An http(s) URL to print as a link, or null: a stored `javascript:` URL never becomes an href. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}
