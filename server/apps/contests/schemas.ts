import moment from 'moment-timezone';
import { z } from 'zod';
import { slugify } from '../../../shared/format/text';

// What the staff contest form (/staff/contests/save/) sends besides its optional image file;
// its csrfmiddlewaretoken is checked before it is read (checkFirstFieldToken). Dates are typed
// as the city's wall-clock time (datetime-local), so the schema is made for the city's zone.

export const TITLE_MAX = 255;
export const NAME_MAX = 80;
export const TEXT_MAX = 10_000;
export const QUESTION_MAX = 300;
/** datetime-local's value: 'YYYY-MM-DDTHH:mm' (seconds, when a browser adds them, are dropped). */
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?$/;

const optionalText = (max: number) =>
  z.string({ message: 'Not a valid string.' }).trim().max(max, `Ensure this field has no more than ${max} characters.`).optional().transform((v) => v ?? '');

/** The contest form, reading its dates in `timeZone`. */
export function contestFormSchema(timeZone: string) {
  const when = (label: string) =>
    z.string({ message: `Give the ${label} day and time.` }).trim().min(1, `Give the ${label} day and time.`).transform((v, ctx) => {
      const m = LOCAL_DATETIME.exec(v);
      const at = m ? moment.tz(m[1], 'YYYY-MM-DDTHH:mm', true, timeZone) : null;
      if (!at?.isValid()) {
        ctx.addIssue({ code: 'custom', message: 'Give a day and time as YYYY-MM-DD HH:MM.' });
        return z.NEVER;
      }
      return at.toDate();
    });
  return z
    .object({
      id: z.string().regex(/^\d{1,9}$/, 'Not a valid contest.').transform(Number).optional().or(z.literal('').transform(() => undefined)),
      title: z.string({ message: 'Give the contest a title.' }).trim().min(1, 'Give the contest a title.').max(TITLE_MAX, `Ensure this field has no more than ${TITLE_MAX} characters.`),
      name: optionalText(NAME_MAX).transform((v) => v.toLowerCase()),
      description: optionalText(TEXT_MAX),
      prize: z.string({ message: 'Say what the prize is, and what it is worth.' }).trim().min(1, 'Say what the prize is, and what it is worth.').max(TEXT_MAX, `Ensure this field has no more than ${TEXT_MAX} characters.`),
      rules: optionalText(TEXT_MAX),
      odds: optionalText(TEXT_MAX),
      start_date: when('opening'),
      end_date: when('closing'),
      skill_question: optionalText(QUESTION_MAX),
      skill_answer: z
        .string({ message: 'A whole number is required.' })
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          if (!/^-?\d{1,9}$/.test(v)) {
            ctx.addIssue({ code: 'custom', message: 'The answer must be a whole number (the question is mathematical).' });
            return z.NEVER;
          }
          return Number(v);
        }),
    })
    .superRefine((v, ctx) => {
      if (v.end_date <= v.start_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'The contest must close after it opens.' });
      if (v.skill_question && v.skill_answer === null) ctx.addIssue({ code: 'custom', path: ['skill_answer'], message: 'Give the answer to the question: entries are checked against it.' });
      if (!v.skill_question && v.skill_answer !== null) ctx.addIssue({ code: 'custom', path: ['skill_question'], message: 'Give the question this answers, or leave both empty.' });
    })
    .transform((v, ctx) => {
      const name = v.name || slugify(v.title);
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) || name.length > NAME_MAX) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: `Use lower-case letters, digits and hyphens (at most ${NAME_MAX}).` });
        return z.NEVER;
      }
      return { ...v, name, skill_question: v.skill_question || null };
    });
}

export type ContestForm = z.output<ReturnType<typeof contestFormSchema>>;
