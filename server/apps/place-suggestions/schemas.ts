import { z } from 'zod';
import { isDay } from '../../../shared/events-hub';
import { emailField } from '../newsletters/schemas';
import { SUGGESTION_KINDS, SUGGESTION_NOTE_MAX, type SuggestionKind } from '../../../shared/place-suggestions';
import { normalisePhone, PLACE_ADDRESS_MAX, PLACE_NAME_MAX, PLACE_WEBSITE_MAX } from '../../../shared/places-desk';

// The "Suggest an edit" form (/places/{id}/suggest/): the kind, then the one field that kind
// needs (hours are read by the desk's hoursFromForm in the service), an optional note, and a
// guest's optional email to be told. Each refusal names its field, as the form shows it.

const REQUIRED = 'This field is required.';
const tooLong = (max: number) => `Ensure this field has no more than ${max} characters.`;
const text = (max: number) => z.string().trim().max(max, tooLong(max)).optional().default('');

export const suggestionFormSchema = z
  .object({
    kind: z.enum(SUGGESTION_KINDS, { message: 'Choose what is wrong.' }),
    closed_on: text(10),
    address: text(PLACE_ADDRESS_MAX),
    phone: text(40),
    website: text(PLACE_WEBSITE_MAX),
    name: text(PLACE_NAME_MAX),
    note: text(SUGGESTION_NOTE_MAX),
    guest_email: z.union([z.literal(''), emailField]).optional().default(''),
  })
  .superRefine((f, ctx) => {
    const need = (field: 'address' | 'phone' | 'website' | 'name') => {
      if (f[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: REQUIRED });
      return f[field] !== '';
    };
    if (f.kind === 'closed' && f.closed_on !== '' && !isDay(f.closed_on)) ctx.addIssue({ code: 'custom', path: ['closed_on'], message: 'Not a real day: give it as YYYY-MM-DD.' });
    if (f.kind === 'moved') need('address');
    if (f.kind === 'name') need('name');
    if (f.kind === 'phone' && need('phone') && !normalisePhone(f.phone)) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'Enter a phone number with its area code, like 416-555-0100.' });
    if (f.kind === 'website' && need('website') && !isWebAddress(f.website)) ctx.addIssue({ code: 'custom', path: ['website'], message: 'Enter the full address, starting with http:// or https://.' });
  });

export type SuggestionForm = z.infer<typeof suggestionFormSchema>;

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The guest's captcha, read only when the rest of the form is fine (as the contact form does). */
export const captchaFieldsSchema = z.object({
  captcha_key: z.string({ message: REQUIRED }).min(1, REQUIRED),
  captcha: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(20, tooLong(20)),
});

export type { SuggestionKind };
