import type { Request, Response } from 'express';
import { removeSurrogateKeys } from '../surrogate-keys';

// HTTP caching for HTML pages, in one place so every app answers the same way. A page view
// names its policy (page-view.ts); this writes the headers when the view is rendered.
//
//   'shared-for-guests'  a page whose HTML is the same for everybody, guests and members alike
//              (no CSRF token, no per-visitor text: the member's name, saved states and ratings
//              arrive through the islands from GET /api/v2/profiles/hi/ and the saved-id
//              APIs). `public, max-age=60`, so a CDN or nginx may share it for a minute, and
//              Express's strong ETag lets any client revalidate with a 304. The page cache
//              (server/http/guest-response-cache.ts) keeps it for members and guests alike.
//              (The name is older than members sharing it; it is kept so that every router
//              needs no change.)
//   'private'  a page that embeds the visitor's CSRF token (or a captcha, or the member's own
//              details) in its HTML: the body differs per visitor, so `private, no-cache` —
//              the browser keeps it and revalidates (its own token is stable, so its ETag
//              still matches and a repeat visit is a 304), but no shared cache may hand one
//              visitor's token to another. A member's is `private, no-store`: a form page may
//              show their own name or address, which must not outlive their session.
//
// Every page says `Vary: Cookie`: behind the age gate (is_user_over_18) the same URL differs.
// A shared page sets no cookie on a first visit: it prints no token, and csrf.ts issues one
// only where it is used (a 'private' page's form), so a CDN may keep the cookieless answer.
// An answer that does set a cookie (a form page's new csrftoken, a member's rolling session)
// is never `public`, whoever set it: set-cookie-private.ts turns it private as it is sent.

export type CachePolicy = 'shared-for-guests' | 'private';

export const CACHE_CONTROL = {
  /** Sent `private, max-age=60` on an answer that sets a cookie (set-cookie-private.ts). */
  shared: 'public, max-age=60',
  private: 'private, no-cache',
  memberPrivate: 'private, no-store',
} as const;

/** Sets Cache-Control and Vary for an HTML page; called just before it is rendered. */
export function setCachePolicy(req: Request, res: Response, policy: CachePolicy): void {
  res.vary('Cookie');
  if (policy === 'private') {
    res.set('Cache-Control', req.user ? CACHE_CONTROL.memberPrivate : CACHE_CONTROL.private);
    removeSurrogateKeys(res); // no shared cache keeps it (surrogate-keys.ts)
    return;
  }
  res.set('Cache-Control', CACHE_CONTROL.shared);
  // The body is the same for everybody, first visit or not, member or not: the page cache
  // may keep it under this shared Cache-Control and serve it to members too.
  res.locals.sharedCacheControl = CACHE_CONTROL.shared;
  res.locals.sameForMembers = true;
}
