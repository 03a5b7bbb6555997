import { z } from 'zod';

// Input fields the save endpoints share, with Django REST Framework's messages, because the
// islands were written against them. JSON clients send numbers; HTML forms send strings, so
// a string of digits is read as the number it spells.
//
// NOTE: these raise their own "required" issue. http/validate.ts tells a missing field from
// a wrong type by `issue.input`, which zod 4 leaves out unless asked (reportInput), so a plain
// z.number() would answer "This field is required." to {"listing": "abc"} as well.

const MAX_PK = 2_147_483_647; // PostgreSQL integer

export const messages = {
  required: 'This field is required.',
  notNull: 'This field may not be null.',
  pkType: 'Incorrect type. Expected pk value.',
  doesNotExist: (id: unknown) => `Invalid pk "${String(id).slice(0, 32)}" - object does not exist.`,
  notBookmarkable: 'This event cannot be saved.',
  boolean: 'Must be a valid boolean.',
  rating: 'Ensure this value is a whole number from 1 to 5.',
};

type Ctx = z.RefinementCtx;

function present(value: unknown, ctx: Ctx): boolean {
  if (value !== undefined && value !== null) return true;
  ctx.addIssue({ code: 'custom', message: value === undefined ? messages.required : messages.notNull });
  return false;
}

function wholeNumber(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
}

/** A primary key of another object: a whole number from 1 up. Existence is checked later. */
export const pkField = z.unknown().transform((value, ctx) => {
  if (!present(value, ctx)) return z.NEVER;
  const n = wholeNumber(value);
  if (n === null) ctx.addIssue({ code: 'custom', message: messages.pkType });
  else if (n < 1 || n > MAX_PK) ctx.addIssue({ code: 'custom', message: messages.doesNotExist(n) });
  else return n;
  return z.NEVER;
});

/** A star rating, 1 to 5. */
export const ratingField = z.unknown().transform((value, ctx) => {
  if (!present(value, ctx)) return z.NEVER;
  const n = wholeNumber(value);
  if (n !== null && n >= 1 && n <= 5) return n;
  ctx.addIssue({ code: 'custom', message: messages.rating });
  return z.NEVER;
});

/** true/false, also as the strings a form sends. */
export const booleanField = z.unknown().transform((value, ctx) => {
  if (!present(value, ctx)) return z.NEVER;
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  ctx.addIssue({ code: 'custom', message: messages.boolean });
  return z.NEVER;
});
