import { Router, type Request, type RequestHandler, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { RateLimitedError } from '../../http/errors';
import { validate } from '../../http/validate';
import type { GeocoderService } from './service';

// ## Geocoder: GET /api/v2/geocode/?q= — an address, station, neighbourhood or place typed as
// a reader types it, answered from our own data (service.ts), public and cacheable like the
// other read APIs.

export const MAX_Q_LENGTH = 200;

/** Look-ups per address per minute: a type-ahead sends one a keystroke, a scraper thousands. */
export const GEOCODE_RATE_LIMIT = { windowMs: 60_000, limit: 300 };

// A NUL anywhere in q is refused before this (http/null-characters.ts) with a 400 naming q.
export const geocodeQuerySchema = z.object({
  q: z
    .string({ message: 'Not a valid string.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(MAX_Q_LENGTH, `Ensure this field has no more than ${MAX_Q_LENGTH} characters.`),
});

// Counted in this process's memory, not in the rate_limits table as sign-in is: a look-up
// costs no query, and a database write per keystroke would cost more than the look-up. With
// N processes a client gets N times the budget, which is fine for a cheap public read whose
// limit guards CPU, not a secret.
function geocodeRateLimit(ctx: AppContext): RequestHandler {
  if (!ctx.config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    ...GEOCODE_RATE_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError()),
  });
}

export function geocoderApi(ctx: AppContext, geocoder: GeocoderService): Router {
  const router = Router();
  router.get('/api/v2/geocode/', geocodeRateLimit(ctx), sharedWithGuests, async (req: Request, res: Response) => {
    const { q } = validate(geocodeQuerySchema, { q: req.query.q });
    res.json({ results: await geocoder.geocode(q) });
  });
  return router;
}
