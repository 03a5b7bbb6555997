import type { Request } from 'express';
import type { AppContext } from '../../context';
import { recordSignIn, type LoginMethod } from './login-history-queries';
import { ValidationError } from '../../http/errors';
import { hashPassword, verifyPassword } from './passwords';
import { passwordProblems } from './password-validation';
import {
  deleteMemberSessions,
  findMemberByEmail,
  findMemberById,
  insertMember,
  isUniqueViolation,
  recordLogin,
  setPasswordHash,
} from '../profiles/member-queries';
import { consumeToken, findLiveToken, issueResetToken } from './reset-token-queries';
import { resetPasswordEmail } from './password-reset-email';
import type { Member } from '../profiles/member';
import { emailTaken } from '../profiles/schemas';
import { createAuthRateLimits } from './rate-limits';

// Sign-up, sign-in and password management. Routers call these one call deep; errors are
// thrown as the DRF-shaped ValidationError the API and the pages both render.

export const messages = {
  emailTaken,
  badCredentials: 'Unable to log in with provided credentials.',
  wrongCurrentPassword: 'Your old password was entered incorrectly. Please enter it again.',
  badResetLink: 'The password reset link was invalid, possibly because it has already been used. Please request a new password reset.',
} as const;

// Verified when the email is unknown, so a guess at an address takes as long as a guess at a
// password and timing tells nothing about which addresses have accounts.
let dummyHash: Promise<string> | null = null;
const timingDummy = () => (dummyHash ??= hashPassword('not-a-real-password-only-for-timing'));

function rejectWeak(password: string, email: string, field: string): void {
  const problems = passwordProblems(password, email);
  if (problems.length) throw new ValidationError({ [field]: problems });
}

export type AccountsService = ReturnType<typeof createAccountsService>;

/**
 * Built once per app by the registry (apps/index.ts), so that the API, the full-page forms and
 * account deletion draw on one set of sign-in limiters: the forms must not be a way around the
 * API's limits (the limiters' rows are shared by prefix in the database in any case).
 */
export function createAccountsService({ db, mailer, config, now, logger, pendingDeletionNotice }: Pick<AppContext, 'db' | 'mailer' | 'config' | 'now' | 'logger' | 'pendingDeletionNotice'>) {
  return {
    /** Login, password-reset and sign-up limits, to put before the handlers (rate-limits.ts). */
    rateLimits: createAuthRateLimits(config.rateLimits, db),

    async register(email: string, password: string): Promise<Member> {
      rejectWeak(password, email, 'password');
      if (await findMemberByEmail(db, email)) throw ValidationError.field('email', messages.emailTaken);
      try {
        return await insertMember(db, { email, password_hash: await hashPassword(password) });
      } catch (err) {
        // CASE: two sign-ups for one address raced past the lookup; the unique index decides.
        if (isUniqueViolation(err)) throw ValidationError.field('email', messages.emailTaken);
        throw err;
      }
    },

    async authenticate(email: string, password: string): Promise<Member> {
      const found = await findMemberByEmail(db, email);
      if (!found) {
        await verifyPassword(await timingDummy(), password);
        throw ValidationError.nonField(messages.badCredentials);
      }
      const { password_hash, ...member } = found;
      if (!(await verifyPassword(password_hash, password))) throw ValidationError.nonField(messages.badCredentials);
      if (!member.is_active) {
        // CASE: closed for deletion by its owner. Only someone who knows the password learns
        // that (and where the undo link is); any other inactive account stays the generic refusal.
        const notice = await pendingDeletionNotice({ db, config, now }, member.id);
        throw ValidationError.nonField(notice ?? messages.badCredentials);
      }
      return member;
    },

    /** Why an inactive account a provider vouched for cannot sign in, when it is closed for deletion. */
    async inactiveNotice(memberId: number): Promise<string | undefined> {
      return pendingDeletionNotice({ db, config, now }, memberId);
    },

    /** After a successful sign-in (signIn): last_login, and a row of the member's login history. */
    async recordLogin(member: Member, req: Request, method: LoginMethod): Promise<void> {
      const at = now();
      await recordLogin(db, member.id, at);
      await recordSignIn(db, member.id, req, method, at);
    },

    /** Mails a one-time link when the address has an account; silent otherwise (no enumeration). */
    async requestPasswordReset(email: string): Promise<void> {
      const member = await findMemberByEmail(db, email);
      if (!member || !member.is_active) {
        logger.info('password reset requested for an unknown address');
        return;
      }
      const token = await issueResetToken(db, member.id, now());
      const message = resetPasswordEmail({ to: member.email, siteName: config.site.name, link: `${config.site.url}/accounts/reset/${token}/` });
      // Sent in the background: waiting for the mail server would make known addresses
      // answer measurably slower than unknown ones.
      mailer.send(message).catch((err) => logger.error({ err }, 'password reset email failed'));
    },

    /** The member a reset link belongs to, if it is still good (for showing the form). */
    async memberForResetToken(token: string): Promise<Member | undefined> {
      const id = await findLiveToken(db, token, now());
      return id ? findMemberById(db, id) : undefined;
    },

    async resetPassword(token: string, newPassword: string): Promise<Member> {
      const member = await this.memberForResetToken(token);
      if (!member) throw ValidationError.nonField(messages.badResetLink);
      rejectWeak(newPassword, member.email, 'new_password');
      const hash = await hashPassword(newPassword);
      const owner = await consumeToken(db, token, now());
      if (owner !== member.id) throw ValidationError.nonField(messages.badResetLink);
      await setPasswordHash(db, member.id, hash);
      await deleteMemberSessions(db, member.id);
      return member;
    },

    async changePassword(member: Member, currentPassword: string, newPassword: string, currentSid: string): Promise<void> {
      const found = await findMemberByEmail(db, member.email);
      if (!found || !(await verifyPassword(found.password_hash, currentPassword))) {
        throw ValidationError.field('current_password', messages.wrongCurrentPassword);
      }
      rejectWeak(newPassword, member.email, 'new_password');
      await setPasswordHash(db, member.id, await hashPassword(newPassword));
      // Other devices are signed out; this one stays signed in (Django's update_session_auth_hash).
      await deleteMemberSessions(db, member.id, currentSid);
    },
  };
}
