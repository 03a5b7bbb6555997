import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import { GUEST_FIELDS } from './schemas';
import { sendNewsletterEmail, type NewsletterIssue } from './newsletter-email';
import type { NewsletterType, Recipient } from './unsubscribe-token';
import { claimSend, finishSend, guestSubscribers, memberSubscribers, recordSendProgress } from './newsletter-send-queries';

// Sends an issue to a newsletter's subscribers: active members who chose it, then guest
// subscriptions, skipping a guest address that already gets it as a member. Read a batch at a
// time by id, so a list of any size costs bounded memory. Each message goes through
// sendNewsletterEmail (the unsubscribe link and headers); a failed one is logged and counted.
//
// Each issue is sent once (newsletter_sends): the position reached is saved after every
// message, so running the command again for an issue already sent sends nothing, a send that
// died carries on after the last recipient done (one reader may get a second copy: the one in
// flight), and a second run while one is going is refused, by a lease it renews as it goes.

const BATCH = 500;
/** A send that saved no progress for this long is taken as dead: another run may carry it on. */
export const SEND_LEASE_SECONDS = 300;

type Phase = 'member' | 'guest';

async function* subscribers(ctx: Pick<AppContext, 'db'>, type: NewsletterType, from: Record<Phase, number>): AsyncGenerator<{ email: string; recipient: Recipient }> {
  const { db } = ctx;
  for (let after = from.member; ; ) {
    const rows = await memberSubscribers(db, type, after, BATCH);
    for (const r of rows) yield { email: r.email, recipient: { kind: 'member', id: Number(r.id) } };
    if (rows.length < BATCH) break;
    after = Number(rows.at(-1)!.id);
  }
  if (!(GUEST_FIELDS as readonly string[]).includes(type)) return;
  for (let after = from.guest; ; ) {
    const rows = await guestSubscribers(db, type, after, BATCH);
    for (const r of rows) yield { email: r.email, recipient: { kind: 'guest', id: Number(r.id) } };
    if (rows.length < BATCH) break;
    after = Number(rows.at(-1)!.id);
  }
}

/** What identifies an issue: its subject and items (a changed item is a new issue). */
export function issueKey(issue: NewsletterIssue): string {
  return createHash('sha256')
    .update(JSON.stringify([issue.subject, issue.items.map((i) => [i.title, i.url, i.blurb ?? null])]))
    .digest('hex');
}

export type SendOutcome =
  | { status: 'sent'; sent: number; failed: number; resumed: boolean }
  | { status: 'already-sent'; sent: number; failed: number; finishedAt: Date }
  | { status: 'running'; startedAt: Date; runningUntil: Date };

export async function sendNewsletter(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'logger'>, type: NewsletterType, issue: NewsletterIssue): Promise<SendOutcome> {
  const { db } = ctx;
  const { row, claimed } = await claimSend(db, type, issueKey(issue), issue.subject, SEND_LEASE_SECONDS);
  if (!claimed) {
    return row.finished_at
      ? { status: 'already-sent', sent: row.sent, failed: row.failed, finishedAt: new Date(row.finished_at) }
      : { status: 'running', startedAt: new Date(row.started_at), runningUntil: new Date(row.running_until!) };
  }
  const resumed = row.sent + row.failed > 0;
  let sent = row.sent;
  let failed = row.failed;
  for await (const to of subscribers(ctx, type, { member: row.member_cursor, guest: row.guest_cursor })) {
    let ok = true;
    try {
      await sendNewsletterEmail(ctx, to, type, issue);
      sent += 1;
    } catch (err) {
      ok = false;
      failed += 1;
      ctx.logger.error({ err, recipient: to.recipient, type }, 'newsletter email failed');
    }
    await recordSendProgress(db, row.id, to.recipient, ok, SEND_LEASE_SECONDS);
  }
  await finishSend(db, row.id);
  return { status: 'sent', sent, failed, resumed };
}
