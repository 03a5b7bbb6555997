import { Passport } from 'passport';
import { Strategy as FacebookStrategy, type Profile } from 'passport-facebook';
import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../../context';
import { safeNextPath } from '../../http/safe-redirect';
import { InactiveAccountError, memberForSocialIdentity } from './social';
import { signIn } from './sign-in';
import type { AccountsService } from './service';
import type { Member } from '../profiles/member';

// Facebook login through passport-facebook, active only when the app id and secret are
// configured. It has its own Passport instance (the app's one only keeps sessions); the
// member is signed in with the app's req.login like any other. `next` waits in the session
// during the round trip; `state` guards the callback against forged requests.

export const FACEBOOK_CALLBACK_PATH = '/profiles/facebook-login/callback/';
/** Where Facebook's return lands: it appends '#_=_', and /_=_ leads to the dashboard. */
export const SOCIAL_RETURN_PATH = '/_=_';

declare module 'express-session' {
  interface SessionData {
    loginNext?: string;
    /** Why the last social login was refused, for the login page to say once. */
    socialLoginNotice?: string;
  }
}

export function facebookLogin(ctx: AppContext, accounts: AccountsService) {
  const { appId, appSecret } = ctx.config.facebook;
  if (!appId || !appSecret) return null;
  const passport = new Passport();
  passport.use(
    new FacebookStrategy(
      {
        clientID: appId,
        clientSecret: appSecret,
        callbackURL: ctx.config.site.url + FACEBOOK_CALLBACK_PATH,
        profileFields: ['id', 'emails', 'displayName'],
        state: true,
      },
      (_accessToken: string, _refreshToken: string, profile: Profile, done: (err: unknown, user?: Member | false) => void) => {
        // Facebook only returns confirmed addresses, so its email counts as verified.
        memberForSocialIdentity(ctx.db, {
          provider: 'facebook_id',
          id: profile.id,
          email: profile.emails?.[0]?.value,
          emailVerified: true,
          fullName: profile.displayName,
        }).then((m) => done(null, m), (err) => done(err));
      },
    ),
  );

  return {
    start(req: Request, res: Response, next: NextFunction) {
      req.session.loginNext = safeNextPath(req.query.next, SOCIAL_RETURN_PATH);
      passport.authenticate('facebook', { scope: ['email'], session: false })(req, res, next);
    },
    callback(req: Request, res: Response, next: NextFunction) {
      passport.authenticate('facebook', { session: false }, (err: unknown, member: Member | false) => {
        if (err || !member) {
          ctx.logger.info({ err }, 'facebook sign-in refused');
          const notice = err instanceof InactiveAccountError ? accounts.inactiveNotice(err.memberId) : Promise.resolve(undefined);
          notice
            .then((text) => {
              if (text) req.session.socialLoginNotice = text;
              res.redirect(302, '/accounts/login?social_error=1');
            })
            .catch(next);
          return;
        }
        const target = safeNextPath(req.session.loginNext, SOCIAL_RETURN_PATH);
        signIn(req, member)
          .then(() => accounts.recordLogin(member, req, 'facebook'))
          .then(() => res.redirect(302, target))
          .catch(next);
      })(req, res, next);
    },
  };
}
