import type { CookieOptions, NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../context';
import { SIGNED_IN_COOKIE } from '../../../shared/constants';
import { SESSION_IDLE_MS } from './session';

// Pages are the same for guests and members (so the page cache serves both): the islands learn
// who is signed in from GET /api/v2/profiles/hi/. This cookie tells them whether to ask, so a
// guest's page load costs no such request. It holds no secret (the session is the httpOnly
// session cookie) and only says "ask": a stale one costs one 401, which the islands handle.
// It lives as long as the session's idle window and is renewed with it on every answer.

function options(req: Request): CookieOptions {
  // Secure as the session cookie is (sessionMiddleware): in production.
  const secure = Boolean((req.app.locals.ctx as AppContext | undefined)?.config.isProduction);
  return { httpOnly: false, sameSite: 'lax', secure, path: '/' };
}

/** Sets (or clears) the cookie on this answer, replacing what an earlier step said about it. */
export function writeSignedInCookie(req: Request, res: Response, signedIn: boolean): void {
  const header = res.getHeader('Set-Cookie');
  const others = (header === undefined ? [] : Array.isArray(header) ? header : [String(header)]).filter((c) => !c.startsWith(`${SIGNED_IN_COOKIE}=`));
  if (others.length) res.setHeader('Set-Cookie', others);
  else res.removeHeader('Set-Cookie');
  if (signedIn) res.cookie(SIGNED_IN_COOKIE, '1', { ...options(req), maxAge: SESSION_IDLE_MS });
  else res.clearCookie(SIGNED_IN_COOKIE, options(req));
}

/** Session-stage middleware (after Passport): renews the cookie for a member, drops a stale one. */
export function signedInCookie(): RequestHandler {
  return function signedInHint(req: Request, res: Response, next: NextFunction): void {
    if (req.user) writeSignedInCookie(req, res, true);
    else if (req.cookies?.[SIGNED_IN_COOKIE] !== undefined) writeSignedInCookie(req, res, false);
    next();
  };
}
