import { Router, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../../context';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';
import { page } from '../../http/pages/page-view';
import { captchaSecret, createCaptcha } from './captcha';
import { contactFormPage, submitContactForm } from './page-service';

/** Messages per address per hour: plenty for people, little for a spam script. */
export const CONTACT_RATE_LIMIT = { windowMs: 60 * 60 * 1000, limit: 10 };

function contactRateLimit(ctx: AppContext): RequestHandler {
  if (!ctx.config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    ...CONTACT_RATE_LIMIT,
    store: new DatabaseRateLimitStore(ctx.db, 'contact-address:'),
    // A database error lets the message through (logged) rather than answering a 500.
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError()),
  });
}

export function contactPages(ctx: AppContext): Router {
  const router = Router();

  // ## Contact us
  router.get('/contact/', page('private', (req) => contactFormPage(ctx, req)));
  router.post('/contact/', contactRateLimit(ctx), page('private', (req, res) => submitContactForm(ctx, req, res)));
  // A fresh captcha for the island: {image, key} as spec 2 §3 names them.
  router.get('/contact/captcha/', (_req, res) => {
    const { image, key, alt } = createCaptcha(captchaSecret(ctx.config.sessionSecret), ctx.now());
    res.set('Cache-Control', 'no-store').json({ image, key, alt });
  });
  return router;
}
