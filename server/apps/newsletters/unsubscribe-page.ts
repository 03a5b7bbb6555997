import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { PageView } from '../../http/pages/page-view';
import { readUnsubscribeToken, type NewsletterType } from './unsubscribe-token';
import { newsletterName, recipientEmail, unsubscribe } from './unsubscribe';

// /newsletters/unsubscribe/?token=…, the link in every newsletter email. The GET only shows a
// button (mail scanners and link previews follow links; they must not unsubscribe anyone); the
// POST unsubscribes at once: the page's form, or a mail client's RFC 8058 one-click POST
// (body `List-Unsubscribe=One-Click`, no cookie or CSRF token: the route is CSRF-exempt, see
// app.ts). No login either way: the signed token names the recipient and the newsletter.

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
