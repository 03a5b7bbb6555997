import type { NextFunction, Request, Response } from 'express';
import { CSRF_COOKIE } from './csrf';

// A micro-cache of rendered guest pages, as nginx's proxy_cache would keep them, inside each
// process. Only what a page already declares shareable is kept: a 200 HTML response with
// `Cache-Control: public` (content pages; see apps/site-pages/cache-headers.ts), rendered for
// a visitor whose only cookie is csrftoken, and served to such visitors and to first visits.
// Guest content pages are identical for every guest (no token in them), and any other cookie
// (a session, the age gate's answer) bypasses the cache entirely, so nobody is ever served a
// page rendered for someone else. Entries live a
// few seconds, well inside the minute that `public, max-age=60` already allows any cache.

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

export function guestPageCache(opts: GuestPageCacheOptions = {}) {
  const ttl = opts.ttlMs ?? 10_000;
  const maxEntries = opts.maxEntries ?? 500;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const middleware = function guestPageCacheMiddleware(req: Request, res: Response, next: NextFunction): void {
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
      // A page says it is the same for every guest either with `Cache-Control: public` or, on
      // a first visit (whose answer sets a cookie, so is private), with res.locals.sharedCacheControl.
      const declared = String(res.get('Cache-Control') ?? '');
      const shared: unknown = res.locals.sharedCacheControl;
      const cacheControl = declared.startsWith('public') && !res.get('Set-Cookie') ? declared : typeof shared === 'string' ? shared : '';
      // res.render() hands res.send() a string before any Content-Type is set: that is HTML.
      const contentType = String(res.get('Content-Type') ?? '') || 'text/html; charset=utf-8';
      if (res.statusCode === 200 && typeof body === 'string' && cacheControl.startsWith('public') && contentType.startsWith('text/html')) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string); // oldest first
        entries.set(key, { body, contentType, cacheControl, vary: res.get('Vary') as string | undefined, expires: now() + ttl });
      }
      return send(body);
    };
    next();
  };
  return Object.assign(middleware, { clear: () => entries.clear(), size: () => entries.size });
}
