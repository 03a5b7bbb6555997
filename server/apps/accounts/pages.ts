import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireMemberPage } from '../../http/auth-guards';
import { ValidationError, type FieldErrors } from '../../http/errors';
import { validate } from '../../http/validate';
import { safeNextPath } from '../../http/safe-redirect';
import { addIsland } from '../../views';
import { profileDTO } from '../profiles/serialize';
import { profileCounts } from '../profiles/queries';
import { calendarEnabled } from '../calendar/sync';
import { loginSchema, registrationSchema, resetConfirmSchema, resetRequestSchema } from './schemas';
import { createAccountsService } from './service';
import { authRateLimits } from './rate-limits';
import { signIn, signOut } from './sign-in';
import { facebookLogin, FACEBOOK_CALLBACK_PATH, SOCIAL_RETURN_PATH } from './facebook';
import type { Member } from './types';

// ## Account pages: full-page forms that work without JavaScript (the navbar dialogs are the
// enhanced version), the member-only shells later islands mount into, logout and social
// returns. Failed forms re-render with their messages and a 400, which the rate limits count.

/** After a full-page login: where the member was going, but never back to the auth pages. */
function afterLogin(next: unknown): string {
  const target = safeNextPath(next, '/');
  return /^\/accounts\/(login|reset|password-reset)/.test(target) ? '/' : target;
}

function errorsOf(err: unknown): FieldErrors {
  if (err instanceof ValidationError) return err.fields;
  throw err;
}

export function accountsPages(ctx: AppContext): Router {
  const router = Router();
  const accounts = createAccountsService(ctx);
  const limits = authRateLimits(ctx);
  const facebook = facebookLogin(ctx);

  const renderLogin = (req: Request, res: Response, extra: Record<string, unknown> = {}, status = 200) =>
    res.status(status).render('accounts/login.njk', {
      pageTitle: 'Log in',
      next: safeNextPath(req.query.next ?? req.body?.next, ''),
      showSignup: req.query.signup === '1' || req.body?.form === 'signup',
      socialError: req.query.social_error === '1',
      ...extra,
    });

  // ## Log in and sign up
  router.get(['/accounts/login', '/accounts/login/'], (req, res) => {
    if (req.user) return res.redirect(302, afterLogin(req.query.next));
    renderLogin(req, res);
  });
  router.post(['/accounts/login', '/accounts/login/'], ...limits.login, async (req, res) => {
    try {
      const { email, password } = validate(loginSchema.pick({ email: true, password: true }), req.body);
      const member = await accounts.authenticate(email, password);
      await signIn(req, member);
      await accounts.recordLogin(member);
      res.redirect(302, afterLogin(req.body.next));
    } catch (err) {
      renderLogin(req, res, { loginErrors: errorsOf(err), email: String(req.body?.email ?? '') }, 400);
    }
  });
  router.post('/accounts/signup', ...limits.signup, async (req, res) => {
    try {
      const { email, password } = validate(registrationSchema, req.body);
      if (req.body.password_confirm !== undefined && req.body.password_confirm !== password) {
        throw ValidationError.field('password_confirm', "The two passwords fields didn't match.");
      }
      const member = await accounts.register(email, password);
      await signIn(req, member);
      await accounts.recordLogin(member);
      res.redirect(302, `/accounts/onboarding?next=${encodeURIComponent(safeNextPath(req.body.next, '/accounts/dashboard/'))}`);
    } catch (err) {
      renderLogin(req, res, { signupErrors: errorsOf(err), signupEmail: String(req.body?.email ?? ''), showSignup: true }, 400);
    }
  });

  // ## Log out: a POST with the CSRF token, so no other site can sign a member out with a
  // link or an image. The GET (old links, no JavaScript) asks first.
  router.get('/profiles/logout', (req, res) => {
    const next = safeNextPath(req.query.next, '/');
    if (!req.user) return res.redirect(302, next);
    res.render('accounts/logout.njk', { pageTitle: 'Log out', next });
  });
  router.post('/profiles/logout', async (req, res) => {
    await signOut(req);
    res.redirect(302, safeNextPath(req.body?.next ?? req.query.next, '/'));
  });

  // ## Password reset: request a link, then set a new password from it
  router.get('/accounts/password-reset/', (_req, res) => {
    res.render('accounts/password-reset.njk', { pageTitle: 'Reset your password' });
  });
  router.post('/accounts/password-reset/', ...limits.reset, async (req, res) => {
    try {
      const { email } = validate(resetRequestSchema, req.body);
      await accounts.requestPasswordReset(email);
      res.render('accounts/password-reset.njk', { pageTitle: 'Reset your password', sentTo: email });
    } catch (err) {
      res.status(400).render('accounts/password-reset.njk', { pageTitle: 'Reset your password', errors: errorsOf(err), email: String(req.body?.email ?? '') });
    }
  });
  router.get('/accounts/reset/:token/', async (req, res) => {
    const member = await accounts.memberForResetToken(String(req.params.token));
    // The token must not leak to other sites; same-origin (not no-referrer) so that the form's
    // POST keeps its Origin for the CSRF check.
    res.set('Referrer-Policy', 'same-origin');
    res.status(member ? 200 : 400).render('accounts/reset.njk', { pageTitle: 'Choose a new password', validLink: Boolean(member), email: member?.email });
  });
  router.post('/accounts/reset/:token/', ...limits.reset, async (req, res) => {
    res.set('Referrer-Policy', 'same-origin');
    try {
      const { new_password } = validate(resetConfirmSchema, req.body);
      await accounts.resetPassword(String(req.params.token), new_password);
      res.render('accounts/reset.njk', { pageTitle: 'Password changed', done: true });
    } catch (err) {
      const errors = errorsOf(err);
      const member = await accounts.memberForResetToken(String(req.params.token));
      res.status(400).render('accounts/reset.njk', { pageTitle: 'Choose a new password', validLink: Boolean(member), email: member?.email, errors });
    }
  });

  // ## Member shells: the onboarding and dashboard islands mount here with their state
  router.get(['/accounts/onboarding', '/accounts/onboarding/'], requireMemberPage, (req, res) => {
    const member = req.user as Member;
    addIsland(res, 'onboarding', {
      profile: profileDTO(member),
      next: safeNextPath(req.query.next, '/accounts/dashboard/'),
      facebookPageUrl: ctx.config.social.facebookPageUrl ?? null,
    });
    res.render('accounts/onboarding.njk', { pageTitle: 'Welcome', bodyClass: 'page-onboarding' });
  });
  router.get('/accounts/dashboard/', requireMemberPage, async (req, res) => {
    const member = req.user as Member;
    addIsland(res, 'dashboard', {
      profile: profileDTO(member),
      counts: await profileCounts(ctx.db, member.id),
      calendarEnabled: calendarEnabled(ctx.config),
      iosAppUrl: ctx.config.social.iosAppUrl ?? null,
    });
    res.render('accounts/dashboard.njk', { pageTitle: 'Dashboard' });
  });
  router.get('/accounts/dashboard', (_req, res) => res.redirect(301, '/accounts/dashboard/'));

  // ## Social login returns
  // Facebook returns to {next}#_=_; the bare /_=_ is the dashboard home.
  router.get(SOCIAL_RETURN_PATH, (_req, res) => res.redirect(302, '/accounts/dashboard/#/home/'));
  if (facebook) {
    router.get('/profiles/facebook-login/', facebook.start);
    router.get(FACEBOOK_CALLBACK_PATH, facebook.callback);
  }

  return router;
}
