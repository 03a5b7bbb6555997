import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMemberPage } from '../../http/auth-guards';
import { safeNextPath } from '../../http/safe-redirect';
import { page } from '../../http/pages/page-view';
import { createAccountsService } from './service';
import { authRateLimits } from './rate-limits';
import { signOut } from './sign-in';
import { loginPage, logoutPage, onboardingPage, passwordResetPage, resetPage, submitLogin, submitPasswordReset, submitReset, submitSignup } from './page-service';
import { facebookLogin, FACEBOOK_CALLBACK_PATH, SOCIAL_RETURN_PATH } from './facebook';

// ## Account pages: full-page forms that work without JavaScript (the navbar dialogs are the
// enhanced version), the member-only shells later islands mount into, logout and social
// returns. Failed forms re-render with their messages and a 400, which the rate limits count.

export function accountsPages(ctx: AppContext): Router {
  const router = Router();
  const accounts = createAccountsService(ctx);
  const limits = authRateLimits(ctx);
  const facebook = facebookLogin(ctx);

  const form = 'private';

  // ## Log in and sign up
  router.get(['/accounts/login', '/accounts/login/'], page(form, (req) => loginPage(req)));
  router.post(['/accounts/login', '/accounts/login/'], ...limits.login, page(form, (req, res) => submitLogin(accounts, req, res)));
  router.post('/accounts/signup', ...limits.signup, page(form, (req, res) => submitSignup(accounts, req, res)));

  // ## Log out: a POST with the CSRF token, so no other site can sign a member out with a
  // link or an image. The GET (old links, no JavaScript) asks first.
  router.get('/profiles/logout', page(form, (req) => logoutPage(req)));
  router.post('/profiles/logout', async (req, res) => {
    await signOut(req);
    res.redirect(302, safeNextPath(req.body?.next ?? req.query.next, '/'));
  });

  // ## Password reset: request a link, then set a new password from it
  router.get('/accounts/password-reset/', page(form, () => passwordResetPage()));
  router.post('/accounts/password-reset/', ...limits.reset, page(form, (req, res) => submitPasswordReset(accounts, req, res)));
  router.get('/accounts/reset/:token/', page(form, (req, res) => resetPage(accounts, req, res)));
  router.post('/accounts/reset/:token/', ...limits.reset, page(form, (req, res) => submitReset(accounts, req, res)));

  // ## Member shell: the onboarding island mounts here with its state (the dashboard's is in profiles)
  router.get(['/accounts/onboarding', '/accounts/onboarding/'], requireMemberPage, page(form, (req, res) => onboardingPage(ctx, req, res)));

  // ## Social login returns
  // Facebook returns to {next}#_=_; the bare /_=_ is the dashboard home.
  router.get(SOCIAL_RETURN_PATH, (_req, res) => res.redirect(302, '/accounts/dashboard/#/home/'));
  if (facebook) {
    router.get('/profiles/facebook-login/', facebook.start);
    router.get(FACEBOOK_CALLBACK_PATH, facebook.callback);
  }

  return router;
}
