import type { Request, Response } from 'express';

// HTTP caching for HTML pages, in one place so every app answers the same way. A page view
// names its policy (page-view.ts); this writes the headers when the view is rendered.
//
//   'shared-for-guests'  a page whose HTML is the same for every guest (no CSRF token, no
//              per-visitor text): `public, max-age=60`, so a CDN or nginx may share it for a
//              minute, and Express's strong ETag lets any client revalidate with a 304.
//   'private'  a page that embeds the visitor's CSRF token (or a captcha) in its HTML: the
//              body differs per visitor, so `private, no-cache` — the browser keeps it and
//              revalidates (its own token is stable, so its ETag still matches and a repeat
//              visit is a 304), but no shared cache may hand one visitor's token to another.
//   members    any page seen by a signed-in member shows their name in the navbar, so it is
//              `private, no-store` whatever the policy.
//
// Every page says `Vary: Cookie`: the same URL differs between guests and members (session
// cookie) and behind the age gate (is_user_over_18). The first response to a new guest sets
// the csrftoken cookie; a shared cache must never store a Set-Cookie, so that one response is
// `private` too (the body is still the same as everyone else's).

export type CachePolicy = 'shared-for-guests' | 'private';

export const CACHE_CONTROL = {
  sharedForGuests: 'public, max-age=60',
  sharedSettingCookie: 'private, max-age=60',
  private: 'private, no-cache',
  member: 'private, no-store',
} as const;

/** Sets Cache-Control and Vary for an HTML page; called just before it is rendered. */
export function setCachePolicy(req: Request, res: Response, policy: CachePolicy): void {
  res.vary('Cookie');
  if (req.user) {
    res.set('Cache-Control', CACHE_CONTROL.member);
  } else if (policy === 'private') {
    res.set('Cache-Control', CACHE_CONTROL.private);
  } else {
    res.set('Cache-Control', res.getHeader('Set-Cookie') ? CACHE_CONTROL.sharedSettingCookie : CACHE_CONTROL.sharedForGuests);
    // The body is the same for every guest, first visit or not: the guest page cache
    // (server/http/guest-response-cache.ts) may keep it under this shared Cache-Control.
    res.locals.sharedCacheControl = CACHE_CONTROL.sharedForGuests;
  }
}
