import request from 'supertest';
import { Router } from 'express';
import { z } from 'zod';
import { createTestContext, guestAgent, type TestContext } from '../testing/test-app';
import { createApp } from '../app';
import { validate } from './validate';
import { paginated, pageParams } from './pagination';

describe('HTTP conventions', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('an unknown API path answers a DRF-shaped JSON 404, never HTML', async () => {
    const res = await request(t.app).get('/api/v2/nothing-here/');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/json');
    expect(res.body).toEqual({ detail: 'Not found.' });
  });

  test('an unknown page answers the HTML 404 page in the site layout', async () => {
    const res = await request(t.app).get('/no/such/page/');
    expect(res.status).toBe(404);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('Page not found');
    expect(res.text).toContain('class="site-header"');
  });

  test('a content page sets no cookie; a page holding a form sets csrftoken, Lax and readable by scripts', async () => {
    const page = await request(t.app).get('/about');
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    const res = await request(t.app).get('/accounts/login');
    expect(res.status).toBe(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('csrftoken='));
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/HttpOnly/i);
  });

  test('unsafe methods need the X-CSRFToken header matching the cookie', async () => {
    const agent = guestAgent(t.app);
    const missing = await agent.post('/api/v2/nothing-here/').send({});
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toMatch(/^CSRF Failed: /);
    const wrong = await agent.post('/api/v2/nothing-here/').set('X-CSRFToken', 'x'.repeat(43)).send({});
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail).toBe('CSRF Failed: CSRF token incorrect.');
    const right = await agent.post('/api/v2/nothing-here/').set('X-CSRFToken', agent.csrfToken).send({});
    expect(right.status).toBe(404);
  });

  test('malformed JSON is a 400 with a detail, not a 500', async () => {
    const agent = guestAgent(t.app);
    const res = await agent.post('/api/v2/nothing-here/').set('X-CSRFToken', agent.csrfToken).set('Content-Type', 'application/json').send('{"a": ');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/JSON parse error/);
  });

  test('validation errors name the field; pagination answers count/next/previous/results', async () => {
    const app = createApp(t.ctx);
    const router = Router();
    router.get('/api/v2/test-items/', (req, res) => {
      const params = pageParams(req, 2);
      const all = [1, 2, 3, 4, 5];
      res.json(paginated(req, params, all.length, all.slice(params.offset, params.offset + params.limit)));
    });
    router.post('/api/v2/test-items/', (req, res) => {
      res.json(validate(z.object({ name: z.string().max(5) }), req.body));
    });
    app.router.stack.splice(app.router.stack.length - 2, 0, ...Router().use(router).stack);
    const page = await request(app).get('/api/v2/test-items/?offset=2');
    expect(page.body.count).toBe(5);
    expect(page.body.results).toEqual([3, 4]);
    const next = new URL(page.body.next);
    expect([next.searchParams.get('limit'), next.searchParams.get('offset')]).toEqual(['2', '4']);
    const previous = new URL(page.body.previous);
    expect([previous.searchParams.get('limit'), previous.searchParams.get('offset')]).toEqual(['2', null]);
    const bad = await request(app).get('/api/v2/test-items/?limit=-1&offset=abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ limit: ['A valid integer is required.'], offset: ['A valid integer is required.'] });
    const huge = await request(app).get('/api/v2/test-items/?limit=10000');
    expect(huge.status).toBe(400);
    expect(huge.body.limit[0]).toMatch(/less than or equal to 100/);
    const agent = guestAgent(app);
    const invalid = await agent.post('/api/v2/test-items/').set('X-CSRFToken', agent.csrfToken).send({ name: 'much too long' });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body)).toEqual(['name']);
    const missing = await agent.post('/api/v2/test-items/').set('X-CSRFToken', agent.csrfToken).send({});
    expect(missing.body).toEqual({ name: ['This field is required.'] });
  });

  test('security headers include a Content-Security-Policy', async () => {
    const res = await request(t.app).get('/about');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test('the home page renders with no articles yet', async () => {
    const res = await request(t.app).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Latest News');
  });
});
