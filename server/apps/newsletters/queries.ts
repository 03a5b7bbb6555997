import type { Db } from '../../db';
import { GUEST_FIELDS, type GuestField } from './schemas';
import type { GuestSubscription } from './service';

/**
 * Inserts the guest subscription for an email with `insert`'s choices, or, when the address
 * has one (whatever its case), sets only the `changed` fields from them.
 */
export async function upsertGuestSubscription(
  db: Db,
  email: string,
  insert: Record<string, boolean>,
  changed: readonly GuestField[],
  unsubscribeToken: string,
): Promise<GuestSubscription & { created: boolean }> {
  const updates = changed.map((f) => `${f} = excluded.${f}`);
  const columns = ['email', ...GUEST_FIELDS, 'unsubscribe_token'];
  const values = [email, ...GUEST_FIELDS.map((f) => insert[f]), unsubscribeToken];
  // xmax = 0 only for a freshly inserted row: how PostgreSQL tells insert from update here.
  const result = await db.raw(
    `insert into guest_newsletter_subscriptions (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
     on conflict ((lower(email))) do update set ${[...updates, 'date_updated = now()'].join(', ')}
     returning email, ${GUEST_FIELDS.join(', ')}, (xmax = 0) as created`,
    values,
  );
  return result.rows[0] as GuestSubscription & { created: boolean };
}
