import type { Response } from 'express';
import type { ZodType } from 'zod';
import { ValidationError, type FieldErrors } from '../errors';
import { validate } from '../validate';
import type { PageAnswer } from './page-view';

// The one way a page answers a posted form (a page() loader's body): the form read with its
// schema goes on to `valid` (usually a 303 redirect); a refused one answers 400 with `invalid`,
// the same page again with the messages beside their fields and what was typed. A ValidationError
// thrown by `valid` itself (a service refusing a field after the schema: "No member has this
// email address.", a wrong password) is refused the same way. Any other error, a PageRedirect
// included, goes on to page() and the error handler.
//
//   return formPost(res, {
//     schema: reportSchema,
//     body: formBodyOf(req.body),
//     valid: async (input) => { await save(input); return new PageRedirect(url, 303); },
//     invalid: (errors, posted) => reportPage(req, { errors, values: posted }),
//   });
//
// Without a schema, `valid` is the whole attempt and its own checks throw the ValidationError
// (a service that validates what it is given).

type Awaitable<T> = T | Promise<T>;

export interface FormAnswers<T, B, V extends PageAnswer, I extends PageAnswer> {
  /** What the form does once it is read: the redirect or the page after it. */
  valid: (input: T) => Awaitable<V>;
  /**
   * The form again, answered 400 (set before this runs, so a script's JSON answer may be sent
   * here too), with the body as posted: it echoes back what was typed, never a password.
   */
  invalid: (errors: FieldErrors, posted: B) => Awaitable<I>;
}

/** A form read with a zod schema: `valid` receives the schema's output. */
export function formPost<T, B, V extends PageAnswer, I extends PageAnswer>(res: Response, form: { schema: ZodType<T>; body: B } & FormAnswers<T, B, V, I>): Promise<V | I>;
/** A form whose `valid` step validates it (throws the ValidationError) itself. */
export function formPost<V extends PageAnswer, I extends PageAnswer>(res: Response, form: FormAnswers<void, undefined, V, I>): Promise<V | I>;
export async function formPost<T, B, V extends PageAnswer, I extends PageAnswer>(res: Response, form: { schema?: ZodType<T>; body?: B } & FormAnswers<T, B | undefined, V, I>): Promise<V | I> {
  try {
    // Awaited here, so that a ValidationError from an async `valid` is refused too.
    return await form.valid(form.schema ? validate(form.schema, form.body) : (undefined as T));
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    res.status(400);
    return form.invalid(err.fields, form.body);
  }
}
