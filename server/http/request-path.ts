import type { Request } from 'express';
import type { AppContext } from '../context';

// Absolute URLs and cache keys come from the configured SITE_URL and the request's path,
// never from Host, X-Forwarded-Host or an absolute-form request line, which anyone can set.

const PLACEHOLDER_ORIGIN = 'http://request.invalid';

/**
 * The path and query the request asked for, whatever host its request line or headers named.
 * Never throws: a target that is not a URL at all (`http://` alone) comes back as it is, a
 * path no route has.
 */
export function requestPathAndQuery(req: { url?: string; originalUrl?: string }): string {
  // originalUrl is Express's; before Express (cache-hit-fast-path.ts) the request's own url is it.
  const target = req.originalUrl ?? req.url ?? '/';
  // A path is read as a path: resolved against a base, `//x/y` would name host x (and `//`
  // throws), but the request asked for the path `//x/y`.
  if (target.startsWith('/')) return pathAndQuery(new URL(PLACEHOLDER_ORIGIN + target));
  try {
    return pathAndQuery(new URL(target, PLACEHOLDER_ORIGIN));
  } catch {
    return target;
  }
}

const pathAndQuery = (url: URL) => url.pathname + url.search;

/** The request's URL on this site, as SITE_URL names it. */
export function siteUrlOf(req: Request): URL {
  const siteUrl = (req.app.locals.ctx as AppContext).config.site.url;
  return new URL(siteUrl + requestPathAndQuery(req));
}
