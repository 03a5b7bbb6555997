import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { PageView } from '../../http/pages/page-view';
import type { RequestRules } from '../../http/request-rules';
import { readUnsubscribeToken, type NewsletterType } from './unsubscribe-token';
import { newsletterName, recipientEmail, unsubscribe } from './unsubscribe-queries';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { choicesFromForm, emailField, GUEST_FIELDS, offeredGuestFields, type GuestField } from './schemas';
import type { NewslettersService } from './service';
import { z } from 'zod';
import { Router } from 'express';
import { page } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';

// /newsletters/unsubscribe/?token=…, the link in every newsletter email. The GET only shows a
// button (mail scanners and link previews follow links; they must not unsubscribe anyone); the
// POST unsubscribes at once: the page's form, or a mail client's RFC 8058 one-click POST
// (body `List-Unsubscribe=One-Click`, no cookie or CSRF token: the route is CSRF-exempt, see
// newslettersRequestRules). No login either way: the signed token names the recipient and the
// newsletter.

/**
 * The one-click unsubscribe (RFC 8058): mail providers POST to the link in List-Unsubscribe
 * from their servers, with no cookie, CSRF token or Origin. The URL's signed token is the whole
 * authority, and it only ever turns newsletters off, so a forged request needs the token, which
 * is all a CSRF token would prove.
 */
export const newslettersRequestRules: Partial<RequestRules> = { csrfExempt: ['/newsletters/unsubscribe/'] };

const TEMPLATE = 'newsletters/unsubscribe.njk';

/** r…@example.com: enough for the reader to recognise their address, little for anyone the link was forwarded to. */
function masked(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}…@${domain ?? ''}`;
}

async function load(ctx: AppContext, req: Request, res: Response) {
  // The token must not leak to other sites through the Referer; same-origin keeps the form's Origin.
  res.set('Referrer-Policy', 'same-origin');
  const grant = readUnsubscribeToken(ctx.config.sessionSecret, req.query.token);
  if (!grant) {
    res.status(400);
    return { view: { template: TEMPLATE, pageTitle: 'Unsubscribe', validLink: false } as PageView };
  }
  const email = await recipientEmail(ctx.db, grant);
  const name = grant.newsletter === 'all' ? 'all our newsletters' : newsletterName(grant.newsletter as NewsletterType);
  return { grant, view: { template: TEMPLATE, pageTitle: 'Unsubscribe', validLink: true, email: email ? masked(email) : null, name, isAll: grant.newsletter === 'all' } as PageView };
}

export async function unsubscribePage(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  return (await load(ctx, req, res)).view;
}

export async function submitUnsubscribe(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const { grant, view } = await load(ctx, req, res);
  if (!grant) return view;
  const all = grant.newsletter === 'all' || req.body?.scope === 'all';
  await unsubscribe(ctx.db, grant, all);
  ctx.logger.info({ recipient: { kind: grant.kind, id: grant.id }, newsletter: all ? 'all' : grant.newsletter }, 'newsletter unsubscribe');
  return { ...view, done: true, name: all ? 'all our newsletters' : view.name };
}

export const NEWSLETTER_MESSAGES = {
  successTitle: 'Submitted',
  success: 'Thanks for signing up to our newsletter – we’re excited to have you on board. Expect to hear from us soon.',
  noChoice: 'Choose at least one newsletter.',
} as const;

function view(ctx: AppContext, newsletters: NewslettersService, fields: { email: string; choices: Partial<Record<GuestField, boolean>> }, extra: Record<string, unknown> = {}): PageView {
  return {
    template: 'newsletters/index.njk',
    choices: newsletters.offered()
      .filter((n) => n.guestField)
      .map((n) => ({ ...n, checked: Boolean(fields.choices[n.guestField as GuestField]) })),
    email: fields.email,
    errors: {},
    messages: NEWSLETTER_MESSAGES,
    pageTitle: 'Newsletters',
    pageDescription: `The best of ${ctx.config.city.name} in your inbox: top stories, events, food and more.`,
    canonicalUrl: `${ctx.config.site.url}/newsletters/`,
    ...extra,
  };
}

/** GET: the footer's signup arrives as ?email=&news=on and finds its choices already made. */
export function newsletterFormPage(ctx: AppContext, newsletters: NewslettersService, req: Request): PageView {
  const q = req.query as Record<string, unknown>;
  const email = typeof q.email === 'string' ? q.email.slice(0, 255) : '';
  const choices = Object.values(q).length ? choicesFromForm(q) : { news: true };
  return view(ctx, newsletters, { email, choices });
}

/** POST: subscribes, or shows the form again with the errors beside their fields (400). */
export async function submitNewsletterForm(ctx: AppContext, newsletters: NewslettersService, req: Request, res: Response): Promise<PageView> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const offered = new Set(offeredGuestFields(newsletters.offered()));
  const choices = choicesFromForm(body);
  const email = typeof body.email === 'string' ? body.email : '';
  return formPost(res, {
    // The email's message and the choice's come back together: the schema is one of two checks.
    valid: async () => {
      const fields: Record<string, string[]> = {};
      try {
        validate(z.object({ email: emailField }), body);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        Object.assign(fields, err.fields);
      }
      if (!GUEST_FIELDS.some((f) => choices[f] && offered.has(f))) fields.newsletters = [NEWSLETTER_MESSAGES.noChoice];
      if (Object.keys(fields).length) throw new ValidationError(fields);
      await newsletters.subscribeGuest({ email: email.trim(), ...choices });
      return view(ctx, newsletters, { email: email.trim(), choices }, { submitted: true });
    },
    invalid: (errors) => view(ctx, newsletters, { email, choices }, { errors }),
  });
}

export function newslettersPages(ctx: AppContext, newsletters: NewslettersService): Router {
  const router = Router();

  // ## Newsletters page: the full form, working without JavaScript
  router.get('/newsletters/', page('private', (req) => newsletterFormPage(ctx, newsletters, req)));
  router.post('/newsletters/', page('private', (req, res) => submitNewsletterForm(ctx, newsletters, req, res)));
  // ## Unsubscribe links of newsletter emails: GET asks, POST (the form or RFC 8058's one-click) acts
  router.get('/newsletters/unsubscribe/', page('private', (req, res) => unsubscribePage(ctx, req, res)));
  router.post('/newsletters/unsubscribe/', page('private', (req, res) => submitUnsubscribe(ctx, req, res)));
  return router;
}
