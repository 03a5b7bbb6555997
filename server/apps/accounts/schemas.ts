import { z } from 'zod';
import { LIMITS } from '../../../shared/constants';
import { emailField } from '../profiles/schemas';
import { LOGIN_ACTIONS, type LoginAction } from '../../../shared/save-kinds';

// Input schemas for the accounts API and forms, with DRF's messages so the islands can show
// them as they are ('* message').

const blank = 'This field may not be blank.';
const tooLong = (n: number) => `Ensure this field has no more than ${n} characters.`;

/** A password as typed: not trimmed (spaces are legal characters), only bounded. */
export const passwordField = z.string().min(1, { message: blank, abort: true }).max(LIMITS.passwordMax, tooLong(LIMITS.passwordMax));

/** The remembered actions of a guest's save (one per kind: shared/save-kinds.ts). */
export const POST_AUTHENTICATE_ACTIONS = LOGIN_ACTIONS;
export type PostAuthenticateAction = LoginAction;

const optionalId = z.coerce.number().int('A valid integer is required.').positive('A valid integer is required.').optional();

export const registrationSchema = z.object({ email: emailField, password: passwordField });

export const loginSchema = z.object({
  email: emailField,
  password: passwordField,
  object_id: optionalId,
  post_authenticate_action: z.enum(POST_AUTHENTICATE_ACTIONS, { message: 'Not a valid action.' }).optional(),
  rating: z.coerce.number().int().min(1, 'Ensure this value is greater than or equal to 1.').max(5, 'Ensure this value is less than or equal to 5.').optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** A guest's remembered action, carried through sign-up (the query string of the registration). */
export const rememberedActionSchema = loginSchema.pick({ object_id: true, post_authenticate_action: true, rating: true });

export const resetRequestSchema = z.object({ email: emailField });

export const resetConfirmSchema = z
  .object({ new_password: passwordField, new_password_confirm: passwordField.optional() })
  .refine((v) => v.new_password_confirm === undefined || v.new_password === v.new_password_confirm, {
    message: "The two password fields didn't match.",
    path: ['new_password_confirm'],
  });

export const changePasswordSchema = z.object({ current_password: passwordField, new_password: passwordField });

export const appleLoginSchema = z.object({ id_token: z.string().min(1, blank).max(8192, tooLong(8192)) });

/** Empty strings from HTML forms and query strings mean "not given". */
export function withoutBlanks(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object') return {};
  return Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== '' && v !== null && v !== undefined));
}

/**
 * What a sign-in or reset request says, as its handler reads it: the query string (where the
 * islands put the remembered action) overlaid by the body. The rate limiter reads the email
 * from here too, so no field can reach the handler without being counted.
 */
export function authRequestInput(req: { query?: unknown; body?: unknown }): Record<string, unknown> {
  return { ...withoutBlanks(req.query), ...withoutBlanks(req.body) };
}

/** The email of such a request, normalised as the handler will (null: none it would accept). */
export function submittedEmail(req: { query?: unknown; body?: unknown }): string | null {
  const parsed = emailField.safeParse(authRequestInput(req).email);
  return parsed.success ? parsed.data : null;
}
