import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Db } from '../../db';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';

/** Reports per member per hour: all eight attributes of several places, not a flood of them. */
export const ACCESSIBILITY_REPORT_RATE_LIMIT = { windowMs: 60 * 60 * 1000, limit: 40 };

// One counter per member, kept in the database so every process of a deployment counts
// together. The service builds one limiter for the API and the no-JS form (service.ts).
export function createReportRateLimit(enabled: boolean, db: Db): RequestHandler {
  if (!enabled) return (_req, _res, next) => next();
  return rateLimit({
    ...ACCESSIBILITY_REPORT_RATE_LIMIT,
    store: new DatabaseRateLimitStore(db, 'accessibility-report:'),
    keyGenerator: (req: Request) => `member:${req.user?.id ?? 0}`,
    // Guests are turned away before this runs; a database error lets the report through (logged).
    skip: (req: Request) => !req.user,
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError()),
  });
}
