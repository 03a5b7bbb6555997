import type { AppContext } from '../../context';
import { GUEST_FIELDS } from './schemas';
import { sendNewsletterEmail, type NewsletterIssue } from './newsletter-email';
import type { NewsletterType, Recipient } from './unsubscribe-token';

// Sends an issue to a newsletter's subscribers: active members who chose it, then guest
// subscriptions, skipping a guest address that already gets it as a member. Read a batch at a
// time by id, so a list of any size costs bounded memory. Each message goes through
// sendNewsletterEmail (the unsubscribe link and headers); a failed one is logged and counted.

const BATCH = 500;

async function* subscribers(ctx: Pick<AppContext, 'db'>, type: NewsletterType): AsyncGenerator<{ email: string; recipient: Recipient }> {
  const { db } = ctx;
  const column = `settings_receive_newsletter_${type}`;
  for (let after = 0; ; ) {
    const rows = await db('profiles').where({ is_active: true, [column]: true }).where('id', '>', after).orderBy('id').limit(BATCH).select('id', 'email');
    for (const r of rows) yield { email: r.email, recipient: { kind: 'member', id: Number(r.id) } };
    if (rows.length < BATCH) break;
    after = Number(rows.at(-1).id);
  }
  if (!(GUEST_FIELDS as readonly string[]).includes(type)) return;
  for (let after = 0; ; ) {
    const rows = await db('guest_newsletter_subscriptions as g')
      .where(`g.${type}`, true)
      .where('g.id', '>', after)
      .whereNotExists(db('profiles as p').whereRaw('lower(p.email) = lower(g.email)').where({ 'p.is_active': true, [`p.${column}`]: true }).select(db.raw('1')))
      .orderBy('g.id')
      .limit(BATCH)
      .select('g.id', 'g.email');
    for (const r of rows) yield { email: r.email, recipient: { kind: 'guest', id: Number(r.id) } };
    if (rows.length < BATCH) break;
    after = Number(rows.at(-1).id);
  }
}

export async function sendNewsletter(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'logger'>, type: NewsletterType, issue: NewsletterIssue): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for await (const to of subscribers(ctx, type)) {
    try {
      await sendNewsletterEmail(ctx, to, type, issue);
      sent += 1;
    } catch (err) {
      failed += 1;
      ctx.logger.error({ err, recipient: to.recipient, type }, 'newsletter email failed');
    }
  }
  return { sent, failed };
}
