import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import type { Express } from 'express';
import { createMember, createTestContext, guestAgent, type TestContext } from '../../testing/test-app';

// Apple's keys are replaced by a key pair made here and published from a local JWKS server.
describe('POST /api/v2/profiles/auth/apple/manual-login/', () => {
  let t: TestContext;
  let app: Express;
  let jwks: http.Server;
  let key: KeyLike;
  let strangerKey: KeyLike;
  const CLIENT_ID = 'ca.toronto-guide.web';
  const ISSUER = 'https://appleid.apple.com';

  beforeAll(async () => {
    t = await createTestContext();
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => res.setHeader('Content-Type', 'application/json').end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/auth/keys`;
    app = t.rebuild({ APPLE_CLIENT_ID: CLIENT_ID, APPLE_JWKS_URL: url, APPLE_ISSUER: ISSUER });
  });
  afterAll(async () => {
    await new Promise((resolve) => jwks.close(resolve));
    await t.close();
  });

  const token = (claims: Record<string, unknown>, opts: { iss?: string; aud?: string; exp?: string | number; signWith?: KeyLike } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(opts.iss ?? ISSUER)
      .setAudience(opts.aud ?? CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '10m')
      .sign(opts.signWith ?? key);

  const login = (idToken: string, on: Express = app) => {
    const agent = guestAgent(on);
    return agent.post('/api/v2/profiles/auth/apple/manual-login/').set('X-CSRFToken', agent.csrfToken).send({ id_token: idToken });
  };

  test('a valid token signs in a new member, and the same one again next time', async () => {
    const res = await login(await token({ sub: '001234.abc', email: 'relay123@privaterelay.appleid.com', email_verified: 'true' }));
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('relay123@privaterelay.appleid.com');
    const again = await login(await token({ sub: '001234.abc' }));
    expect(again.body.id).toBe(res.body.id);
    const row = await t.ctx.db('profiles').where({ id: res.body.id }).first('apple_sub', 'password_hash');
    expect(row).toEqual({ apple_sub: '001234.abc', password_hash: null });
    // Both sign-ins are in the member's login history, as Apple ones.
    expect(await t.ctx.db('login_history').where({ profile_id: res.body.id }).pluck('method')).toEqual(['apple', 'apple']);
  });

  test('a verified email joins the existing account', async () => {
    const m = await createMember(t.ctx);
    const res = await login(await token({ sub: 'apple-sub-2', email: m.email, email_verified: true }));
    expect(res.body.id).toBe(m.id);
  });

  test('an inactive account is not signed in, linked or by email; one closed for deletion is told why', async () => {
    const closed = await createMember(t.ctx);
    await t.ctx.db('profiles').where({ id: closed.id }).update({ apple_sub: 'apple-closed', is_active: false });
    const requested = new Date(Date.now() - 24 * 3600 * 1000);
    await t.ctx.db('account_deletions').insert({ profile_id: closed.id, content: 'remove', requested_at: requested, purge_after: new Date(requested.getTime() + 7 * 24 * 3600 * 1000) });
    const refused = await login(await token({ sub: 'apple-closed' }));
    expect(refused.status).toBe(400);
    expect(refused.body.non_field_errors[0]).toMatch(/^This account is closed: you asked us to delete it, and it will be deleted for good on /);
    expect(String(refused.headers['set-cookie'] ?? '')).not.toMatch(/signed_in=1/);

    // Disabled some other way, found by its verified email: the generic refusal, no link made.
    const disabled = await createMember(t.ctx);
    await t.ctx.db('profiles').where({ id: disabled.id }).update({ is_active: false });
    const byEmail = await login(await token({ sub: 'apple-disabled', email: disabled.email, email_verified: true }));
    expect(byEmail.status).toBe(400);
    expect(byEmail.body).toEqual({ non_field_errors: ['Sign in with Apple failed. Please try again.'] });
    expect(await t.ctx.db('profiles').where({ id: disabled.id }).first('apple_sub')).toEqual({ apple_sub: null });
    expect(await t.ctx.db('login_history').whereIn('profile_id', [closed.id, disabled.id])).toEqual([]);
  });

  test('an unverified email does not take over an existing account', async () => {
    const m = await createMember(t.ctx);
    const res = await login(await token({ sub: 'apple-sub-3', email: m.email, email_verified: false }));
    expect(res.status).toBe(400);
  });

  test.each([
    ['the wrong audience', { aud: 'com.someone.else' }],
    ['the wrong issuer', { iss: 'https://evil.example' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600 }],
  ])('refuses %s', async (_label, opts) => {
    const res = await login(await token({ sub: 'x', email: 'x@example.com', email_verified: true }, opts));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ['Sign in with Apple failed. Please try again.'] });
  });

  test('refuses a token signed by another key, and garbage', async () => {
    expect((await login(await token({ sub: 'x', email: 'y@example.com' }, { signWith: strangerKey }))).status).toBe(400);
    expect((await login('not.a.jwt')).status).toBe(400);
    const agent = guestAgent(app);
    const missing = await agent.post('/api/v2/profiles/auth/apple/manual-login/').set('X-CSRFToken', agent.csrfToken).send({});
    expect(missing.body).toEqual({ id_token: ['This field is required.'] });
  });

  test('is 404 when Apple sign-in is not configured', async () => {
    expect((await login(await token({ sub: 'x' }), t.app)).status).toBe(404);
  });
});
