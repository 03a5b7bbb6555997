import { z } from 'zod';
import { LIMITS, NEWSLETTER_SETTING_KEYS, type NewsletterSettingKey } from '../../../shared/constants';
import { base64ImageField } from '../media/base64-jpeg';

const tooLong = (n: number) => `Ensure this field has no more than ${n} characters.`;

// A member's email address: unique (emailTaken), compared in lower case. Sign-up and sign-in
// (accounts) read it the same way.
export const emailField = z
  .string()
  .trim()
  .min(1, { message: 'This field may not be blank.', abort: true })
  .max(LIMITS.emailMax, { message: tooLong(LIMITS.emailMax), abort: true })
  .email('Enter a valid email address.')
  .transform((v) => v.toLowerCase());
export const emailTaken = 'A user with that email already exists.';

const bool = z.boolean({ message: 'Must be a valid boolean.' });
const name = z.string().trim().max(LIMITS.nameMax, tooLong(LIMITS.nameMax));

const settings = Object.fromEntries(NEWSLETTER_SETTING_KEYS.map((k) => [k, bool.optional()])) as Record<NewsletterSettingKey, z.ZodOptional<typeof bool>>;

// PATCH: any subset of the editable fields (spec 1 §7: the email and newsletter settings, or
// the name, or the photo). Unknown fields are ignored, as DRF ignores read-only ones.
export const profilePatchSchema = z.object({
  email: emailField.optional(),
  full_name: name.optional(),
  first_name: name.optional(),
  last_name: name.optional(),
  sync_bookmarked_events_to_google_calendar: bool.nullable().optional(),
  /** The profile photo: a JPEG as base64 (a data: URL is fine), or null to remove it (service.ts). */
  avatar: base64ImageField.nullable().optional(),
  ...settings,
});
export type ProfilePatch = z.infer<typeof profilePatchSchema>;

// PUT: a whole update as DRF does it, so the required field (email) must be there; the
// islands send {id, email, sync_bookmarked_events_to_google_calendar}.
export const profilePutSchema = profilePatchSchema.extend({
  id: z.number().int().optional(),
  email: emailField,
});
