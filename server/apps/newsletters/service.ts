import crypto from 'node:crypto';
import type { Db } from '../../db';
import type { Config } from '../../config';
import { NEWSLETTERS } from '../../../shared/constants';
import { GUEST_FIELDS, offeredGuestFields, type GuestField } from './schemas';

export type GuestSubscription = { email: string } & Record<GuestField, boolean>;

/** The newsletters this deployment offers: spec 2 §3 filtered by the feature flags. */
export function offeredNewsletters(config: Config) {
  return NEWSLETTERS.filter((n) => !n.requires || config.flags[n.requires]);
}

/**
 * Creates or updates the guest subscription for an email (one row per address, whatever its
 * case). Only the choices sent change; a newsletter the site does not offer stays off.
 */
export async function subscribeGuest(
  db: Db,
  config: Config,
  input: { email: string } & Partial<Record<GuestField, boolean>>,
): Promise<{ subscription: GuestSubscription; created: boolean }> {
  const offered = new Set(offeredGuestFields(offeredNewsletters(config)));
  const chosen = GUEST_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, offered.has(f) && Boolean(input[f])] as const);
  const insert = Object.fromEntries(GUEST_FIELDS.map((f) => [f, false]));
  for (const [f, v] of chosen) insert[f] = v;
  const updates = chosen.map(([f]) => `${f} = excluded.${f}`);
  const columns = ['email', ...GUEST_FIELDS, 'unsubscribe_token'];
  const values = [input.email, ...GUEST_FIELDS.map((f) => insert[f]), crypto.randomBytes(24).toString('base64url')];
  // xmax = 0 only for a freshly inserted row: how PostgreSQL tells insert from update here.
  const result = await db.raw(
    `insert into guest_newsletter_subscriptions (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
     on conflict ((lower(email))) do update set ${[...updates, 'date_updated = now()'].join(', ')}
     returning email, ${GUEST_FIELDS.join(', ')}, (xmax = 0) as created`,
    values,
  );
  const row = result.rows[0] as GuestSubscription & { created: boolean };
  const { created, ...subscription } = row;
  return { subscription: subscription as GuestSubscription, created: Boolean(created) };
}
