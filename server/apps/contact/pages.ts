import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { type FieldErrors, RateLimitedError } from '../../http/errors';
import { LIMITS } from '../../../shared/constants';
import { PageRedirect, type PageView, page } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { captchaSecret, createCaptcha } from './captcha';
import { z } from 'zod';
import { CONTACT_CATEGORIES, CONTACT_MESSAGES, PHONE_PATTERN } from './schemas';
import type { ContactService } from './service';
import { Router, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';

type Values = Record<string, string>;

/**
 * What the page's script checks before the form is sent (static/js/contact-form.js), in the
 * server's own words and patterns; lengths and required fields are the inputs' attributes.
 */
const CLIENT_RULES = {
  messages: { required: CONTACT_MESSAGES.required, tooLong: CONTACT_MESSAGES.tooLong, emailInvalid: CONTACT_MESSAGES.emailInvalid, phoneInvalid: CONTACT_MESSAGES.phoneInvalid, emailMismatch: CONTACT_MESSAGES.emailMismatch },
  emailPattern: z.regexes.email.source,
  phonePattern: PHONE_PATTERN,
};

function formView(ctx: AppContext, values: Values, errors: FieldErrors = {}, extra: Record<string, unknown> = {}): PageView {
  const category = CONTACT_CATEGORIES.some((c) => c.value === values.question_category) ? values.question_category : 'general';
  return {
    template: 'contact/index.njk',
    categories: CONTACT_CATEGORIES.map((c) => ({ id: c.value, value: c.value, text: c.text, selected: c.value === category })),
    category,
    values,
    errors,
    captcha: createCaptcha(captchaSecret(ctx.config.sessionSecret), ctx.now()),
    commentMax: LIMITS.contactCommentMax,
    clientRules: CLIENT_RULES,
    commentLeft: LIMITS.contactCommentMax - (values.comment ?? '').length,
    pageTitle: category === 'advertise' ? 'Advertise with us' : 'Contact us',
    pageDescription: `Get in touch with ${ctx.config.site.name}: story tips, advertising, corrections and feedback.`,
    canonicalUrl: `${ctx.config.site.url}/contact/`,
    ...extra,
  };
}

/** GET /contact/ (?category=advertise preselects; ?sent=1 shows the thank-you after a post). */
export function contactFormPage(ctx: AppContext, contact: ContactService, req: Request): PageView {
  const q = req.query as Record<string, unknown>;
  const category = typeof q.category === 'string' ? q.category : 'general';
  const view = formView(ctx, { question_category: category });
  return q.sent === '1' ? { ...view, sentMessage: contact.successMessage(String(view.category)) } : view;
}

function stringValues(body: unknown): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) if (typeof v === 'string' && k !== 'csrfmiddlewaretoken') out[k] = v;
  return out;
}

/**
 * POST /contact/. Browsers posting the form get a redirect to the thank-you (so a reload does
 * not send it twice) or the form again with errors (400); JSON clients (the island) get
 * {detail} or the DRF field errors.
 */
export async function submitContactForm(ctx: AppContext, contact: ContactService, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const wantsJson = req.is('application/json') === 'application/json' || req.accepts(['html', 'json']) === 'json';
  const values = stringValues(req.body);
  return formPost(res, {
    // The service reads the form (the captcha with it), so it throws the ValidationError.
    valid: async () => {
      const input = await contact.validate(values);
      await contact.send(input, { ip: req.ip ?? '', profileId: req.user?.id ?? null });
      if (!wantsJson) return new PageRedirect(`/contact/?sent=1&category=${encodeURIComponent(input.question_category)}`, 303);
      res.status(201).json({ detail: contact.successMessage(input.question_category) });
      return null;
    },
    invalid: (errors) => {
      if (!wantsJson) return formView(ctx, { ...values, captcha: '' }, errors);
      res.json(errors);
      return null;
    },
  });
}

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

export function contactPages(ctx: AppContext, contact: ContactService): Router {
  const router = Router();

  // ## Contact us
  router.get('/contact/', page('private', (req) => contactFormPage(ctx, contact, req)));
  router.post('/contact/', contactRateLimit(ctx), page('private', (req, res) => submitContactForm(ctx, contact, req, res)));
  // A fresh captcha for the island: {image, key} as spec 2 §3 names them.
  router.get('/contact/captcha/', (_req, res) => {
    const { image, key, alt } = createCaptcha(captchaSecret(ctx.config.sessionSecret), ctx.now());
    res.set('Cache-Control', 'no-store').json({ image, key, alt });
  });
  return router;
}
