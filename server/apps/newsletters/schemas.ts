import { z } from 'zod';
import { LIMITS, NEWSLETTERS } from '../../../shared/constants';
import type { Config } from '../../config';

// The guest subscription of spec 2 §3: an email and one boolean per newsletter.

export const GUEST_FIELDS = ['news', 'foods', 'events', 'promotions', 'contests', 'real_estate', 'travel'] as const;
export type GuestField = (typeof GUEST_FIELDS)[number];

export const emailField = z
  .string({ message: 'This field is required.' })
  .trim()
  .min(1, 'This field may not be blank.')
  .max(LIMITS.emailMax, `Ensure this field has no more than ${LIMITS.emailMax} characters.`)
  .pipe(z.email({ message: 'Enter a valid email address.' }));

/** JSON API: booleans; a field left out keeps its stored value (false for a new subscriber). */
export const guestSubscriptionSchema = z.object({
  email: emailField,
  ...Object.fromEntries(GUEST_FIELDS.map((f) => [f, z.boolean({ message: 'Must be a valid boolean.' }).optional()])),
}) as z.ZodType<{ email: string } & Partial<Record<GuestField, boolean>>>;

/** HTML form: a ticked checkbox sends 'on' (or 'true'); an unticked one sends nothing. */
export function choicesFromForm(body: Record<string, unknown>): Partial<Record<GuestField, boolean>> {
  const ticked = (v: unknown) => v === 'on' || v === 'true' || v === '1';
  return Object.fromEntries(GUEST_FIELDS.map((f) => [f, ticked(body[f])]));
}

/** The guest fields of the newsletters this site offers (features off hide theirs). */
export function offeredGuestFields(offered: ReadonlyArray<(typeof NEWSLETTERS)[number]>): GuestField[] {
  return offered.map((n) => n.guestField).filter((f): f is GuestField => f !== null);
}

/** The newsletters this deployment offers: spec 2 §3 filtered by the feature flags. */
export function offeredNewsletters(config: Config) {
  return NEWSLETTERS.filter((n) => !n.requires || config.flags[n.requires]);
}

/** Whether this deployment sends the type's newsletter (its section's feature flag is on). */
export function isNewsletterOffered(config: Config, type: string): boolean {
  return offeredNewsletters(config).some((n) => n.id === `settings_receive_newsletter_${type}`);
}
