import type { NextFunction, Request, Response } from 'express';

// HTTP caching for HTML pages, in one place so every app answers the same way.
//
//   'content'  a page whose HTML is the same for every guest (no CSRF token, no per-visitor
//              text): `public, max-age=60`, so a CDN or nginx may share it for a minute, and
//              Express's strong ETag lets any client revalidate with a 304.
//   'form'     a page that embeds the visitor's CSRF token (or a captcha) in its HTML: the
//              body differs per visitor, so `private, no-cache` — the browser keeps it and
//              revalidates (its own token is stable, so its ETag still matches and a repeat
//              visit is a 304), but no shared cache may hand one visitor's token to another.
//   members    any page seen by a signed-in member shows their name in the navbar, so it is
//              `private, no-store` whatever the kind.
//
// Every page says `Vary: Cookie`: the same URL differs between guests and members (session
// cookie) and behind the age gate (is_user_over_18). The first response to a new guest sets
// the csrftoken cookie; a shared cache must never store a Set-Cookie, so that one response is
// `private` too (the body is still the same as everyone else's).

export type PageCacheKind = 'content' | 'form';

export const CACHE_CONTROL = {
  content: 'public, max-age=60',
  contentSettingCookie: 'private, max-age=60',
  form: 'private, no-cache',
  member: 'private, no-store',
} as const;

/** Sets Cache-Control and Vary for an HTML page; call before res.render. */
export function setPageCache(req: Request, res: Response, kind: PageCacheKind): void {
  res.vary('Cookie');
  if (req.user) {
    res.set('Cache-Control', CACHE_CONTROL.member);
  } else if (kind === 'form') {
    res.set('Cache-Control', CACHE_CONTROL.form);
  } else {
    res.set('Cache-Control', res.getHeader('Set-Cookie') ? CACHE_CONTROL.contentSettingCookie : CACHE_CONTROL.content);
    // The body is the same for every guest, first visit or not: the guest page cache
    // (server/http/guest-response-cache.ts) may keep it under this shared Cache-Control.
    res.locals.sharedCacheControl = CACHE_CONTROL.content;
  }
}

/** The same as a route middleware: `router.get('/news/', pageCache('content'), handler)`. */
export function pageCache(kind: PageCacheKind) {
  return function pageCacheHeaders(req: Request, res: Response, next: NextFunction): void {
    setPageCache(req, res, kind);
    next();
  };
}
