import type { Db } from '../../db';
import { NEWSLETTERS } from '../../../shared/constants';
import { GUEST_FIELDS, type GuestField } from './schemas';
import { NEWSLETTER_TYPES, type NewsletterType, type UnsubscribeGrant } from './unsubscribe-token';

// Turning newsletters off for the recipient an unsubscribe link names: a member's
// settings_receive_newsletter_* or a guest subscription's columns. Effective at once; saying it
// twice is harmless, and a recipient who no longer exists (a deleted account) has nothing to turn off.

export function newsletterName(type: NewsletterType): string {
  return NEWSLETTERS.find((n) => n.id === `settings_receive_newsletter_${type}`)?.name ?? type;
}

/** The address a grant's recipient has now; null when it is gone. */
export async function recipientEmail(db: Db, grant: UnsubscribeGrant): Promise<string | null> {
  const row = grant.kind === 'member' ? await db('profiles').where({ id: grant.id }).first('email') : await db('guest_newsletter_subscriptions').where({ id: grant.id }).first('email');
  return row ? String(row.email) : null;
}

/** Unsubscribes the grant's recipient from its newsletter, or from all when `all` (or the grant says so). */
export async function unsubscribe(db: Db, grant: UnsubscribeGrant, all: boolean): Promise<void> {
  const types: NewsletterType[] = all || grant.newsletter === 'all' ? NEWSLETTER_TYPES : [grant.newsletter as NewsletterType];
  if (grant.kind === 'member') {
    await db('profiles')
      .where({ id: grant.id })
      .update(Object.fromEntries(types.map((t) => [`settings_receive_newsletter_${t}`, false])));
    return;
  }
  const fields = types.filter((t): t is GuestField => (GUEST_FIELDS as readonly string[]).includes(t));
  if (!fields.length) return;
  await db('guest_newsletter_subscriptions')
    .where({ id: grant.id })
    .update({ ...Object.fromEntries(fields.map((f) => [f, false])), date_updated: db.fn.now() });
}
