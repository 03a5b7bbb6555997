import crypto from 'node:crypto';
import type { AppContext } from '../../context';
import { GUEST_FIELDS, offeredGuestFields, offeredNewsletters, type GuestField } from './schemas';
import { upsertGuestSubscription } from './queries';

export type GuestSubscription = { email: string } & Record<GuestField, boolean>;

export type NewslettersService = ReturnType<typeof createNewslettersService>;

/** Guest subscriptions, built once per app by the registry (apps/index.ts). */
export function createNewslettersService({ db, config }: Pick<AppContext, 'db' | 'config'>) {
  return {
    /** The newsletters this deployment offers (schemas.ts: the feature flags decide). */
    offered() {
      return offeredNewsletters(config);
    },

    /**
     * Creates or updates the guest subscription for an email (one row per address, whatever its
     * case). Only the choices sent change; a newsletter the site does not offer stays off.
     */
    async subscribeGuest(input: { email: string } & Partial<Record<GuestField, boolean>>): Promise<{ subscription: GuestSubscription; created: boolean }> {
      const offered = new Set(offeredGuestFields(offeredNewsletters(config)));
      const chosen = GUEST_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, offered.has(f) && Boolean(input[f])] as const);
      const insert = Object.fromEntries(GUEST_FIELDS.map((f) => [f, false]));
      for (const [f, v] of chosen) insert[f] = v;
      const row = await upsertGuestSubscription(db, input.email, insert, chosen.map(([f]) => f), crypto.randomBytes(24).toString('base64url'));
      const { created, ...subscription } = row;
      return { subscription: subscription as GuestSubscription, created: Boolean(created) };
    },
  };
}
