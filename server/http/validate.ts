import type { ZodType } from 'zod';
import { ValidationError, type FieldErrors } from './errors';

/**
 * Parses input with a zod schema; failures become a 400 naming each field, in DRF's shape.
 * Object-level refinements (path []) land in non_field_errors.
 */
export function validate<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    let message = issue.message;
    // zod 4 does not report the input on issues, so "missing" is read from the input itself.
    const missing = issue.path.length === 1 && (input === null || typeof input !== 'object' || !(String(issue.path[0]) in (input as object)) || (input as Record<string, unknown>)[String(issue.path[0])] === undefined);
    if (issue.code === 'invalid_type' && missing) message = 'This field is required.';
    (fields[key] ??= []).push(message);
  }
  throw new ValidationError(fields);
}

/** Reads a positive integer id from a route parameter; anything else is a 404, as DRF does. */
export function idParam(value: unknown): number {
  const s = String(value ?? '');
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) {
    throw new ValidationError({ id: ['A valid integer is required.'] });
  }
  return Number(s);
}
