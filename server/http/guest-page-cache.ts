import type { NextFunction, Request, Response } from 'express';
import { CSRF_COOKIE } from './csrf';

// A micro-cache of rendered guest pages, as nginx's proxy_cache would keep them, inside each
// process. Only what a page declares the same for every guest is kept: a 200 HTML page whose
// handler set res.locals.sharedCacheControl (apps/site-pages/cache-headers.ts does it for
// guest content pages), rendered for a visitor with no cookie but csrftoken, and served to
// such visitors. Any other cookie (a session, the age gate's answer) bypasses the cache
// entirely, so nobody is ever served a page rendered for someone else. Entries live a few
// seconds, well inside the minute that `public, max-age=60` already allows any cache.

interface Entry {
  body: string;
  contentType: string;
  cacheControl: string;
  vary: string | undefined;
  expires: number;
}

export interface GuestPageCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** A guest: no cookie at all (a first visit) or only the csrftoken of an earlier one. */
function isPlainGuest(req: Request): boolean {
  const header = req.headers.cookie;
  if (!header) return true;
  const names = header.split(';').map((part) => part.split('=')[0].trim()).filter(Boolean);
  return names.length === 0 || (names.length === 1 && names[0] === CSRF_COOKIE);
}

/** A first visit's answer sets the csrftoken cookie, which says nothing about the page. */
function setsNoCookieButCsrf(res: Response): boolean {
  const header = res.getHeader('Set-Cookie');
  const cookies = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return cookies.every((c) => c.startsWith(`${CSRF_COOKIE}=`));
}

export function guestPageCache(opts: GuestPageCacheOptions = {}) {
  const ttl = opts.ttlMs ?? 10_000;
  const maxEntries = opts.maxEntries ?? 500;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return function guestPageCacheMiddleware(req: Request, res: Response, next: NextFunction): void {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/') || !isPlainGuest(req)) return next();
    const key = `${req.hostname}\u0000${req.originalUrl}`;
    const hit = entries.get(key);
    if (hit && hit.expires > now()) {
      // A first visit gets the same page, but its answer also sets the csrftoken cookie (the
      // CSRF middleware ran before this one), so no shared cache may keep that answer.
      const cacheControl = res.get('Set-Cookie') ? hit.cacheControl.replace(/^public/, 'private') : hit.cacheControl;
      res.set({ 'Content-Type': hit.contentType, 'Cache-Control': cacheControl, 'X-Page-Cache': 'hit' });
      if (hit.vary) res.set('Vary', hit.vary);
      res.send(hit.body); // Express adds the ETag and answers 304 when it matches
      return;
    }
    if (hit) entries.delete(key);
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const shared: unknown = res.locals.sharedCacheControl;
      // res.render() hands res.send() a string before any Content-Type is set: that is HTML.
      const contentType = String(res.get('Content-Type') ?? '') || 'text/html; charset=utf-8';
      if (res.statusCode === 200 && typeof body === 'string' && typeof shared === 'string' && contentType.startsWith('text/html') && setsNoCookieButCsrf(res)) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string); // oldest first
        entries.set(key, { body, contentType, cacheControl: shared, vary: res.get('Vary') as string | undefined, expires: now() + ttl });
      }
      return send(body);
    };
    next();
  };
}
