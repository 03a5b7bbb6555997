import { z } from 'zod';
import { LIMITS } from '../../../shared/constants';
import { emailField } from '../newsletters/schemas';

// The contact form of spec 2 §3 and §5.

export const CONTACT_CATEGORIES = [
  { value: 'general', text: 'General inquiry' },
  { value: 'advertise', text: 'Advertising' },
  { value: 'tip', text: 'News tip or story idea' },
  { value: 'events', text: 'Events listing' },
  { value: 'listing', text: 'Correction to a place' },
  { value: 'feedback', text: 'Website feedback' },
] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number]['value'];

export const CONTACT_MESSAGES = {
  required: 'This field is required.',
  /** {max} is the field's limit. */
  tooLong: 'Ensure this field has no more than {max} characters.',
  emailInvalid: 'Enter a valid email address.',
  phoneInvalid: 'Enter a valid phone number.',
  emailMismatch: 'Your email addresses don’t match.',
  captchaWrong: 'That answer is not right. Please try the new question.',
  captchaExpired: 'That question has expired. Please answer the new one.',
  captchaTooFast: 'That was quicker than a person can type. Please try again.',
  captchaUsed: 'That question was already answered. Please answer the new one.',
  success: 'Thanks for dropping us a line.',
  successAdvertise: 'Thanks. Our sales team will be in touch shortly.',
} as const;

/** A phone number as the form takes it; the page's script checks the same pattern. */
export const PHONE_PATTERN = '^[0-9+()\\-.\\s]{7,30}$';

const PHONE = new RegExp(PHONE_PATTERN);
const tooLong = (max: number) => CONTACT_MESSAGES.tooLong.replace('{max}', String(max));

const required = (max: number) =>
  z
    .string({ message: CONTACT_MESSAGES.required })
    .trim()
    .min(1, CONTACT_MESSAGES.required)
    .max(max, tooLong(max));

const optional = (max: number) => z.string().trim().max(max, tooLong(max)).optional().default('');

export const contactSchema = z.object({
    question_category: z.enum(CONTACT_CATEGORIES.map((c) => c.value) as [ContactCategory, ...ContactCategory[]], { message: 'Select a valid choice.' }),
    comment: required(LIMITS.contactCommentMax),
    name: required(LIMITS.contactNameMax),
    email: emailField,
    confirm_email: z.string({ message: CONTACT_MESSAGES.required }).trim().min(1, CONTACT_MESSAGES.required),
    business_name: optional(LIMITS.contactNameMax),
    phone_number: optional(50).refine((v) => v === '' || PHONE.test(v), CONTACT_MESSAGES.phoneInvalid),
    captcha_key: z.string({ message: CONTACT_MESSAGES.required }).min(1, CONTACT_MESSAGES.required),
    captcha: required(LIMITS.contactNameMax),
  });

export type ContactInput = z.infer<typeof contactSchema>;

/** Email and its confirmation must match (case aside); checked even when other fields fail. */
export function emailsMismatch(body: Record<string, unknown>): boolean {
  const { email, confirm_email: confirm } = body;
  return typeof email === 'string' && typeof confirm === 'string' && confirm.trim() !== '' && email.trim().toLowerCase() !== confirm.trim().toLowerCase();
}
