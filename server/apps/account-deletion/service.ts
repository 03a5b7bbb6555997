import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { verifyPassword } from '../accounts/passwords';
import { deleteMemberSessions } from '../profiles/member-queries';
import type { Member } from '../profiles/member';
import { accountClosedEmail, confirmDeletionEmail, purgeTime } from './deletion-emails';
import { hashOfSubmitted, newToken } from './deletion-tokens';
import { deleteByEmailSchema, deleteWithPasswordSchema, messages, type ContentChoice } from './schemas';
import {
  countMemberPhotos, countSubmittedEvents, deactivateProfile, deleteDeletionRequest, findPendingConfirmation, findUndoable,
  lockUndoableDeletion, passwordHashOf, reactivateProfile, upsertConfirmationRequest, upsertScheduledDeletion,
} from './queries';

// Delete my account: the request (password re-entered, or an emailed confirmation for members
// who have no password), the seven days in which the undo link restores everything, and the
// state the purge (purge-job.ts) reads. Scheduling closes the account at once: is_active false
// (login, social login, password reset and every session's member lookup refuse an inactive
// profile) and every session row of the member deleted, on all devices.

export const UNDO_PERIOD_MS = 7 * 24 * 3600 * 1000;
export const CONFIRM_LINK_TTL_MS = 24 * 3600 * 1000;

export const deletionMessages = {
  badConfirmLink: 'This link is invalid or has expired. Log in and ask again.',
  badUndoLink: 'This link is invalid or the seven days are over.',
} as const;

export type DeletionRequestOutcome = { status: 'scheduled' } | { status: 'emailed'; email: string };

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>;

export function createAccountDeletionService(ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'now' | 'logger'>) {
  const { db, mailer, config, logger } = ctx;
  const siteName = config.site.name;

  /** Closes the account and mails the undo link; one transaction for the closing. */
  async function schedule(profileId: number, content: ContentChoice): Promise<void> {
    const now = ctx.now();
    const purgeAfter = new Date(now.getTime() + UNDO_PERIOD_MS);
    const undo = newToken();
    const email = await db.transaction(async (trx) => {
      await upsertScheduledDeletion(trx, profileId, { content, undo_token_hash: undo.hash, requested_at: now, purge_after: purgeAfter, confirm_token_hash: null, confirm_expires_at: null });
      const closed = await deactivateProfile(trx, profileId);
      await deleteMemberSessions(trx, profileId);
      return closed;
    });
    const message = accountClosedEmail({ to: email, siteName, undoLink: `${config.site.url}/accounts/delete/undo/${undo.token}/`, purgeAfter, timeZone: config.city.timeZone, content });
    // The account is closed whatever the mail server says; a failure is logged for staff, who
    // can restore the account by hand within the seven days.
    await mailer.send(message).catch((err) => logger.error({ err, profileId }, 'account deletion: undo email failed'));
  }

  return {
    async hasPassword(memberId: number): Promise<boolean> {
      return Boolean(await passwordHashOf(db, memberId));
    },

    /** How many photos and submitted events the choice is about (shown on the form). */
    async contentCounts(memberId: number): Promise<{ photos: number; events: number }> {
      const [photos, events] = await Promise.all([countMemberPhotos(db, memberId), countSubmittedEvents(db, memberId)]);
      return { photos, events };
    },

    /** The form's POST: a wrong password is a 400 naming `password`, and nothing changes. */
    async request(member: Member, body: unknown): Promise<DeletionRequestOutcome> {
      const hash = await passwordHashOf(db, member.id);
      if (hash) {
        const { password, content } = validate(deleteWithPasswordSchema, body);
        if (!(await verifyPassword(hash, password))) throw ValidationError.field('password', messages.wrongPassword);
        await schedule(member.id, content);
        return { status: 'scheduled' };
      }
      // CASE: Facebook or Apple only; the emailed link proves the request is the owner's.
      const { content } = validate(deleteByEmailSchema, body);
      const confirm = newToken();
      await upsertConfirmationRequest(db, member.id, { content, confirm_token_hash: confirm.hash, confirm_expires_at: new Date(ctx.now().getTime() + CONFIRM_LINK_TTL_MS) });
      const link = `${config.site.url}/accounts/delete/confirm/${confirm.token}/`;
      await mailer.send(confirmDeletionEmail({ to: member.email, siteName, confirmLink: link, hours: CONFIRM_LINK_TTL_MS / 3600_000 }));
      return { status: 'emailed', email: member.email };
    },

    /** The request a confirmation link stands for, while it is good. */
    async pendingConfirmation(token: string): Promise<{ profileId: number; email: string; content: ContentChoice } | undefined> {
      const hash = hashOfSubmitted(token);
      if (!hash) return undefined;
      const row = await findPendingConfirmation(db, hash, ctx.now());
      return row ? { profileId: Number(row.profile_id), email: row.email, content: row.content } : undefined;
    },

    async confirm(token: string): Promise<void> {
      const pending = await this.pendingConfirmation(token);
      if (!pending) throw ValidationError.nonField(deletionMessages.badConfirmLink);
      await schedule(pending.profileId, pending.content);
    },

    /** The closed account an undo link restores, while the seven days last. */
    async undoable(token: string): Promise<{ email: string; purgeAfter: string } | undefined> {
      const hash = hashOfSubmitted(token);
      if (!hash) return undefined;
      const row = await findUndoable(db, hash, ctx.now());
      return row ? { email: row.email, purgeAfter: purgeTime(new Date(row.purge_after), config.city.timeZone) } : undefined;
    },

    /** Restores the account as it was; the member logs in again as before. */
    async undo(token: string): Promise<{ email: string }> {
      const hash = hashOfSubmitted(token);
      const restored = hash
        ? await db.transaction(async (trx) => {
            // Locked, so a purge running now either finishes first (and this finds nothing) or waits.
            const profileId = await lockUndoableDeletion(trx, hash, ctx.now());
            if (profileId === undefined) return undefined;
            await deleteDeletionRequest(trx, profileId);
            return { email: await reactivateProfile(trx, profileId) };
          })
        : undefined;
      if (!restored) throw ValidationError.nonField(deletionMessages.badUndoLink);
      return restored;
    },
  };
}
