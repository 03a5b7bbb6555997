import type { AppContext } from '../../context';
import { ValidationError, type FieldErrors } from '../../http/errors';
import { captchaSecret, verifyCaptcha, type CaptchaResult } from './captcha';
import { CONTACT_CATEGORIES, CONTACT_MESSAGES, contactSchema, emailsMismatch, type ContactInput } from './schemas';
import { insertContactMessage, markContactMessageEmailed } from './queries';

/** What a refused captcha says, here and on the places' suggestion form (place-suggestions). */
export const CAPTCHA_ERRORS: Record<Exclude<CaptchaResult, 'ok'>, string> = {
  wrong: CONTACT_MESSAGES.captchaWrong,
  invalid: CONTACT_MESSAGES.captchaWrong,
  expired: CONTACT_MESSAGES.captchaExpired,
  'too-fast': CONTACT_MESSAGES.captchaTooFast,
  used: CONTACT_MESSAGES.captchaUsed,
};

export type ContactService = ReturnType<typeof createContactService>;

/** The contact form's checks and sending, built once per app by the registry (apps/index.ts). */
export function createContactService(deps: Pick<AppContext, 'db' | 'config' | 'now' | 'mailer' | 'logger'>) {
  const { db, config, mailer, logger } = deps;
  // The clock is read from the context at each call, as before: a test may set its ctx.now
  // after the app is built (the captcha's solving time is measured with it).
  const now = () => deps.now();
  return {
    /** Every field's errors at once (as the form shows them beside each field), captcha last. */
    async validate(body: Record<string, unknown>): Promise<ContactInput> {
      const parsed = contactSchema.safeParse(body);
      const fields: FieldErrors = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0] ?? 'non_field_errors');
          const message = issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : issue.message;
          (fields[key] ??= []).push(message);
        }
      }
      if (emailsMismatch(body)) (fields.confirm_email ??= []).push(CONTACT_MESSAGES.emailMismatch);
      // The captcha is spent only by a form that is otherwise fine, so fixing a typo does not
      // also mean answering a new question.
      if (Object.keys(fields).length === 0) {
        const result = await verifyCaptcha(db, captchaSecret(config.sessionSecret), body.captcha_key, body.captcha, now());
        if (result !== 'ok') fields.captcha = [CAPTCHA_ERRORS[result]];
      }
      if (Object.keys(fields).length || !parsed.success) throw new ValidationError(fields);
      return parsed.data;
    },

    successMessage(category: string): string {
      return category === 'advertise' ? CONTACT_MESSAGES.successAdvertise : CONTACT_MESSAGES.success;
    },

    /** Stores the message, then emails it to the staff address (a failed email is logged, the message kept). */
    async send(input: ContactInput, meta: { ip: string; profileId: number | null }): Promise<number> {
      const business = input.question_category === 'advertise';
      const id = await insertContactMessage(db, {
        question_category: input.question_category,
        comment: input.comment,
        name: input.name,
        email: input.email,
        business_name: business ? input.business_name : '',
        phone_number: business ? input.phone_number : '',
        profile_id: meta.profileId,
        ip: meta.ip.slice(0, 64),
      });
      const category = CONTACT_CATEGORIES.find((c) => c.value === input.question_category)?.text ?? input.question_category;
      const lines = [
        `Category: ${category}`,
        `From: ${input.name} <${input.email}>`,
        ...(business ? [`Business: ${input.business_name}`, `Phone: ${input.phone_number}`] : []),
        '',
        input.comment,
        '',
        `Message #${id}`,
      ];
      try {
        await mailer.send({ to: config.mail.staffEmail, replyTo: input.email, subject: `[Contact: ${category}] ${input.name}`.slice(0, 200), text: lines.join('\n') });
        await markContactMessageEmailed(db, id, now());
      } catch (err) {
        logger.error({ err, contactMessageId: id }, 'contact message stored but not emailed');
      }
      return id;
    },
  };
}
