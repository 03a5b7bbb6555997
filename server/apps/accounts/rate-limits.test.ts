import { createMember, createTestContext, guestAgent, type TestContext } from '../../testing/test-app';
import { RATE_LIMIT_DEFAULTS } from './rate-limits';

// createTestContext turns rate limits off for every other test file; this one turns them on
// as production has them (RATE_LIMITS=true) and checks the figures.
describe('rate limits with RATE_LIMITS=true', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ RATE_LIMITS: 'true' });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) => {
    const agent = guestAgent(t.app);
    return agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email, password });
  };

  test('failed logins for one email stop at the limit with a DRF-shaped 429', async () => {
    const m = await createMember(t.ctx);
    const limit = RATE_LIMIT_DEFAULTS.failedLoginsPerEmail.limit;
    for (let i = 0; i < limit; i++) expect((await login(m.email, `guess ${i}`)).status).toBe(400);
    const blocked = await login(m.email.toUpperCase(), 'one more guess');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: expect.stringMatching(/throttled/) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits: the guesser must not learn that it was right.
    expect((await login(m.email, m.password)).status).toBe(429);
    // Another member on the same network is not locked out.
    const other = await createMember(t.ctx);
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  test('after the limit, the email in the query string or padded with spaces is limited too', async () => {
    const m = await createMember(t.ctx);
    for (let i = 0; i < RATE_LIMIT_DEFAULTS.failedLoginsPerEmail.limit; i++) expect((await login(m.email, `guess ${i}`)).status).toBe(400);
    const agent = guestAgent(t.app);
    const inQuery = await agent
      .post(`/api/v2/profiles/email-login/?email=${encodeURIComponent(m.email)}&password=${encodeURIComponent(m.password)}`)
      .set('X-CSRFToken', agent.csrfToken)
      .send({});
    expect(inQuery.status).toBe(429);
    const formInQuery = await agent.post(`/api/v2/profiles/email-login/?email=${encodeURIComponent(m.email)}`).set('X-CSRFToken', agent.csrfToken).type('form').send({ password: m.password });
    expect(formInQuery.status).toBe(429);
    expect((await login(`  ${m.email.toUpperCase()} `, m.password)).status).toBe(429);
  });

  test('successful logins do not count against the email', async () => {
    const m = await createMember(t.ctx);
    for (let i = 0; i < RATE_LIMIT_DEFAULTS.failedLoginsPerEmail.limit + 2; i++) expect((await login(m.email, m.password)).status).toBe(200);
  });

  test('the full-page form draws on the same counters as the API', async () => {
    const m = await createMember(t.ctx);
    for (let i = 0; i < RATE_LIMIT_DEFAULTS.failedLoginsPerEmail.limit; i++) await login(m.email, `guess ${i}`);
    const agent = guestAgent(t.app);
    const res = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: 'x' });
    expect(res.status).toBe(429);
  });

  test('two apps on one database (two processes) draw on the same counters', async () => {
    const m = await createMember(t.ctx);
    const other = t.rebuild({ RATE_LIMITS: 'true' });
    const loginOn = (app: typeof t.app, password: string) => {
      const agent = guestAgent(app);
      return agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email, password });
    };
    const limit = RATE_LIMIT_DEFAULTS.failedLoginsPerEmail.limit;
    for (let i = 0; i < limit; i++) expect((await loginOn(i % 2 ? other : t.app, `guess ${i}`)).status).toBe(400);
    expect((await loginOn(t.app, 'one more')).status).toBe(429);
    expect((await loginOn(other, 'one more')).status).toBe(429);
  });

  test('reset requests stop after 5 an hour for one email', async () => {
    const m = await createMember(t.ctx);
    const reset = () => {
      const agent = guestAgent(t.app);
      return agent.post('/api/v2/profiles/reset-password/').set('X-CSRFToken', agent.csrfToken).send({ email: m.email });
    };
    for (let i = 0; i < RATE_LIMIT_DEFAULTS.resetsPerEmail.limit; i++) expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(429);
  });

  test('sign-ups from one address are generous (a campus behind one address)', async () => {
    expect(RATE_LIMIT_DEFAULTS.signupsPerAddress.limit).toBeGreaterThanOrEqual(100);
    const agent = guestAgent(t.app);
    const res = await agent.post('/api/v2/profiles/email-registration/').set('X-CSRFToken', agent.csrfToken).send({ email: 'campus@example.com', password: 'maple-streetcar-42' });
    expect(res.status).toBe(201);
    expect(res.headers['ratelimit-policy']).toBeDefined();
  });

  test('a database error in the counters lets the request through instead of a 500', async () => {
    const m = await createMember(t.ctx);
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    await t.ctx.db.raw('ALTER TABLE rate_limits RENAME TO rate_limits_away');
    try {
      expect((await login(m.email, 'a guess')).status).toBe(400);
      expect((await login(m.email, m.password)).status).toBe(200);
      expect(logged).toHaveBeenCalled();
    } finally {
      await t.ctx.db.raw('ALTER TABLE rate_limits_away RENAME TO rate_limits');
      logged.mockRestore();
    }
  });
});
