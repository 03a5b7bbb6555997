import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import type { PageView } from '../../http/pages/page-view';
import { choicesFromForm, emailField, GUEST_FIELDS, offeredGuestFields, type GuestField } from './schemas';
import { offeredNewsletters, subscribeGuest } from './service';
import { z } from 'zod';

export const NEWSLETTER_MESSAGES = {
  successTitle: 'Submitted',
  success: 'Thanks for signing up to our newsletter – we’re excited to have you on board. Expect to hear from us soon.',
  noChoice: 'Choose at least one newsletter.',
} as const;

function view(ctx: AppContext, fields: { email: string; choices: Partial<Record<GuestField, boolean>> }, extra: Record<string, unknown> = {}): PageView {
  return {
    template: 'newsletters/index.njk',
    choices: offeredNewsletters(ctx.config)
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
export function newsletterFormPage(ctx: AppContext, req: Request): PageView {
  const q = req.query as Record<string, unknown>;
  const email = typeof q.email === 'string' ? q.email.slice(0, 255) : '';
  const choices = Object.values(q).length ? choicesFromForm(q) : { news: true };
  return view(ctx, { email, choices });
}

/** POST: subscribes, or shows the form again with the errors beside their fields (400). */
export async function submitNewsletterForm(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const offered = new Set(offeredGuestFields(offeredNewsletters(ctx.config)));
  const choices = choicesFromForm(body);
  const email = typeof body.email === 'string' ? body.email : '';
  try {
    const fields: Record<string, string[]> = {};
    try {
      validate(z.object({ email: emailField }), body);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      Object.assign(fields, err.fields);
    }
    if (!GUEST_FIELDS.some((f) => choices[f] && offered.has(f))) fields.newsletters = [NEWSLETTER_MESSAGES.noChoice];
    if (Object.keys(fields).length) throw new ValidationError(fields);
    await subscribeGuest(ctx.db, ctx.config, { email: email.trim(), ...choices });
    return view(ctx, { email: email.trim(), choices }, { submitted: true });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    res.status(400);
    return view(ctx, { email, choices }, { errors: err.fields });
  }
}
