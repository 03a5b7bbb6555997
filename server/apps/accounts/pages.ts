import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { safeNextPath } from '../../http/safe-redirect';
import { PageRedirect, type PageAnswer, type PageView, page } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { addIsland } from '../../views';
import { profileDTO } from '../profiles/serialize';
import { loginSchema, registrationSchema, resetConfirmSchema, resetRequestSchema } from './schemas';
import type { AccountsService } from './service';
import { signIn, signOut } from './sign-in';
import type { Member } from '../profiles/member';
import { Router } from 'express';
import { requireMemberPage } from '../../http/auth-guards';
import { facebookLogin, FACEBOOK_CALLBACK_PATH, SOCIAL_RETURN_PATH } from './facebook';

// The account pages as functions of the request: full-page forms that work without JavaScript
// (the navbar dialogs are the enhanced version). Failed forms answer their page again with the
// messages and a 400, which the rate limits count.

/** After a full-page login: where the member was going, but never back to the auth pages. */
function afterLogin(next: unknown): string {
  const target = safeNextPath(next, '/');
  return /^\/accounts\/(login|reset|password-reset)/.test(target) ? '/' : target;
}

/** The refused social login's reason, said once (facebook.ts puts it in the session). */
function takeSocialNotice(req: Request): string | undefined {
  const notice = req.session?.socialLoginNotice;
  if (notice) delete req.session.socialLoginNotice;
  return notice;
}

function loginView(req: Request, extra: Record<string, unknown> = {}): PageView {
  return {
    template: 'accounts/login.njk',
    pageTitle: 'Log in',
    next: safeNextPath(req.query.next ?? req.body?.next, ''),
    showSignup: req.query.signup === '1' || req.body?.form === 'signup',
    socialError: req.query.social_error === '1',
    socialNotice: req.query.social_error === '1' ? takeSocialNotice(req) : undefined,
    ...extra,
  };
}

// ## Log in and sign up

/**
 * A member asking for the login page is one without JavaScript who followed a page's "Log in"
 * (pages are the same for everybody and cannot say who is signed in): they are told so, with
 * the way back, their dashboard and log out.
 */
export function loginPage(req: Request): PageAnswer {
  if (!req.user) return loginView(req);
  return { template: 'accounts/signed-in.njk', pageTitle: 'You are logged in', member: req.user, next: afterLogin(req.query.next) };
}

export async function submitLogin(accounts: AccountsService, req: Request, res: Response): Promise<PageAnswer> {
  return formPost(res, {
    schema: loginSchema.pick({ email: true, password: true }),
    body: req.body,
    valid: async ({ email, password }) => {
      const member = await accounts.authenticate(email, password);
      await signIn(req, member);
      await accounts.recordLogin(member, req, 'password');
      return new PageRedirect(afterLogin(req.body.next));
    },
    // The form keeps the address as typed; the password is never sent back.
    invalid: (loginErrors) => loginView(req, { loginErrors, email: String(req.body?.email ?? '') }),
  });
}

export async function submitSignup(accounts: AccountsService, req: Request, res: Response): Promise<PageAnswer> {
  return formPost(res, {
    schema: registrationSchema,
    body: req.body,
    valid: async ({ email, password }) => {
      if (req.body.password_confirm !== undefined && req.body.password_confirm !== password) {
        throw ValidationError.field('password_confirm', "The two passwords fields didn't match.");
      }
      const member = await accounts.register(email, password);
      await signIn(req, member);
      await accounts.recordLogin(member, req, 'password');
      // The onboarding's last step promises the dashboard; a form sign-up carries no remembered action.
      return new PageRedirect(`/accounts/onboarding?next=${encodeURIComponent('/accounts/dashboard/')}`);
    },
    invalid: (signupErrors) => loginView(req, { signupErrors, signupEmail: String(req.body?.email ?? ''), showSignup: true }),
  });
}

// ## Log out: the GET (old links, no JavaScript) asks first; the POST signs out

export function logoutPage(req: Request): PageAnswer {
  const next = safeNextPath(req.query.next, '/');
  return req.user ? { template: 'accounts/logout.njk', pageTitle: 'Log out', member: req.user, next } : new PageRedirect(next);
}

// ## Password reset: request a link, then set a new password from it

export function passwordResetPage(): PageView {
  return { template: 'accounts/password-reset.njk', pageTitle: 'Reset your password' };
}

export async function submitPasswordReset(accounts: AccountsService, req: Request, res: Response): Promise<PageView> {
  return formPost(res, {
    schema: resetRequestSchema,
    body: req.body,
    valid: async ({ email }) => {
      await accounts.requestPasswordReset(email);
      return { template: 'accounts/password-reset.njk', pageTitle: 'Reset your password', sentTo: email };
    },
    invalid: (errors) => ({ template: 'accounts/password-reset.njk', pageTitle: 'Reset your password', errors, email: String(req.body?.email ?? '') }),
  });
}

export async function resetPage(accounts: AccountsService, req: Request, res: Response): Promise<PageView> {
  const member = await accounts.memberForResetToken(String(req.params.token));
  // The token must not leak to other sites; same-origin (not no-referrer) so that the form's
  // POST keeps its Origin for the CSRF check.
  res.set('Referrer-Policy', 'same-origin');
  res.status(member ? 200 : 400);
  return { template: 'accounts/reset.njk', pageTitle: 'Choose a new password', validLink: Boolean(member), email: member?.email };
}

export async function submitReset(accounts: AccountsService, req: Request, res: Response): Promise<PageView> {
  res.set('Referrer-Policy', 'same-origin');
  return formPost(res, {
    schema: resetConfirmSchema,
    body: req.body,
    valid: async ({ new_password }) => {
      await accounts.resetPassword(String(req.params.token), new_password);
      return { template: 'accounts/reset.njk', pageTitle: 'Password changed', done: true };
    },
    invalid: async (errors) => {
      const member = await accounts.memberForResetToken(String(req.params.token));
      return { template: 'accounts/reset.njk', pageTitle: 'Choose a new password', validLink: Boolean(member), email: member?.email, errors };
    },
  });
}

// ## Member shell: the onboarding island mounts here with its state

export function onboardingPage(ctx: AppContext, req: Request, res: Response): PageView {
  const member = req.user as Member;
  addIsland(res, 'onboarding', {
    profile: profileDTO(member),
    next: safeNextPath(req.query.next, '/accounts/dashboard/'),
    facebookPageUrl: ctx.config.social.facebookPageUrl ?? null,
  });
  return { template: 'accounts/onboarding.njk', pageTitle: 'Welcome', bodyClass: 'page-onboarding' };
}

// ## Account pages: full-page forms that work without JavaScript (the navbar dialogs are the
// enhanced version), the member-only shells later islands mount into, logout and social
// returns. Failed forms re-render with their messages and a 400, which the rate limits count.

export function accountsPages(ctx: AppContext, accounts: AccountsService): Router {
  const router = Router();
  const limits = accounts.rateLimits;
  const facebook = facebookLogin(ctx, accounts);

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
