import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { NotFoundError, ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { profileDTO } from '../profiles/serialize';
import { appleLoginSchema, authRequestInput, changePasswordSchema, loginSchema, registrationSchema, rememberedActionSchema, resetConfirmSchema, resetRequestSchema, withoutBlanks } from './schemas';
import type { AccountsService } from './service';
import { signIn } from './sign-in';
import { runPostAuthenticateAction } from './post-authenticate';
import { AppleTokenError, createAppleVerifier } from './apple';
import { InactiveAccountError, memberForSocialIdentity, SocialLoginError } from './social';
import type { Member } from '../profiles/member';
import type { LoginMethod } from './login-history-queries';

// ## Accounts API: sign up, sign in, passwords, Apple (spec 2 §7, issue 3). Handlers validate,
// call the service and sign the member in (sign-in.ts), then run a guest's remembered action
// (post-authenticate.ts). The limits are the service's, one set per app, and run before
// validation so bad input counts too.
export function accountsApi(ctx: AppContext, accounts: AccountsService): Router {
  const { db, logger } = ctx;
  const router = Router();
  const limits = accounts.rateLimits;
  const verifyApple = createAppleVerifier(ctx.config.apple);

  async function answerSignedIn(req: Request, res: Response, member: Member, method: LoginMethod, status = 200) {
    await signIn(req, member);
    await accounts.recordLogin(member, req, method);
    res.status(status).json(profileDTO(member));
  }

  // A guest's remembered action (spec 2 §4) is carried through sign-up as through sign-in, in
  // the query string: the new member's first save is made, and onboarding then returns to it.
  router.post('/api/v2/profiles/email-registration/', ...limits.signup, async (req, res) => {
    const { email, password } = validate(registrationSchema, req.body);
    const remembered = validate(rememberedActionSchema, withoutBlanks(req.query));
    const member = await accounts.register(email, password);
    if (remembered.post_authenticate_action && remembered.object_id) {
      await runPostAuthenticateAction(ctx, member.id, { action: remembered.post_authenticate_action, objectId: remembered.object_id, rating: remembered.rating }, ctx.now());
    }
    await answerSignedIn(req, res, member, 'password', 201);
  });

  // The remembered action may come in the body or, as the islands send it, the query string.
  router.post('/api/v2/profiles/email-login/', ...limits.login, async (req, res) => {
    const input = validate(loginSchema, authRequestInput(req));
    const member = await accounts.authenticate(input.email, input.password);
    await signIn(req, member);
    await accounts.recordLogin(member, req, 'password');
    if (input.post_authenticate_action && input.object_id) {
      await runPostAuthenticateAction(ctx, member.id, { action: input.post_authenticate_action, objectId: input.object_id, rating: input.rating }, ctx.now());
    }
    res.json(profileDTO(member));
  });

  router.post('/api/v2/profiles/reset-password/', ...limits.reset, async (req, res) => {
    const { email } = validate(resetRequestSchema, req.body);
    await accounts.requestPasswordReset(email);
    // The same answer whether or not the address has an account.
    res.json({ detail: 'Password reset e-mail has been sent.' });
  });

  router.post('/api/v2/profiles/reset-password/confirm/', ...limits.reset, async (req, res) => {
    const token = typeof req.body?.token === 'string' ? req.body.token : '';
    const { new_password } = validate(resetConfirmSchema, req.body);
    await accounts.resetPassword(token, new_password);
    res.json({ detail: 'Password has been reset with the new password.' });
  });

  router.post('/api/v2/profiles/me/password/', requireMember, ...limits.login, async (req, res) => {
    const { current_password, new_password } = validate(changePasswordSchema, req.body);
    await accounts.changePassword(req.user as Member, current_password, new_password, req.sessionID);
    res.json({ detail: 'New password has been saved.' });
  });

  router.post('/api/v2/profiles/auth/apple/manual-login/', ...limits.login, async (req, res) => {
    if (!verifyApple) throw new NotFoundError();
    const { id_token } = validate(appleLoginSchema, req.body);
    let member: Member;
    try {
      member = await memberForSocialIdentity(db, await verifyApple(id_token));
    } catch (err) {
      if (err instanceof AppleTokenError || err instanceof SocialLoginError) {
        logger.info({ reason: err.message }, 'apple sign-in refused');
        const notice = err instanceof InactiveAccountError ? await accounts.inactiveNotice(err.memberId) : undefined;
        throw ValidationError.nonField(notice ?? 'Sign in with Apple failed. Please try again.');
      }
      throw err;
    }
    await answerSignedIn(req, res, member, 'apple');
  });

  return router;
}
