import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMemberPage } from '../../http/auth-guards';
import { page } from '../../http/pages/page-view';
import { authRateLimits } from '../accounts/rate-limits';
import { createAccountDeletionService } from './service';
import { confirmPage, deletePage, scheduledPage, submitConfirm, submitDelete, submitUndo, undoPage } from './page-service';

// ## Delete my account (the dashboard's 'Your data' panel links here): the form, the page after
// it, and the two emailed links (confirm, for members without a password; undo, for 7 days).
export function accountDeletionPages(ctx: AppContext): Router {
  const router = Router();
  const service = createAccountDeletionService(ctx);
  // A wrong password counts as a failed login of the address, so a borrowed session cannot
  // be used to guess the password here either.
  const limits = authRateLimits(ctx);
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
