import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import { GUEST_FIELDS, isNewsletterOffered } from './schemas';
import { sendNewsletterEmail, type NewsletterIssue } from './newsletter-email';
import { NEWSLETTER_TYPES, type NewsletterType, type Recipient } from './unsubscribe-token';
import { currentIssue } from './newsletter-issue-queries';
import { claimSend, countSendResult, finishSend, guestSubscribers, memberSubscribers, passRecipient } from './newsletter-send-queries';

// Sends an issue to a newsletter's subscribers: active members who chose it, then guest
// subscriptions, skipping a guest address that already gets it as a member. Read a batch at a
// time by id, so a list of any size costs bounded memory. Each message goes through
// sendNewsletterEmail (the unsubscribe link and headers); a failed one is logged and counted.
//
// Each issue is sent once (newsletter_sends): the position is moved past each recipient before
// their message goes, so running it again for an issue already sent sends nothing, a send that
// died carries on after the last recipient reached and never sends anyone a second copy (the
// message in flight when it died may not have arrived: that reader is logged), and a second run
// while one is going is refused, by a lease it renews as it goes. It runs as the queue's
// newsletter.send job (runNewsletterSendJob) or from `npm run newsletters:send`.

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
  const resumed = row.sent + row.failed > 0 || row.member_cursor > 0 || row.guest_cursor > 0;
  if (resumed) {
    const last = row.guest_cursor > 0 ? { kind: 'guest', id: row.guest_cursor } : { kind: 'member', id: row.member_cursor };
    ctx.logger.warn({ type, recipient: last, sent: row.sent, failed: row.failed }, 'newsletter send carried on after a send that stopped: its last recipient is not sent again (that message may not have arrived)');
  }
  let sent = row.sent;
  let failed = row.failed;
  for await (const to of subscribers(ctx, type, { member: row.member_cursor, guest: row.guest_cursor })) {
    await passRecipient(db, row.id, to.recipient, SEND_LEASE_SECONDS);
    let ok = true;
    try {
      await sendNewsletterEmail(ctx, to, type, issue);
      sent += 1;
    } catch (err) {
      ok = false;
      failed += 1;
      ctx.logger.error({ err, recipient: to.recipient, type }, 'newsletter email failed');
    }
    await countSendResult(db, row.id, ok);
  }
  await finishSend(db, row.id);
  return { status: 'sent', sent, failed, resumed };
}

/** The queue's job that sends a newsletter's current issue: `{ type }`, once per type waiting. */
export const NEWSLETTER_SEND_JOB = 'newsletter.send';

/**
 * The newsletter.send job: sends the type's current issue (nothing when there is nothing new
 * or it went already). A send still held by another run's lease throws, so the queue retries it
 * later: after a process died mid-send, the retry that comes once the lease ran out carries it on.
 */
export async function runNewsletterSendJob(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'logger' | 'now'>, data: unknown): Promise<SendOutcome | null> {
  const type = (data as { type?: unknown } | null)?.type;
  if (!(NEWSLETTER_TYPES as readonly unknown[]).includes(type)) throw new Error(`${NEWSLETTER_SEND_JOB}: bad job data ${JSON.stringify(data)}`);
  const t = type as NewsletterType;
  if (!isNewsletterOffered(ctx.config, t)) {
    ctx.logger.warn({ type: t }, 'newsletter send job for a newsletter that is off: nothing sent');
    return null;
  }
  const issue = await currentIssue(ctx, t);
  if (!issue) return null;
  const outcome = await sendNewsletter(ctx, t, issue);
  if (outcome.status === 'running') throw new Error(`another send of the ${t} issue holds its lease until ${outcome.runningUntil.toISOString()}`);
  ctx.logger.info({ type: t, outcome }, 'newsletter send job done');
  return outcome;
}
