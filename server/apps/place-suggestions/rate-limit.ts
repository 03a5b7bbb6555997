import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Db } from '../../db';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';
import { SUGGESTIONS_PER_DAY } from '../../../shared/place-suggestions';

// Suggestions a day: SUGGESTIONS_PER_DAY per member, or per address for guests. The counters
// live in the rate_limits table (every process counts together). A guest's address is never
// kept as such: it is a keyed hash (IPv6 by its /56, as express-rate-limit groups it), the
// same one the suggestion row keeps to count "closed" reports by address.

export const SUGGESTION_RATE_LIMIT = { windowMs: 24 * 60 * 60 * 1000, limit: SUGGESTIONS_PER_DAY };

/** The keyed hash of a request's address (64 hex characters). */
export function addressKeyOf(secret: string, req: Request): string {
  return crypto.createHmac('sha256', secret).update(`place-suggestion-address:${ipKeyGenerator(req.ip ?? '')}`).digest('hex');
}

export function createSuggestionRateLimit(enabled: boolean, db: Db, secret: string): RequestHandler {
  if (!enabled) return (_req, _res, next) => next();
  return rateLimit({
    ...SUGGESTION_RATE_LIMIT,
    store: new DatabaseRateLimitStore(db, 'place-suggestion:'),
    keyGenerator: (req: Request) => (req.user ? `member:${req.user.id}` : `address:${addressKeyOf(secret, req)}`),
    // A refused form (400: a typo, a wrong captcha) is not a suggestion made.
    skipFailedRequests: true,
    // A database error lets the suggestion through (logged) rather than answering a 500.
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError('You have sent as many suggestions as we take in a day. Thank you: please try again tomorrow.')),
  });
}
