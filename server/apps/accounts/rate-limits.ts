import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../../context';
import { RateLimitedError } from '../../http/errors';

// Limits that stop password guessing without locking out a shared network (spec: "as Django
// does it", the issue's figures). Failed logins count per email and per address; successful
// ones are taken back (skipSuccessfulRequests), so a café full of members signing in is fine.
// Counters live in each process's memory: behind N processes an attacker gets at most N
// times the budget, still far too little to guess a password.

export interface LimitRule {
  windowMs: number;
  limit: number;
}

export const RATE_LIMIT_DEFAULTS = {
  failedLoginsPerEmail: { windowMs: 15 * 60_000, limit: 10 },
  failedLoginsPerAddress: { windowMs: 15 * 60_000, limit: 100 },
  resetsPerEmail: { windowMs: 60 * 60_000, limit: 5 },
  resetsPerAddress: { windowMs: 60 * 60_000, limit: 50 },
  signupsPerAddress: { windowMs: 60 * 60_000, limit: 200 },
} satisfies Record<string, LimitRule>;

export type RateLimitRules = typeof RATE_LIMIT_DEFAULTS;

export interface AuthRateLimits {
  login: RequestHandler[];
  reset: RequestHandler[];
  signup: RequestHandler[];
}

const passThrough: RequestHandler = (_req, _res, next) => next();

function emailKey(req: Request): string {
  const email = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>).email : undefined;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 255) : '';
}

function limiter(rule: LimitRule, opts: { byEmail?: boolean; failuresOnly?: boolean }): RequestHandler {
  return rateLimit({
    windowMs: rule.windowMs,
    limit: rule.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: opts.failuresOnly ?? false,
    ...(opts.byEmail ? { keyGenerator: (req: Request) => `email:${emailKey(req)}`, skip: (req: Request) => !emailKey(req) } : {}),
    handler: (_req: Request, _res: Response, next: NextFunction) => next(new RateLimitedError()),
  });
}

export function createAuthRateLimits(enabled: boolean, rules: RateLimitRules = RATE_LIMIT_DEFAULTS): AuthRateLimits {
  if (!enabled) return { login: [passThrough], reset: [passThrough], signup: [passThrough] };
  return {
    login: [
      limiter(rules.failedLoginsPerAddress, { failuresOnly: true }),
      limiter(rules.failedLoginsPerEmail, { byEmail: true, failuresOnly: true }),
    ],
    reset: [limiter(rules.resetsPerAddress, {}), limiter(rules.resetsPerEmail, { byEmail: true })],
    signup: [limiter(rules.signupsPerAddress, {})],
  };
}

// The API and the full-page forms must draw on the same counters, or the form would be a
// way around the API's limits: one set per app context.
const perContext = new WeakMap<AppContext, AuthRateLimits>();

export function authRateLimits(ctx: AppContext): AuthRateLimits {
  let limits = perContext.get(ctx);
  if (!limits) {
    limits = createAuthRateLimits(ctx.config.rateLimits);
    perContext.set(ctx, limits);
  }
  return limits;
}
