import type { ZodType } from 'zod';
import { NotFoundError, ValidationError, type FieldErrors } from './errors';

/**
 * Parses input with a zod schema; a failure throws a ValidationError (a 400 in DRF's shape)
 * keyed by each issue's top-level field, so a nested issue is reported on its field;
 * object-level refinements (path []) land in non_field_errors.
 */
export function validate<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    let message = issue.message;
    // zod 4 leaves the input off its issues (unless asked to report it), so "missing" is read
    // from the input itself: a key that is absent or undefined.
    const missing = issue.path.length === 1 && (input === null || typeof input !== 'object' || !(String(issue.path[0]) in (input as object)) || (input as Record<string, unknown>)[String(issue.path[0])] === undefined);
    if (issue.code === 'invalid_type' && missing) message = 'This field is required.';
    (fields[key] ??= []).push(message);
  }
  throw new ValidationError(fields);
}

/** The largest id a PostgreSQL integer column holds; a larger one would fail in the database. */
export const MAX_DB_ID = 2_147_483_647;

/** True for a string of digits naming an id the database can hold (1 to MAX_DB_ID). */
export function isDbId(value: string): boolean {
  return /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_DB_ID;
}

/** Reads a positive integer id from a route parameter; anything else is a 404, as DRF does. */
export function idParam(value: unknown): number {
  const s = String(value ?? '');
  if (!isDbId(s)) throw new NotFoundError();
  return Number(s);
}

/** A posted form's fields as parsed (repeated names as arrays), or none when nothing was posted. */
export function formBodyOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/**
 * A posted form's text fields. A field sent in another shape (name[b]=1 makes an object, often
 * without a prototype, which a form's template could not print) counts as missing.
 */
export function textFieldsOf(body: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(formBodyOf(body)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
