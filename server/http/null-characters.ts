import type { NextFunction, Request, Response } from 'express';
import { NotFoundError, ValidationError, type FieldErrors } from './errors';

// PostgreSQL text cannot hold U+0000 (it answers 22021 or 22P05), so a NUL anywhere in the
// input would reach the database only to fail there. DRF's CharField refuses it up front with
// this message; here one rule does it for every query string and parsed body, before any
// route reads them.

export const NULL_CHARACTER_MESSAGE = 'Null characters are not allowed.';

/** True when the value, or anything inside it (arrays, objects, keys), holds a NUL. */
function holdsNul(value: unknown): boolean {
  // Iterative, as a parsed JSON body may nest deeper than the call stack.
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, inner] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * A JSON body's `fields` object is an envelope (the newsroom's story fields, newsroom/schemas.ts)
 * whose route names the field inside in its 400s; a NUL there is named the same way.
 */
const ENVELOPE = 'fields';

/** The fields of a query or body that hold a NUL, each with DRF's message; {} when none. */
export function nullCharacterErrors(input: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (typeof input === 'string' || Array.isArray(input)) {
    if (holdsNul(input)) errors.non_field_errors = [NULL_CHARACTER_MESSAGE];
    return errors;
  }
  if (!input || typeof input !== 'object') return errors;
  const check = (object: object, outer: boolean) => {
    for (const [key, value] of Object.entries(object)) {
      if (key.includes('\u0000')) errors.non_field_errors = [NULL_CHARACTER_MESSAGE];
      else if (outer && key === ENVELOPE && value && typeof value === 'object' && !Array.isArray(value)) check(value, false);
      else if (holdsNul(value)) errors[key] = [NULL_CHARACTER_MESSAGE];
    }
  };
  check(input, true);
  return errors;
}

/**
 * A NUL in the path names nothing (404); in the query or a JSON or urlencoded body it is a 400
 * naming the field. A multipart body is its route's to parse and check (nullCharacterErrors),
 * so that the route can answer in its own shape (the event form shows the error beside the field).
 */
export function rejectNullCharacters(req: Request, _res: Response, next: NextFunction): void {
  if (/%00/.test(req.path)) throw new NotFoundError();
  const body = req.is('multipart/form-data') ? undefined : req.body;
  const errors = { ...nullCharacterErrors(req.query), ...nullCharacterErrors(body) };
  if (Object.keys(errors).length) throw new ValidationError(errors);
  next();
}
