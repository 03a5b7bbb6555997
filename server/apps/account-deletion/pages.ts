import type { Request, Response } from 'express';
import { PageRedirect, type PageAnswer, type PageView, page } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { SESSION_COOKIE } from '../accounts/session';
import type { Member } from '../profiles/member';
import type { AccountDeletionService } from './service';
import { UNDO_PERIOD_MS } from './service';
import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMemberPage } from '../../http/auth-guards';
import type { AccountsService } from '../accounts/service';

// The delete-my-account pages as functions of the request: plain forms with the CSRF token,
// working without JavaScript. A failed form answers its page again with a 400 naming the field.

const DAYS = UNDO_PERIOD_MS / (24 * 3600 * 1000);

async function formView(service: AccountDeletionService, member: Member, extra: Record<string, unknown> = {}): Promise<PageView> {
  const [hasPassword, counts] = await Promise.all([service.hasPassword(member.id), service.contentCounts(member.id)]);
  return { template: 'account-deletion/delete.njk', pageTitle: 'Delete my account', hasPassword, counts, days: DAYS, email: member.email, errors: {}, content: '', ...extra };
}

export async function deletePage(service: AccountDeletionService, req: Request): Promise<PageView> {
  return formView(service, req.user as Member);
}

export async function submitDelete(service: AccountDeletionService, req: Request, res: Response): Promise<PageAnswer> {
  const member = req.user as Member;
  // The service reads the form (its schema depends on whether the member has a password) and
  // checks the password, so the ValidationError comes from `valid`.
  return formPost(res, {
    valid: async (): Promise<PageAnswer> => {
      const outcome = await service.request(member, req.body ?? {});
      if (outcome.status === 'emailed') return { template: 'account-deletion/delete.njk', pageTitle: 'Check your email', emailedTo: outcome.email, days: DAYS };
      // Every session row is gone already; this one is ended here too, cookie and all.
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      return new PageRedirect('/accounts/delete/scheduled/', 303);
    },
    invalid: (errors) => formView(service, member, { errors, content: typeof req.body?.content === 'string' ? req.body.content : '' }),
  });
}

export function scheduledPage(): PageView {
  return { template: 'account-deletion/scheduled.njk', pageTitle: 'Your account is closed', days: DAYS };
}

// ## The emailed links: each GET shows a button, so a mail scanner that follows links changes nothing

function tokenPage(res: Response): void {
  // The token must not leak to other sites; same-origin keeps the form POST's Origin for CSRF.
  res.set('Referrer-Policy', 'same-origin');
}

export async function confirmPage(service: AccountDeletionService, req: Request, res: Response): Promise<PageView> {
  tokenPage(res);
  const pending = await service.pendingConfirmation(String(req.params.token));
  res.status(pending ? 200 : 400);
  return { template: 'account-deletion/confirm.njk', pageTitle: 'Delete my account', validLink: Boolean(pending), pending, days: DAYS };
}

export async function submitConfirm(service: AccountDeletionService, req: Request, res: Response): Promise<PageAnswer> {
  tokenPage(res);
  return formPost(res, {
    valid: async () => {
      await service.confirm(String(req.params.token));
      if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      return new PageRedirect('/accounts/delete/scheduled/', 303);
    },
    invalid: (errors) => ({ template: 'account-deletion/confirm.njk', pageTitle: 'Delete my account', validLink: false, errors, days: DAYS }),
  });
}

export async function undoPage(service: AccountDeletionService, req: Request, res: Response): Promise<PageView> {
  tokenPage(res);
  const closed = await service.undoable(String(req.params.token));
  res.status(closed ? 200 : 400);
  return { template: 'account-deletion/undo.njk', pageTitle: 'Restore my account', validLink: Boolean(closed), closed };
}

export async function submitUndo(service: AccountDeletionService, req: Request, res: Response): Promise<PageView> {
  tokenPage(res);
  return formPost(res, {
    valid: async () => ({ template: 'account-deletion/undo.njk', pageTitle: 'Account restored', restored: await service.undo(String(req.params.token)) }),
    invalid: (errors) => ({ template: 'account-deletion/undo.njk', pageTitle: 'Restore my account', validLink: false, errors }),
  });
}

// ## Delete my account (the dashboard's 'Your data' panel links here): the form, the page after
// it, and the two emailed links (confirm, for members without a password; undo, for 7 days).
export function accountDeletionPages(ctx: AppContext, service: AccountDeletionService, accounts: Pick<AccountsService, 'rateLimits'>): Router {
  const router = Router();
  // A wrong password counts as a failed login of the address, so a borrowed session cannot
  // be used to guess the password here either.
  const limits = accounts.rateLimits;
  const form = 'private';

  router.get('/accounts/delete/', requireMemberPage, page(form, (req) => deletePage(service, req)));
  router.post('/accounts/delete/', requireMemberPage, ...limits.login, page(form, (req, res) => submitDelete(service, req, res)));
  router.get('/accounts/delete/scheduled/', page(form, () => scheduledPage()));
  router.get('/accounts/delete/confirm/:token/', page(form, (req, res) => confirmPage(service, req, res)));
  router.post('/accounts/delete/confirm/:token/', page(form, (req, res) => submitConfirm(service, req, res)));
  router.get('/accounts/delete/undo/:token/', page(form, (req, res) => undoPage(service, req, res)));
  router.post('/accounts/delete/undo/:token/', ...limits.reset, page(form, (req, res) => submitUndo(service, req, res)));
  return router;
}
