import type { AppContext } from '../../context';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { verifyPassword } from '../accounts/passwords';
import { deleteMemberSessions } from '../profiles/member-queries';
import type { Member } from '../profiles/member';
import { accountClosedEmail, confirmDeletionEmail, purgeTime } from './emails';
import { hashOfSubmitted, newToken } from './deletion-tokens';
import { deleteByEmailSchema, deleteWithPasswordSchema, messages, type ContentChoice } from './schemas';

// Delete my account: the request (password re-entered, or an emailed confirmation for members
// who have no password), the seven days in which the undo link restores everything, and the
// state the purge (purge.ts) reads. Scheduling closes the account at once: is_active false
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

  async function passwordHashOf(memberId: number): Promise<string | null> {
    const row = await db('profiles').where({ id: memberId }).first('password_hash');
    return row?.password_hash ?? null;
  }

  /** Closes the account and mails the undo link; one transaction for the closing. */
  async function schedule(profileId: number, content: ContentChoice): Promise<void> {
    const now = ctx.now();
    const purgeAfter = new Date(now.getTime() + UNDO_PERIOD_MS);
    const undo = newToken();
    const email = await db.transaction(async (trx) => {
      const fields = { content, undo_token_hash: undo.hash, requested_at: now, purge_after: purgeAfter, confirm_token_hash: null, confirm_expires_at: null };
      await trx('account_deletions').insert({ profile_id: profileId, ...fields }).onConflict('profile_id').merge();
      const [profile] = await trx('profiles').where({ id: profileId }).update({ is_active: false }).returning('email');
      await deleteMemberSessions(trx, profileId);
      return String(profile.email);
    });
    const message = accountClosedEmail({ to: email, siteName, undoLink: `${config.site.url}/accounts/delete/undo/${undo.token}/`, purgeAfter, timeZone: config.city.timeZone, content });
    // The account is closed whatever the mail server says; a failure is logged for staff, who
    // can restore the account by hand within the seven days.
    await mailer.send(message).catch((err) => logger.error({ err, profileId }, 'account deletion: undo email failed'));
  }

  return {
    async hasPassword(memberId: number): Promise<boolean> {
      return Boolean(await passwordHashOf(memberId));
    },

    /** How many photos and submitted events the choice is about (shown on the form). */
    async contentCounts(memberId: number): Promise<{ photos: number; events: number }> {
      const [photos, events] = await Promise.all([
        db('photos').where({ profile_id: memberId }).first(db.raw('count(*)::int as n')),
        db('events').where({ submitted_by: memberId }).first(db.raw('count(*)::int as n')),
      ]);
      return { photos: Number(photos?.n ?? 0), events: Number(events?.n ?? 0) };
    },

    /** The form's POST: a wrong password is a 400 naming `password`, and nothing changes. */
    async request(member: Member, body: unknown): Promise<DeletionRequestOutcome> {
      const hash = await passwordHashOf(member.id);
      if (hash) {
        const { password, content } = validate(deleteWithPasswordSchema, body);
        if (!(await verifyPassword(hash, password))) throw ValidationError.field('password', messages.wrongPassword);
        await schedule(member.id, content);
        return { status: 'scheduled' };
      }
      // CASE: Facebook or Apple only; the emailed link proves the request is the owner's.
      const { content } = validate(deleteByEmailSchema, body);
      const confirm = newToken();
      await db('account_deletions')
        .insert({ profile_id: member.id, content, confirm_token_hash: confirm.hash, confirm_expires_at: new Date(ctx.now().getTime() + CONFIRM_LINK_TTL_MS) })
        .onConflict('profile_id')
        .merge();
      const link = `${config.site.url}/accounts/delete/confirm/${confirm.token}/`;
      await mailer.send(confirmDeletionEmail({ to: member.email, siteName, confirmLink: link, hours: CONFIRM_LINK_TTL_MS / 3600_000 }));
      return { status: 'emailed', email: member.email };
    },

    /** The request a confirmation link stands for, while it is good. */
    async pendingConfirmation(token: string): Promise<{ profileId: number; email: string; content: ContentChoice } | undefined> {
      const hash = hashOfSubmitted(token);
      if (!hash) return undefined;
      const row = await db('account_deletions as d')
        .join('profiles as p', 'p.id', 'd.profile_id')
        .where({ 'd.confirm_token_hash': hash, 'p.is_active': true })
        .whereNull('d.requested_at')
        .where('d.confirm_expires_at', '>', ctx.now())
        .first('d.profile_id', 'd.content', 'p.email');
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
      const row = await db('account_deletions as d')
        .join('profiles as p', 'p.id', 'd.profile_id')
        .where({ 'd.undo_token_hash': hash })
        .where('d.purge_after', '>', ctx.now())
        .first('p.email', 'd.purge_after');
      return row ? { email: row.email, purgeAfter: purgeTime(new Date(row.purge_after), config.city.timeZone) } : undefined;
    },

    /** Restores the account as it was; the member logs in again as before. */
    async undo(token: string): Promise<{ email: string }> {
      const hash = hashOfSubmitted(token);
      const restored = hash
        ? await db.transaction(async (trx) => {
            // Locked, so a purge running now either finishes first (and this finds nothing) or waits.
            const row = await trx('account_deletions').where({ undo_token_hash: hash }).where('purge_after', '>', ctx.now()).forUpdate().first('profile_id');
            if (!row) return undefined;
            await trx('account_deletions').where({ profile_id: row.profile_id }).delete();
            const [profile] = await trx('profiles').where({ id: row.profile_id }).update({ is_active: true }).returning('email');
            return { email: String(profile.email) };
          })
        : undefined;
      if (!restored) throw ValidationError.nonField(deletionMessages.badUndoLink);
      return restored;
    },
  };
}
