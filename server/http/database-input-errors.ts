import { ValidationError } from './errors';

// A safety net, not the fix: input should be refused where it is read, naming its field. If
// some value still gets as far as PostgreSQL and is refused there for what it is, the client
// sent something wrong, so it is a 400 and not a 500 (the error handler logs a warning so the
// source can be fixed).

/** SQLSTATEs that only a value sent by the client can cause. */
const INPUT_SQLSTATES: Record<string, string> = {
  '22P02': 'invalid_text_representation',
  '22003': 'numeric_value_out_of_range',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22021': 'character_not_in_repertoire',
  '22P05': 'untranslatable_character',
  '22001': 'string_data_right_truncation',
  '23505': 'unique_violation',
};

export const DATABASE_INPUT_MESSAGE = 'A value sent cannot be stored or searched; check the values and try again.';

/** The 400 for a database error caused by input, or null for any other error. */
export function databaseInputError(err: unknown): ValidationError | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(INPUT_SQLSTATES, code) ? ValidationError.nonField(DATABASE_INPUT_MESSAGE) : null;
}
