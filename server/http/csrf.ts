import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { PermissionDeniedError } from './errors';

// CSRF as Django does it, because the islands and forms follow Django's contract exactly:
// a `csrftoken` cookie readable by scripts; unsafe methods must echo the same value in the
// X-CSRFToken header or the csrfmiddlewaretoken form field. (csrf-csrf and friends bind the
// token to a hash cookie the client cannot echo, so they do not fit this contract.) The cookie
// is SameSite=Lax, and the token is 32 random bytes.
// As Django's get_token() does, the cookie is set only where a token is used, so a content
// page answered to a first visit sets no cookie and a shared cache may keep it: a template
// printing `{{ csrfToken }}` (a page holding a form), the islands' member request
// (`issuePaths`), or GET /api/v2/csrf/, which scripts ask before their first unsafe call.
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
   * Each path is justified where its app declares it (http/request-rules.ts `csrfExempt`).
   */
  exemptPaths?: readonly string[];
  /**
   * GET paths whose answers always give a visitor without a token their cookie: the request
   * the islands already make before their first unsafe call (the member request).
   */
  issuePaths?: readonly string[];
}

/** Where scripts get a token before their first unsafe call when they have no cookie yet. */
export const CSRF_TOKEN_PATH = '/api/v2/csrf/';

/**
 * The visitor's token, made and sent as their cookie only when first read (Django's lazy
 * csrf_token): templates print it with `{{ csrfToken }}` (toString), server code reads it with
 * String(res.locals.csrfToken), and a JSON blob with toJSON. A page that never prints it sets
 * no cookie.
 */
class LazyCsrfToken {
  #value: string | undefined;
  constructor(
    private readonly existing: string | undefined,
    private readonly issue: () => string,
  ) {}
  get value(): string {
    this.#value ??= this.existing ?? this.issue();
    return this.#value;
  }
  toString(): string {
    return this.value;
  }
  toJSON(): string {
    return this.value;
  }
}

// Per request, not per context: the check hands the token to the multipart parser further down
// the same request, and the entry goes with the request.
const expectedInFirstField = new WeakMap<Request, string>();

/**
 * The token a multipart body must start with (its first part a csrfmiddlewaretoken field);
 * undefined when the request needs no such check (the X-CSRFToken header was already checked).
 */
export function csrfTokenExpectedInFirstField(req: Request): string | undefined {
  return expectedInFirstField.get(req);
}

/**
 * A multipart form's token check, for a route declared in `multipartFirstField`: put after
 * the route's guard and its multipart parser, before it uses the body. Nothing to do when the
 * header or a urlencoded body was checked already.
 */
export function checkFirstFieldToken(req: Request, _res: Response, next: NextFunction): void {
  const expected = csrfTokenExpectedInFirstField(req);
  if (expected === undefined) return next();
  const sent = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (typeof sent !== 'string' || !sent) return next(new PermissionDeniedError('CSRF Failed: CSRF token missing.'));
  if (!sameToken(sent, expected)) return next(new PermissionDeniedError('CSRF Failed: CSRF token incorrect.'));
  next();
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

export function csrfProtection({ secureCookie, trustedOrigins, multipartFirstFieldPaths = [], exemptPaths = [], issuePaths = [] }: CsrfOptions) {
  const firstFieldPaths = new Set(multipartFirstFieldPaths);
  const exempt = new Set(exemptPaths);
  const issueAlways = new Set([CSRF_TOKEN_PATH, ...issuePaths]);
  return function csrf(req: Request, res: Response, next: NextFunction): void {
    const sentCookie: unknown = req.cookies?.[CSRF_COOKIE];
    const existing = isCsrfToken(sentCookie) ? sentCookie : undefined;
    const lazy = new LazyCsrfToken(existing, () => {
      const token = newToken();
      // A page that reads its token after its headers went out (it should not) keeps its answer.
      if (!res.headersSent) res.cookie(CSRF_COOKIE, token, { sameSite: 'lax', secure: secureCookie, httpOnly: false, maxAge: ONE_YEAR_MS, path: '/' });
      req.cookies = { ...(req.cookies ?? {}), [CSRF_COOKIE]: token };
      return token;
    });
    res.locals.csrfToken = lazy;
    if (SAFE_METHODS.has(req.method)) {
      if (issueAlways.has(req.path)) void lazy.value;
      return next();
    }
    if (exempt.has(req.path)) return next();
    const failure = originFailure(req, trustedOrigins);
    if (failure) return next(new PermissionDeniedError(`CSRF Failed: ${failure}`));
    // A request that arrived without a cookie cannot carry a matching token.
    if (existing === undefined) return next(new PermissionDeniedError('CSRF Failed: CSRF cookie not set.'));
    const header = req.get(CSRF_HEADER);
    // CASE: a multipart form without JavaScript; its parser checks the first field (see above).
    if (header === undefined && req.body === undefined && firstFieldPaths.has(req.path) && req.is('multipart/form-data')) {
      expectedInFirstField.set(req, existing);
      return next();
    }
    const sent = header ?? (req.body && typeof req.body === 'object' ? req.body[CSRF_FIELD] : undefined);
    if (typeof sent !== 'string' || !sent) return next(new PermissionDeniedError('CSRF Failed: CSRF token missing.'));
    if (!sameToken(sent, existing)) return next(new PermissionDeniedError('CSRF Failed: CSRF token incorrect.'));
    next();
  };
}

/**
 * GET /api/v2/csrf/: the visitor's token, for a script about to make its first unsafe call
 * on a page that carried none (the footer's newsletter form, an island's sign-in). The
 * middleware has set the cookie already (issueAlways); the body repeats the value. Personal,
 * so never stored by any cache.
 */
export function csrfTokenRoute(req: Request, res: Response): void {
  res.set('Cache-Control', 'private, no-store').json({ csrftoken: String(res.locals.csrfToken) });
}
