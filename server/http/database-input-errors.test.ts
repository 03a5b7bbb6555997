import express from 'express';
import request from 'supertest';
import { createMember, createTestContext, type TestContext } from '../testing/test-app';
import { configureViews } from '../views';
import { ViteManifest } from '../views/vite-manifest';
import { STATIC_DIR } from '../paths';
import { errorHandler } from './error-handler';
import { DATABASE_INPUT_MESSAGE } from './database-input-errors';

// The error handler's safety net, on the real database: an error PostgreSQL raises because of
// a value (not a bug, not an outage) is a 400, and a warning says where to fix it at the source.

describe('database errors caused by input', () => {
  let t: TestContext;
  let app: express.Express;
  let warnings: Array<{ url?: string; err?: { code?: string } }>;
  let takenEmail: string;

  const statements: Record<string, () => Promise<unknown>> = {
    invalid_text_representation: () => t.ctx.db.raw("select 'abc'::int"),
    numeric_value_out_of_range: () => t.ctx.db.raw('select 2147483648::int'),
    untranslatable_character: () => t.ctx.db.raw(`select '{"a":"\\u0000"}'::jsonb`),
    string_data_right_truncation: () => t.ctx.db.raw("do $$ declare v varchar(2); begin v := 'abcd'; end $$"),
    unique_violation: () => t.ctx.db('profiles').insert({ email: takenEmail, password_hash: null }),
    undefined_table: () => t.ctx.db.raw('select * from no_such_table'),
  };

  beforeAll(async () => {
    t = await createTestContext();
    takenEmail = (await createMember(t.ctx)).email;
    warnings = [];
    const logger = t.ctx.logger.child({});
    const warn = logger.warn.bind(logger);
    logger.warn = ((obj: { url?: string; err?: { code?: string } }, ...rest: unknown[]) => {
      warnings.push(obj);
      return (warn as (...a: unknown[]) => void)(obj, ...rest);
    }) as typeof logger.warn;
    app = express();
    configureViews(app, t.config, new ViteManifest(STATIC_DIR, '/static/dist/', false));
    app.get(['/api/fail/:case', '/fail/:case'], async (req) => {
      await statements[String(req.params.case)]();
    });
    app.use(errorHandler(logger));
  });
  afterAll(() => t.close());

  test.each(['invalid_text_representation', 'numeric_value_out_of_range', 'untranslatable_character', 'string_data_right_truncation', 'unique_violation'])(
    '%s is a 400 in non_field_errors, logged as a warning',
    async (name) => {
      warnings.length = 0;
      const res = await request(app).get(`/api/fail/${name}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [DATABASE_INPUT_MESSAGE] });
      expect(warnings).toEqual([expect.objectContaining({ url: `/api/fail/${name}`, err: expect.objectContaining({ code: expect.any(String) }) })]);
    },
  );

  test('a page gets the 400 error page', async () => {
    const res = await request(app).get('/fail/numeric_value_out_of_range').set('Accept', 'text/html');
    expect(res.status).toBe(400);
    expect(res.type).toBe('text/html');
  });

  test('a database error that input cannot cause stays a 500', async () => {
    const res = await request(app).get('/api/fail/undefined_table');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'A server error occurred.' });
  });
});
