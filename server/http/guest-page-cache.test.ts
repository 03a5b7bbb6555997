import express from 'express';
import request from 'supertest';
import { guestPageCache } from './guest-page-cache';

const GUEST = 'csrftoken=' + 'a'.repeat(43);

/**
 * A tiny app whose page counts how often it was rendered. Like the real app, a request with
 * no cookie gets a csrftoken cookie before the cache runs, and a shareable page declares so
 * (res.locals.sharedCacheControl) as apps/site-pages/cache-headers.ts does.
 */
function appWith(opts: { shared?: boolean; status?: number; setCookie?: boolean } = {}) {
  const { shared = true } = opts;
  let renders = 0;
  let clock = 1_000;
  const app = express();
  app.use((req, res, next) => {
    if (!req.headers.cookie) res.cookie('csrftoken', 'c'.repeat(43));
    next();
  });
  app.use(guestPageCache({ ttlMs: 10_000, now: () => clock }));
  app.get('/page/', (req, res) => {
    renders += 1;
    if (opts.setCookie) res.cookie('is_user_over_18', 'true');
    const setsCookie = Boolean(res.get('Set-Cookie'));
    res.status(opts.status ?? 200).set('Vary', 'Cookie');
    if (shared) {
      res.set('Cache-Control', setsCookie ? 'private, max-age=60' : 'public, max-age=60');
      res.locals.sharedCacheControl = 'public, max-age=60';
    } else {
      res.set('Cache-Control', 'private, no-cache');
    }
    // As res.render() does: a string, no Content-Type set yet.
    res.send(`<p>render ${renders}</p>`);
  });
  app.get('/api/v2/things/', (_req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=60').json({ renders });
  });
  return { app, renders: () => renders, advance: (ms: number) => (clock += ms) };
}

test('a shared guest page is rendered once and served from the cache until it expires', async () => {
  const t = appWith();
  const first = await request(t.app).get('/page/').set('Cookie', GUEST);
  const second = await request(t.app).get('/page/').set('Cookie', 'csrftoken=' + 'b'.repeat(43));
  expect(second.text).toBe(first.text);
  expect(second.headers['x-page-cache']).toBe('hit');
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers.vary).toBe('Cookie');
  expect(second.headers['cache-control']).toBe('public, max-age=60');
  expect(t.renders()).toBe(1);
  const notModified = await request(t.app).get('/page/').set('Cookie', GUEST).set('If-None-Match', first.headers.etag);
  expect(notModified.status).toBe(304);
  t.advance(10_001);
  const fresh = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(fresh.text).toBe('<p>render 2</p>');
});

test('members, visitors with other cookies and pages not declared shared are never cached', async () => {
  const t = appWith();
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; sessionid=s%3Aabc`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; sessionid=s%3Aabc`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; is_user_over_18=true`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; is_user_over_18=true`);
  expect(t.renders()).toBe(4);

  const privatePage = appWith({ shared: false });
  await request(privatePage.app).get('/page/').set('Cookie', GUEST);
  await request(privatePage.app).get('/page/').set('Cookie', GUEST);
  expect(privatePage.renders()).toBe(2);

  const settingCookie = appWith({ setCookie: true });
  await request(settingCookie.app).get('/page/').set('Cookie', GUEST);
  await request(settingCookie.app).get('/page/').set('Cookie', GUEST);
  expect(settingCookie.renders()).toBe(2);

  const notFound = appWith({ status: 404 });
  await request(notFound.app).get('/page/').set('Cookie', GUEST);
  await request(notFound.app).get('/page/').set('Cookie', GUEST);
  expect(notFound.renders()).toBe(2);
});

test('API answers are not cached: their data is fetched fresh each time', async () => {
  const t = appWith();
  await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  const again = await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  expect(again.body.renders).toBe(2);
});

test('a first visit is served the cached page, marked private because its answer sets the csrftoken cookie', async () => {
  const t = appWith();
  await request(t.app).get('/page/').set('Cookie', GUEST); // stored
  const firstVisit = await request(t.app).get('/page/');
  expect(t.renders()).toBe(1);
  expect(firstVisit.headers['x-page-cache']).toBe('hit');
  expect(firstVisit.headers['cache-control']).toBe('private, max-age=60');
  expect(firstVisit.headers['set-cookie']?.[0]).toMatch(/^csrftoken=/);
  expect(firstVisit.text).toBe('<p>render 1</p>');
});

test('a first visit to a page declared shared is stored for the next visitors', async () => {
  const t = appWith();
  const firstEver = await request(t.app).get('/page/');
  expect(firstEver.headers['cache-control']).toBe('private, max-age=60');
  const returning = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(t.renders()).toBe(1);
  expect(returning.headers['cache-control']).toBe('public, max-age=60');
  expect(returning.headers['set-cookie']).toBeUndefined();
});
