import express from 'express';
import request from 'supertest';
import { guestPageCache } from './guest-page-cache';

// A tiny app whose page counts how often it was rendered.
function appWith(cacheControl: string, opts: { status?: number; setCookie?: boolean } = {}) {
  let renders = 0;
  let clock = 1_000;
  const cache = guestPageCache({ ttlMs: 10_000, now: () => clock });
  const app = express();
  app.use(cache);
  app.get('/page/', (_req, res) => {
    renders += 1;
    if (opts.setCookie) res.cookie('is_user_over_18', 'true');
    // As res.render() does: a string, no Content-Type set yet.
    res.status(opts.status ?? 200).set('Cache-Control', cacheControl).set('Vary', 'Cookie').send(`<p>render ${renders}</p>`);
  });
  app.get('/api/v2/things/', (_req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=60').json({ renders });
  });
  return { app, renders: () => renders, advance: (ms: number) => (clock += ms) };
}

const GUEST = 'csrftoken=' + 'a'.repeat(43);

test('a public guest page is rendered once and served from the cache until it expires', async () => {
  const t = appWith('public, max-age=60');
  const first = await request(t.app).get('/page/').set('Cookie', GUEST);
  const second = await request(t.app).get('/page/').set('Cookie', 'csrftoken=' + 'b'.repeat(43));
  expect(second.text).toBe(first.text);
  expect(second.headers['x-page-cache']).toBe('hit');
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers.vary).toBe('Cookie');
  expect(t.renders()).toBe(1);
  const notModified = await request(t.app).get('/page/').set('Cookie', GUEST).set('If-None-Match', first.headers.etag);
  expect(notModified.status).toBe(304);
  t.advance(10_001);
  const fresh = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(fresh.text).toBe('<p>render 2</p>');
});

test('members, visitors with other cookies and private pages are never cached', async () => {
  const t = appWith('public, max-age=60');
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; sessionid=s%3Aabc`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; sessionid=s%3Aabc`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; is_user_over_18=true`);
  await request(t.app).get('/page/').set('Cookie', `${GUEST}; is_user_over_18=true`);
  expect(t.renders()).toBe(4);

  const privatePage = appWith('private, no-cache');
  await request(privatePage.app).get('/page/').set('Cookie', GUEST);
  await request(privatePage.app).get('/page/').set('Cookie', GUEST);
  expect(privatePage.renders()).toBe(2);

  const settingCookie = appWith('public, max-age=60', { setCookie: true });
  await request(settingCookie.app).get('/page/').set('Cookie', GUEST);
  await request(settingCookie.app).get('/page/').set('Cookie', GUEST);
  expect(settingCookie.renders()).toBe(2);

  const notFound = appWith('public, max-age=60', { status: 404 });
  await request(notFound.app).get('/page/').set('Cookie', GUEST);
  await request(notFound.app).get('/page/').set('Cookie', GUEST);
  expect(notFound.renders()).toBe(2);
});

test('API answers are not cached: their data is fetched fresh each time', async () => {
  const t = appWith('public, max-age=60');
  await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  const again = await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  expect(again.body.renders).toBe(2);
});

test('a first visit is served the cached page, marked private because its answer sets the csrftoken cookie', async () => {
  let renders = 0;
  const app = express();
  app.use((req, res, next) => {
    // as the CSRF middleware does for a request without the cookie
    if (!req.headers.cookie) res.cookie('csrftoken', 'c'.repeat(43));
    next();
  });
  app.use(guestPageCache());
  app.get('/page/', (req, res) => {
    renders += 1;
    res.set('Cache-Control', req.headers.cookie ? 'public, max-age=60' : 'private, max-age=60').send('<p>same for every guest</p>');
  });
  const firstEver = await request(app).get('/page/');
  expect(firstEver.headers['cache-control']).toBe('private, max-age=60'); // not stored: it set a cookie
  await request(app).get('/page/').set('Cookie', GUEST); // stored
  const firstVisit = await request(app).get('/page/');
  expect(renders).toBe(2);
  expect(firstVisit.headers['x-page-cache']).toBe('hit');
  expect(firstVisit.headers['cache-control']).toBe('private, max-age=60');
  expect(firstVisit.headers['set-cookie']?.[0]).toMatch(/^csrftoken=/);
  expect(firstVisit.text).toBe('<p>same for every guest</p>');
});

test('a first visit to a page that declares itself the same for every guest is stored for the next visitors', async () => {
  let renders = 0;
  const app = express();
  app.use((req, res, next) => {
    if (!req.headers.cookie) res.cookie('csrftoken', 'c'.repeat(43));
    next();
  });
  app.use(guestPageCache());
  app.get('/page/', (req, res) => {
    renders += 1;
    res.set('Cache-Control', req.headers.cookie ? 'public, max-age=60' : 'private, max-age=60');
    res.locals.sharedCacheControl = 'public, max-age=60';
    res.send('<p>same for every guest</p>');
  });
  await request(app).get('/page/');
  const returning = await request(app).get('/page/').set('Cookie', GUEST);
  expect(renders).toBe(1);
  expect(returning.headers['cache-control']).toBe('public, max-age=60');
  expect(returning.headers['set-cookie']).toBeUndefined();
});
