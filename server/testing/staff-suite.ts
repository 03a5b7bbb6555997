import type { Config, Env } from '../config';
import { createMember, createTestContext, memberAgent, type Agent, type MemberFixture, type TestContext } from './test-app';

// The set-up the staff pages' tests share (the contest and video forms, staff publishing an
// event): a test context, a staff member, and an agent signed in as them with its CSRF token,
// and the multipart post their forms send without JavaScript.

/**
 * For the tests of a file or describe block: before them, a test context (with `env`) and a
 * staff member signed in (`editor`, its CSRF token set); after them, the context closed. Read
 * `t`, `staff` and `editor` inside the tests (they are set once beforeAll has run).
 */
export function staffSuite(env: Env = {}, overrides: Partial<Config> = {}): { readonly t: TestContext; readonly staff: MemberFixture; readonly editor: Agent } {
  const suite = {} as { t: TestContext; staff: MemberFixture; editor: Agent };
  beforeAll(async () => {
    suite.t = await createTestContext(env, overrides);
    suite.staff = await createMember(suite.t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    suite.editor = await memberAgent(suite.t, suite.staff);
  });
  afterAll(() => suite.t?.close());
  return suite;
}

export interface UploadedFile {
  field: string;
  data: Buffer;
  filename: string;
  contentType: string;
}

/**
 * A multipart form post as a browser sends it: the CSRF token first (a multipart form's token
 * is checked as its first field), then the fields in order (a list repeats its field), then
 * the file, if any.
 */
export function postMultipart(as: Agent, path: string, fields: Record<string, string | string[]>, file: UploadedFile | null = null) {
  let req = as.post(path).field('csrfmiddlewaretoken', as.csrfToken);
  for (const [name, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) req = req.field(name, one);
  if (file) req = req.attach(file.field, file.data, { filename: file.filename, contentType: file.contentType });
  return req;
}
