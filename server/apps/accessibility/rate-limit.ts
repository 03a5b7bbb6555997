import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../../context';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';

/** Reports per member per hour: all eight attributes of several places, not a flood of them. */
export const ACCESSIBILITY_REPORT_RATE_LIMIT = { windowMs: 60 * 60 * 1000, limit: 40 };

// The API and the no-JS form draw on one counter per member (the store's rows are shared by
// prefix in any case), kept in the database so every process of a deployment counts together.
const perContext = new WeakMap<AppContext, RequestHandler>();

export function reportRateLimit(ctx: AppContext): RequestHandler {
  let limiter = perContext.get(ctx);
  if (!limiter) {
    limiter = ctx.config.rateLimits
      ? rateLimit({
          ...ACCESSIBILITY_REPORT_RATE_LIMIT,
          store: new DatabaseRateLimitStore(ctx.db, 'accessibility-report:'),
          keyGenerator: (req: Request) => `member:${req.user?.id ?? 0}`,
          // Guests are turned away before this runs; a database error lets the report through (logged).
          skip: (req: Request) => !req.user,
          passOnStoreError: true,
          standardHeaders: 'draft-8',
          legacyHeaders: false,
          handler: (_req, _res, next) => next(new RateLimitedError()),
        })
      : (_req, _res, next) => next();
    perContext.set(ctx, limiter);
  }
  return limiter;
}
