import type { NextFunction, Request, Response } from 'express';

// HTTP caching for the public read APIs (lists, search, one listing), in one place.
//
// A guest's answer is the same for every guest (no user_rating, nothing per visitor), so it
// is `public, max-age=10`: a CDN or nginx may share it, and the guest response cache
// (guest-response-cache.ts) keeps it in the process for the same few seconds. A member's
// answer carries their own ratings: `private, no-cache` (the browser revalidates with the
// ETag). `Vary: Cookie` tells shared caches the two apart. A read API issues no csrftoken
// (csrf.ts sets it only where a token is used), so a first visit's answer is shared too; an
// answer that sets a cookie all the same is `private` (its body is everyone's).

export const API_CACHE_CONTROL = {
  guest: 'public, max-age=10',
  guestSettingCookie: 'private, max-age=10',
  member: 'private, no-cache',
} as const;

/** Route middleware for a read API whose answer depends only on the URL for every guest. */
export function sharedWithGuests(req: Request, res: Response, next: NextFunction): void {
  res.vary('Cookie');
  // A member's answer too is mostly the guest's bytes: its compressed copy is shared (compressed-answers.ts).
  res.locals.commonAnswer = true;
  if (req.user) {
    res.set('Cache-Control', API_CACHE_CONTROL.member);
  } else {
    res.set('Cache-Control', res.getHeader('Set-Cookie') ? API_CACHE_CONTROL.guestSettingCookie : API_CACHE_CONTROL.guest);
    res.locals.sharedCacheControl = API_CACHE_CONTROL.guest;
  }
  next();
}
