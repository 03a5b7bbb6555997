import { z } from 'zod';
import { passwordField } from '../accounts/schemas';

// The delete-my-account form. `content` decides what becomes of the member's listing photos
// and submitted events: removed with the account, or kept without their name.

export const CONTENT_CHOICES = ['remove', 'anonymise'] as const;
export type ContentChoice = (typeof CONTENT_CHOICES)[number];

export const messages = {
  chooseContent: 'Choose what happens to your photos and events.',
  wrongPassword: 'Your password was entered incorrectly. Please enter it again.',
  required: 'This field is required.',
} as const;

const contentField = z.enum(CONTENT_CHOICES, { message: messages.chooseContent });

/** A member with a password re-enters it. */
export const deleteWithPasswordSchema = z.object({
  password: z.string({ message: messages.required }).pipe(passwordField),
  content: contentField,
});

/** A member without one (Facebook or Apple only) confirms by an emailed link instead. */
export const deleteByEmailSchema = z.object({ content: contentField });
