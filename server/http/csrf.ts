import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { PermissionDeniedError } from './errors';

// CSRF as Django does it, because the islands and forms follow Django's contract exactly:
// a `csrftoken` cookie readable by scripts, set on any request that lacks it; unsafe methods
// must echo the same value in the X-CSRFToken header or the csrfmiddlewaretoken form field.
// (csrf-csrf and friends bind the token to a hash cookie the client cannot echo, so they do
// not fit this contract.) The cookie is SameSite=Lax, and the token is 32 random bytes.
// As Django does, an unsafe request must also come from a trusted origin: its Origin header,
// when sent, must be SITE_URL's origin or a trusted one; over HTTPS, a request without Origin
// must carry a Referer from such an origin. Plain-HTTP requests without Origin (supertest,
// curl, old browsers) are judged on the token alone.

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
export const CSRF_FIELD = 'csrfmiddlewaretoken';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function sameToken(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

export interface CsrfOptions {
  secureCookie: boolean;
  /** SITE_URL's origin and CSRF_TRUSTED_ORIGINS: `scheme://host[:port]` or `https://*.domain`. */
  trustedOrigins: string[];
  /**
   * Paths whose multipart forms may carry the token as their first field instead of the
   * header (a form posted without JavaScript). The body is not read here: the route's own
   * streaming parser checks that first field, after the session, before reading any further,
   * and gets the token to expect from `csrfTokenExpectedInFirstField`.
   */
  multipartFirstFieldPaths?: readonly string[];
  /**
   * Exact paths whose unsafe requests are not checked at all (Django's @csrf_exempt). Only for
   * a route that no cookie or session authorises, whose URL itself carries the authority (an
   * unguessable signed token), and that other sites' servers must be able to POST to: the
   * RFC 8058 one-click unsubscribe, which mail providers send with no cookie, token or Origin.
   * Each path is justified where it is listed (app.ts).
   */
  exemptPaths?: readonly string[];
}

const expectedInFirstField = new WeakMap<Request, string>();

/**
 * The token a multipart body must start with (its first part a csrfmiddlewaretoken field);
 * undefined when the request needs no such check (the X-CSRFToken header was already checked).
 */
export function csrfTokenExpectedInFirstField(req: Request): string | undefined {
  return expectedInFirstField.get(req);
}

/** Whether an origin (`scheme://host[:port]`, as browsers send it) is one of the trusted ones. */
export function originTrusted(origin: string, trusted: string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything else unparseable
  }
  if (url.origin === 'null') return false;
  return trusted.some((pattern) => {
    const wildcard = /^([a-z]+:)\/\/\*\.(.+)$/i.exec(pattern);
    if (!wildcard) return url.origin === pattern.toLowerCase();
    // Django's `https://*.example.com`: example.com itself and any subdomain, same scheme and port.
    const [, scheme, domain] = wildcard;
    return url.protocol === scheme.toLowerCase() && (url.host === domain.toLowerCase() || url.host.endsWith(`.${domain.toLowerCase()}`));
  });
}

/** Why an unsafe request is not from a trusted origin (Django's words), or null when it is. */
function originFailure(req: Request, trusted: string[]): string | null {
  const origin = req.get('origin');
  if (origin !== undefined) {
    return originTrusted(origin, trusted) ? null : `Origin checking failed - ${origin} does not match any trusted origins.`;
  }
  // Over HTTPS a man in the middle cannot forge the Referer, so it must name a trusted page.
  if (!req.secure) return null;
  const referer = req.get('referer');
  if (!referer) return 'Referer checking failed - no Referer.';
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return 'Referer checking failed - Referer is malformed.';
  }
  if (url.protocol !== 'https:') return 'Referer checking failed - Referer is insecure while host is secure.';
  return originTrusted(url.origin, trusted) ? null : `Referer checking failed - ${referer} does not match any trusted origins.`;
}

/** A csrftoken cookie this middleware keeps (any other is replaced with a new one). */
export function isCsrfToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{32,64}$/.test(token);
}

export function csrfProtection({ secureCookie, trustedOrigins, multipartFirstFieldPaths = [], exemptPaths = [] }: CsrfOptions) {
  const firstFieldPaths = new Set(multipartFirstFieldPaths);
  const exempt = new Set(exemptPaths);
  return function csrf(req: Request, res: Response, next: NextFunction): void {
    let token: string | undefined = req.cookies?.[CSRF_COOKIE];
    let cookieWasSet = true;
    if (!isCsrfToken(token)) {
      token = newToken();
      cookieWasSet = false;
      res.cookie(CSRF_COOKIE, token, { sameSite: 'lax', secure: secureCookie, httpOnly: false, maxAge: ONE_YEAR_MS, path: '/' });
      req.cookies = { ...(req.cookies ?? {}), [CSRF_COOKIE]: token };
    }
    res.locals.csrfToken = token;
    if (SAFE_METHODS.has(req.method)) return next();
    if (exempt.has(req.path)) return next();
    const failure = originFailure(req, trustedOrigins);
    if (failure) return next(new PermissionDeniedError(`CSRF Failed: ${failure}`));
    // A request that arrived without a cookie cannot carry a matching token.
    if (!cookieWasSet) return next(new PermissionDeniedError('CSRF Failed: CSRF cookie not set.'));
    const header = req.get(CSRF_HEADER);
    // CASE: a multipart form without JavaScript; its parser checks the first field (see above).
    if (header === undefined && req.body === undefined && firstFieldPaths.has(req.path) && req.is('multipart/form-data')) {
      expectedInFirstField.set(req, token);
      return next();
    }
    const sent = header ?? (req.body && typeof req.body === 'object' ? req.body[CSRF_FIELD] : undefined);
    if (typeof sent !== 'string' || !sent) return next(new PermissionDeniedError('CSRF Failed: CSRF token missing.'));
    if (!sameToken(sent, token)) return next(new PermissionDeniedError('CSRF Failed: CSRF token incorrect.'));
    next();
  };
}
