import type { Request } from 'express';
import type { AppContext } from '../context';

// Absolute URLs and cache keys come from the configured SITE_URL and the request's path,
// never from Host, X-Forwarded-Host or an absolute-form request line, which anyone can set.

const PLACEHOLDER_ORIGIN = 'http://request.invalid';

/** The path and query the request asked for, whatever host its request line or headers named. */
export function requestPathAndQuery(req: { url?: string; originalUrl?: string }): string {
  // originalUrl is Express's; before Express (cache-hit-fast-path.ts) the request's own url is it.
  const url = new URL(req.originalUrl ?? req.url ?? '/', PLACEHOLDER_ORIGIN);
  return url.pathname + url.search;
}

/** The request's URL on this site, as SITE_URL names it. */
export function siteUrlOf(req: Request): URL {
  const siteUrl = (req.app.locals.ctx as AppContext).config.site.url;
  return new URL(siteUrl + requestPathAndQuery(req));
}
