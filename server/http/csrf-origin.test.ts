import { createTestContext, guestAgent, type TestContext } from '../testing/test-app';
import { originTrusted } from './csrf';

// Django's origin checking on top of the token pair: a valid token is not enough when the
// request says it comes from another site.
describe('CSRF origin checking', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ SITE_URL: 'http://guide.example:8000', CSRF_TRUSTED_ORIGINS: 'https://partner.example, https://*.trusted.example' });
  });
  afterAll(() => t.close());

  // A POST that passes every check answers 404 (nothing lives there); a CSRF failure, 403.
  const post = (app: typeof t.app, headers: Record<string, string>) => {
    const agent = guestAgent(app);
    const req = agent.post('/api/v2/nothing-here/').set('X-CSRFToken', agent.csrfToken);
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req.send({});
  };

  test('a valid token pair from another origin is refused, in Django words', async () => {
    const res = await post(t.app, { Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins.' });
  });

  test.each(['null', 'http://guide.example', 'https://guide.example:8000', 'http://guide.example:8000.evil.example', 'http://evil.trusted.example', 'https://trusted.example.evil', 'not a url'])(
    'Origin %p is refused',
    async (origin) => {
      const res = await post(t.app, { Origin: origin });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(`CSRF Failed: Origin checking failed - ${origin} does not match any trusted origins.`);
    },
  );

  test.each(['http://guide.example:8000', 'HTTP://GUIDE.EXAMPLE:8000', 'https://partner.example', 'https://trusted.example', 'https://a.b.trusted.example'])(
    'Origin %p (SITE_URL or trusted) is let through to the token check',
    async (origin) => {
      expect((await post(t.app, { Origin: origin })).status).toBe(404);
      const agent = guestAgent(t.app);
      const noToken = await agent.post('/api/v2/nothing-here/').set('Origin', origin).send({});
      expect(noToken.body.detail).toBe('CSRF Failed: CSRF token missing.');
    },
  );

  test('a form from another origin gets the HTML 403, even without a cookie', async () => {
    const agent = guestAgent(t.app);
    const form = await agent.post('/accounts/login').set('Origin', 'https://evil.example').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: 'a@example.com', password: 'x' });
    expect(form.status).toBe(403);
    expect(form.type).toBe('text/html');
    const { default: request } = await import('supertest');
    const cookieless = await request(t.app).post('/api/v2/nothing-here/').set('Origin', 'https://evil.example').send({});
    expect(cookieless.body.detail).toMatch(/^CSRF Failed: Origin checking failed/);
  });

  test("pages keep the browser's Origin on this site's own forms (Referrer-Policy: same-origin, not no-referrer)", async () => {
    const { default: request } = await import('supertest');
    expect((await request(t.app).get('/about')).headers['referrer-policy']).toBe('same-origin');
  });

  test('over plain HTTP a request without Origin is judged on its token (as Django does)', async () => {
    expect((await post(t.app, {})).status).toBe(404);
    expect((await post(t.app, { Referer: 'https://evil.example/page' })).status).toBe(404);
  });

  describe('over HTTPS (behind the proxy)', () => {
    let app: typeof t.app;
    beforeAll(() => {
      app = t.rebuild({ SITE_URL: 'https://guide.example' });
    });
    // The proxy on loopback (TRUST_PROXY) says the visitor came over HTTPS.
    const secure = (headers: Record<string, string>) => post(app, { 'X-Forwarded-Proto': 'https', ...headers });

    test('a request without Origin needs a Referer from a trusted origin', async () => {
      expect((await secure({})).body).toEqual({ detail: 'CSRF Failed: Referer checking failed - no Referer.' });
      expect((await secure({ Referer: 'https://evil.example/page' })).body).toEqual({
        detail: 'CSRF Failed: Referer checking failed - https://evil.example/page does not match any trusted origins.',
      });
      expect((await secure({ Referer: 'http://guide.example/page' })).body).toEqual({ detail: 'CSRF Failed: Referer checking failed - Referer is insecure while host is secure.' });
      expect((await secure({ Referer: 'nonsense' })).body).toEqual({ detail: 'CSRF Failed: Referer checking failed - Referer is malformed.' });
      expect((await secure({ Referer: 'https://guide.example/events/add/' })).status).toBe(404);
      expect((await secure({ Referer: 'https://shop.trusted.example/' })).status).toBe(404);
    });

    test('Origin, when sent, is what counts', async () => {
      expect((await secure({ Origin: 'https://guide.example' })).status).toBe(404);
      expect((await secure({ Origin: 'https://evil.example', Referer: 'https://guide.example/' })).status).toBe(403);
    });
  });
});

describe('originTrusted', () => {
  test('matches exact origins and Django-style subdomain wildcards', () => {
    const trusted = ['https://guide.example', 'https://*.cdn.example:8443'];
    expect(originTrusted('https://guide.example', trusted)).toBe(true);
    expect(originTrusted('https://guide.example:443', trusted)).toBe(true);
    expect(originTrusted('https://x.cdn.example:8443', trusted)).toBe(true);
    expect(originTrusted('https://x.cdn.example', trusted)).toBe(false);
    expect(originTrusted('https://xcdn.example:8443', trusted)).toBe(false);
    expect(originTrusted('http://guide.example', trusted)).toBe(false);
    expect(originTrusted('null', trusted)).toBe(false);
    expect(originTrusted('', trusted)).toBe(false);
  });
});
