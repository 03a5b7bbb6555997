import express, { type Response } from 'express';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { errorHandler } from '../error-handler';
import { NotFoundError, ValidationError, type FieldErrors } from '../errors';
import { formBodyOf } from '../validate';
import { formPost } from './form-post';
import { page, PageRedirect } from './page-view';

// The one form-post helper, through page() and the error handler as every app's form uses it:
// a valid form reaches `valid` parsed and typed; a refused one is a 400 with the form again,
// its messages and what was posted; anything else is not the form's to answer.

const signupSchema = z.object({
  email: z.email('Enter a valid email address.'),
  age: z.coerce.number().int().min(13, 'You must be 13 or older.'),
  password: z.string().min(8, 'Too short.'),
});

describe('formPost', () => {
  let received: Array<{ email: string; age: number }>;
  let app: express.Express;

  beforeEach(() => {
    received = [];
    app = express();
    app.use(express.urlencoded({ extended: false }));
    // The view as JSON instead of a template, so the test reads what the page would render.
    app.use((_req, res, next) => {
      res.render = ((template: string, data?: object) => void res.json({ template, ...data })) as Response['render'];
      next();
    });
    const formAgain = (body: Record<string, unknown>, errors: FieldErrors) => ({ template: 'signup.njk', errors, values: { email: body.email, age: body.age } });
    app.post('/signup/', page('private', (req, res) => {
      return formPost(res, {
        schema: signupSchema,
        body: formBodyOf(req.body),
        valid: async (input) => {
          // Typed by the schema: a number, not the posted string.
          const age: number = input.age;
          if (input.email === 'taken@example.com') throw ValidationError.field('email', 'This address is taken.');
          if (input.email === 'broken@example.com') throw new Error('database gone');
          received.push({ email: input.email, age });
          return new PageRedirect('/welcome/', 303);
        },
        // What was posted comes back to be echoed: the address and age, never the password.
        invalid: (errors, posted) => formAgain(posted, errors),
      });
    }));
    // A form a service validates: no schema, `valid` is the whole attempt.
    app.post('/confirm/', page('private', (req, res) => formPost(res, {
      valid: () => {
        if (formBodyOf(req.body).token !== 'good') throw ValidationError.nonField('This link has expired.');
        return { template: 'done.njk' };
      },
      invalid: (errors) => {
        if (formBodyOf(req.body).token === 'gone') throw new NotFoundError();
        return { template: 'confirm.njk', errors };
      },
    })));
    app.use(errorHandler(pino({ level: 'silent' })));
  });

  test('a valid form reaches `valid` with the schema\'s typed output and answers its redirect', async () => {
    const res = await request(app).post('/signup/').type('form').send({ email: 'ann@example.com', age: '30', password: 'long enough' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/welcome/');
    expect(received).toEqual([{ email: 'ann@example.com', age: 30 }]);
  });

  test('a refused form is a 400 with the form again: each field\'s message and what was typed', async () => {
    const res = await request(app).post('/signup/').type('form').send({ email: 'not an address', age: '9', password: 'secret password' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      template: 'signup.njk',
      errors: { email: ['Enter a valid email address.'], age: ['You must be 13 or older.'] },
      values: { email: 'not an address', age: '9' },
    });
    expect(received).toEqual([]);
  });

  test('a field missing from the post is named with validate()\'s message', async () => {
    const res = await request(app).post('/signup/').type('form').send({ email: 'ann@example.com', age: '30' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ password: ['This field is required.'] });
  });

  test('a ValidationError thrown by `valid` (a service refusing a field) is refused the same way', async () => {
    const res = await request(app).post('/signup/').type('form').send({ email: 'taken@example.com', age: '30', password: 'long enough' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ template: 'signup.njk', errors: { email: ['This address is taken.'] }, values: { email: 'taken@example.com', age: '30' } });
  });

  test('any other error is not the form\'s: it reaches the error handler (500), not a 400 form', async () => {
    const res = await request(app).post('/signup/').type('form').send({ email: 'broken@example.com', age: '30', password: 'long enough' });
    expect(res.status).toBe(500);
    expect(res.body.template).toBe('errors/500.njk');
    await expect(formPost({ status: jest.fn() } as unknown as Response, { valid: () => Promise.reject(new Error('boom')), invalid: () => null })).rejects.toThrow('boom');
  });

  test('without a schema, `valid` is the attempt; an error thrown while refusing keeps its own status', async () => {
    expect((await request(app).post('/confirm/').type('form').send({ token: 'good' })).body).toEqual({ template: 'done.njk' });
    const expired = await request(app).post('/confirm/').type('form').send({ token: 'old' });
    expect([expired.status, expired.body]).toEqual([400, { template: 'confirm.njk', errors: { non_field_errors: ['This link has expired.'] } }]);
    expect((await request(app).post('/confirm/').type('form').send({ token: 'gone' })).status).toBe(404);
  });
});
