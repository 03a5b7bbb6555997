import type { Db } from '../../db';
import type { NewsletterType, Recipient } from './unsubscribe-token';

// What sending an issue reads and writes (newsletter-send-job.ts): its subscribers a batch at a
// time in id order, and its row in newsletter_sends (the position reached, the lease, the counts).

/** Active members who chose the newsletter, with id > `after`, in id order. */
export async function memberSubscribers(db: Db, type: NewsletterType, after: number, limit: number): Promise<Array<{ id: number; email: string }>> {
  const column = `settings_receive_newsletter_${type}`;
  return db('profiles').where({ is_active: true, [column]: true }).where('id', '>', after).orderBy('id').limit(limit).select('id', 'email');
}

/** Guest subscriptions to the newsletter, with id > `after`, in id order, but for addresses a member getting it has. */
export async function guestSubscribers(db: Db, type: NewsletterType, after: number, limit: number): Promise<Array<{ id: number; email: string }>> {
  const column = `settings_receive_newsletter_${type}`;
  return db('guest_newsletter_subscriptions as g')
    .where(`g.${type}`, true)
    .where('g.id', '>', after)
    .whereNotExists(db('profiles as p').whereRaw('lower(p.email) = lower(g.email)').where({ 'p.is_active': true, [`p.${column}`]: true }).select(db.raw('1')))
    .orderBy('g.id')
    .limit(limit)
    .select('g.id', 'g.email');
}

export interface SendRow {
  id: number;
  started_at: Date;
  finished_at: Date | null;
  running_until: Date | null;
  member_cursor: number;
  guest_cursor: number;
  sent: number;
  failed: number;
}

/**
 * Takes the issue's send for this run: made if new, or taken over once its lease ran out; the
 * lease then runs `leaseSeconds`.
 */
export async function claimSend(db: Db, type: NewsletterType, key: string, subject: string, leaseSeconds: number): Promise<{ row: SendRow; claimed: boolean }> {
  await db('newsletter_sends').insert({ type, issue_key: key, subject }).onConflict(['type', 'issue_key']).ignore();
  const [taken] = await db('newsletter_sends')
    .where({ type, issue_key: key })
    .whereNull('finished_at')
    .where((q) => q.whereNull('running_until').orWhere('running_until', '<', db.fn.now()))
    .update({ running_until: db.raw(`now() + interval '${leaseSeconds} seconds'`) })
    .returning('*');
  if (taken) return { row: taken, claimed: true };
  return { row: await db('newsletter_sends').where({ type, issue_key: key }).first(), claimed: false };
}

/**
 * Moves the position past a recipient before their message goes, and renews the lease: a send
 * that dies while the message is in flight carries on after them and never sends it twice.
 */
export async function passRecipient(db: Db, sendId: number, recipient: Recipient, leaseSeconds: number): Promise<void> {
  await db('newsletter_sends')
    .where({ id: sendId })
    .update({
      [recipient.kind === 'member' ? 'member_cursor' : 'guest_cursor']: recipient.id,
      running_until: db.raw(`now() + interval '${leaseSeconds} seconds'`),
    });
}

/** Counts the message just given to the mailer, sent or failed. */
export async function countSendResult(db: Db, sendId: number, ok: boolean): Promise<void> {
  await db('newsletter_sends')
    .where({ id: sendId })
    .update({ [ok ? 'sent' : 'failed']: db.raw(`${ok ? 'sent' : 'failed'} + 1`) });
}

export async function finishSend(db: Db, sendId: number): Promise<void> {
  await db('newsletter_sends').where({ id: sendId }).update({ finished_at: db.fn.now(), running_until: null });
}
