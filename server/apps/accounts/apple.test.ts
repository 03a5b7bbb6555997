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
