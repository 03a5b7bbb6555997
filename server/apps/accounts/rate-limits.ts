import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Db } from '../../db';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';
import { submittedEmail } from './schemas';

// Limits that stop password guessing without locking out a shared network (spec: "as Django
// does it", the issue's figures). Failed logins count per email and per address; successful
// ones are taken back (skipSuccessfulRequests), so a café full of members signing in is fine.
// The email counted is the one the handler reads (schemas.ts submittedEmail), wherever the
// request puts it. Counters live in the database (DatabaseRateLimitStore), so every process
// of a deployment draws on the same budget.

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

function limiter(db: Db, prefix: string, rule: LimitRule, opts: { byEmail?: boolean; failuresOnly?: boolean }): RequestHandler {
  return rateLimit({
    windowMs: rule.windowMs,
    limit: rule.limit,
    store: new DatabaseRateLimitStore(db, prefix),
    // A database error lets the request through (logged) rather than failing every login with a 500.
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skipSuccessfulRequests: opts.failuresOnly ?? false,
    ...(opts.byEmail ? { keyGenerator: (req: Request) => `email:${submittedEmail(req)}`, skip: (req: Request) => !submittedEmail(req) } : {}),
    handler: (_req: Request, _res: Response, next: NextFunction) => next(new RateLimitedError()),
  });
}

export function createAuthRateLimits(enabled: boolean, db: Db, rules: RateLimitRules = RATE_LIMIT_DEFAULTS): AuthRateLimits {
  if (!enabled) return { login: [passThrough], reset: [passThrough], signup: [passThrough] };
  return {
    login: [
      limiter(db, 'login-address:', rules.failedLoginsPerAddress, { failuresOnly: true }),
      limiter(db, 'login-email:', rules.failedLoginsPerEmail, { byEmail: true, failuresOnly: true }),
    ],
    reset: [limiter(db, 'reset-address:', rules.resetsPerAddress, {}), limiter(db, 'reset-email:', rules.resetsPerEmail, { byEmail: true })],
    signup: [limiter(db, 'signup-address:', rules.signupsPerAddress, {})],
  };
}
