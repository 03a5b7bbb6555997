import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import cookieParser from 'cookie-parser';
import request from 'supertest';
import { rawGet } from '../testing/raw-get';
import { guestResponseCache } from './guest-response-cache';
import { setCookieMakesPrivate } from './set-cookie-private';

const GUEST = 'csrftoken=' + 'a'.repeat(43);

/**
 * A tiny app whose page counts how often it was rendered. A shareable page declares so
 * (res.locals.sharedCacheControl) as http/pages/cache-policy.ts does; an answer that sets a
 * cookie is made private as it is sent (set-cookie-private.ts), as in the real app. With
 * `cookieBefore`, a step before the cache sets a cookie on every answer, as the session
 * middleware renews a member's rolling session.
 */
function appWith(opts: { shared?: boolean; status?: number; setCookie?: boolean; cookieBefore?: boolean; gate?: () => Promise<void> } = {}) {
  const { shared = true } = opts;
  let renders = 0;
  let clock = 1_000;
  const app = express();
  app.use(setCookieMakesPrivate);
  app.use((_req, res, next) => {
    if (opts.cookieBefore) res.cookie('sessionid', 'renewed');
    next();
  });
  app.use(guestResponseCache({ ttlMs: 10_000, refreshAfterMs: 5_000, now: () => clock }));
  app.get('/page/', async (req, res) => {
    renders += 1;
    const rendering = renders;
    if (opts.gate) await opts.gate();
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
    res.send(`<p>render ${rendering}</p>`);
  });
  app.get('/api/v2/things/', (_req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=60').json({ renders });
  });
  app.get('/api/v2/shared-things/', (_req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=10');
    res.locals.sharedCacheControl = 'public, max-age=10';
    res.json({ renders });
  });
  return { app, renders: () => renders, advance: (ms: number) => (clock += ms) };
}

test('a shared guest page is rendered once and served from the cache until it expires', async () => {
  const t = appWith();
  const first = await request(t.app).get('/page/').set('Cookie', GUEST);
  const second = await request(t.app).get('/page/').set('Cookie', 'csrftoken=' + 'b'.repeat(43));
  expect(second.text).toBe(first.text);
  expect(second.headers['x-guest-cache']).toBe('hit');
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers.vary).toBe('Cookie, Accept-Encoding');
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

test('an API answer is cached only when its handler declares it the same for every guest', async () => {
  const t = appWith();
  await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  const again = await request(t.app).get('/api/v2/things/').set('Cookie', GUEST);
  expect(again.body.renders).toBe(2);

  const first = await request(t.app).get('/api/v2/shared-things/').set('Cookie', GUEST);
  const second = await request(t.app).get('/api/v2/shared-things/').set('Cookie', GUEST);
  expect(second.headers['x-guest-cache']).toBe('hit');
  expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(second.body).toEqual(first.body);
  expect(second.headers.etag).toBe(first.headers.etag);
  const member = await request(t.app).get('/api/v2/shared-things/').set('Cookie', `${GUEST}; sessionid=s%3Aabc`);
  expect(member.body.renders).toBe(4);
});

test('another query is another entry; host headers are not part of the key', async () => {
  const t = appWith();
  await request(t.app).get('/api/v2/shared-things/?page=1').set('Cookie', GUEST);
  const otherQuery = await request(t.app).get('/api/v2/shared-things/?page=2').set('Cookie', GUEST);
  // Answers name SITE_URL, never the request's host, so a host of the sender's choosing
  // neither gets an entry of its own nor changes the one every guest is served.
  const otherHost = await request(t.app).get('/api/v2/shared-things/?page=1').set('Host', 'other.example').set('X-Forwarded-Host', 'evil.example').set('Cookie', GUEST);
  expect([otherQuery.body.renders, otherHost.body.renders]).toEqual([2, 1]);
  expect(otherHost.headers['x-guest-cache']).toBe('hit');
});

/** A gate the page handler waits at, opened by the test. */
function gate() {
  let open!: () => void;
  let opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait: () => opened,
    open: () => open(),
    close: () => {
      opened = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

test('requests that arrive while an answer is being produced wait for it instead of producing it again', async () => {
  const g = gate();
  const t = appWith({ gate: g.wait });
  const pending = Array.from({ length: 5 }, () => request(t.app).get('/page/').set('Cookie', GUEST).then((r) => r));
  await new Promise((resolve) => setTimeout(resolve, 50));
  g.open();
  const answers = await Promise.all(pending);
  expect(t.renders()).toBe(1);
  expect(answers.map((a) => a.text)).toEqual(Array(5).fill('<p>render 1</p>'));
});

test('a steadily read entry is refreshed by one request while the others are served the current copy', async () => {
  const g = gate();
  const t = appWith({ gate: g.wait });
  g.open();
  await request(t.app).get('/page/').set('Cookie', GUEST);
  t.advance(6_000); // past refreshAfterMs, within the TTL
  g.close();
  const refreshing = request(t.app).get('/page/').set('Cookie', GUEST).then((r) => r);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const meanwhile = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(meanwhile.text).toBe('<p>render 1</p>');
  expect(meanwhile.headers['x-guest-cache']).toBe('hit');
  g.open();
  expect((await refreshing).text).toBe('<p>render 2</p>');
  const after = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(after.text).toBe('<p>render 2</p>');
  expect(t.renders()).toBe(2);
});

test('a first visit (no cookie) is served the cached page as it is: public, no cookie set', async () => {
  const t = appWith();
  await request(t.app).get('/page/').set('Cookie', GUEST); // stored
  const firstVisit = await request(t.app).get('/page/');
  expect(t.renders()).toBe(1);
  expect(firstVisit.headers['x-guest-cache']).toBe('hit');
  expect(firstVisit.headers['cache-control']).toBe('public, max-age=60');
  expect(firstVisit.headers['set-cookie']).toBeUndefined();
  expect(firstVisit.text).toBe('<p>render 1</p>');
});

test('a hit whose answer gets a cookie from a step before the cache (a rolling session) is made private', async () => {
  const t = appWith({ cookieBefore: true });
  await request(t.app).get('/page/'); // stored: the cookie came before the cache, so it is not the page's
  const again = await request(t.app).get('/page/');
  expect(t.renders()).toBe(1);
  expect(again.headers['x-guest-cache']).toBe('hit');
  expect(again.headers['cache-control']).toBe('private, max-age=60');
  expect(again.headers['set-cookie']?.[0]).toMatch(/^sessionid=renewed/);
});

test('a first visit to a page declared shared is stored for the next visitors', async () => {
  const t = appWith();
  const firstEver = await request(t.app).get('/page/');
  expect(firstEver.headers['cache-control']).toBe('public, max-age=60');
  expect(firstEver.headers['set-cookie']).toBeUndefined();
  const returning = await request(t.app).get('/page/').set('Cookie', GUEST);
  expect(t.renders()).toBe(1);
  expect(returning.headers['cache-control']).toBe('public, max-age=60');
  expect(returning.headers['set-cookie']).toBeUndefined();
});

/** A shared JSON list of about 5 KB, counting how often it was produced. */
function bigApp(opts: { maxBytes?: number } = {}) {
  const app = express();
  let renders = 0;
  app.use(guestResponseCache({ ttlMs: 10_000, maxBytes: opts.maxBytes }));
  app.get('/list/', (_req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=10');
    res.locals.sharedCacheControl = 'public, max-age=10';
    res.json({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Place ${i}` })) });
  });
  return { app, renders: () => renders };
}

test('a client that accepts gzip gets the entry compressed once, with the same ETag and body', async () => {
  const big = bigApp();
  const plain = await request(big.app).get('/list/').set('Accept-Encoding', 'identity');
  const gzipped = await request(big.app).get('/list/').set('Accept-Encoding', 'gzip, deflate');
  expect(gzipped.headers['x-guest-cache']).toBe('hit');
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
  expect(gzipped.body).toEqual(plain.body);
  expect(gzipped.headers.etag).toBe(plain.headers.etag);
  const identity = await request(big.app).get('/list/').set('Accept-Encoding', 'identity');
  expect(identity.headers['content-encoding']).toBeUndefined();
  expect(identity.body).toEqual(plain.body);
  expect(big.renders()).toBe(1);
});

test('a browser that accepts br gets the entry in brotli: the same bytes once decompressed, the same ETag', async () => {
  const big = bigApp();
  const plain = await rawGet(big.app, '/list/', { 'Accept-Encoding': 'identity' });
  expect(plain.headers['content-encoding']).toBeUndefined();
  // As browsers ask: gzip listed first, br at the same q.
  for (const attempt of [1, 2]) {
    const br = await rawGet(big.app, '/list/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect([attempt, br.headers['x-guest-cache'], br.headers['content-encoding']]).toEqual([attempt, 'hit', 'br']);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(gzipSync(plain.body).length);
  }
  expect(big.renders()).toBe(1);
});

test('a client that takes gzip only, refuses br (br;q=0) or prefers gzip (a higher q), still gets gzip, after the brotli copy was made', async () => {
  const big = bigApp();
  const plain = await rawGet(big.app, '/list/', { 'Accept-Encoding': 'identity' });
  await rawGet(big.app, '/list/', { 'Accept-Encoding': 'br' }); // the brotli copy is made first
  for (const acceptEncoding of ['gzip', 'gzip, deflate', 'br;q=0, gzip', 'br;q=0.5, gzip', 'gzip;q=0.9, br;q=0.2, *;q=0.1']) {
    const answer = await rawGet(big.app, '/list/', { 'Accept-Encoding': acceptEncoding });
    expect([acceptEncoding, answer.headers['content-encoding']]).toEqual([acceptEncoding, 'gzip']);
    expect(gunzipSync(answer.body).equals(plain.body)).toBe(true);
    expect(answer.headers.etag).toBe(plain.headers.etag);
  }
  for (const acceptEncoding of ['gzip, br', 'gzip;q=0.5, br;q=0.5', 'gzip;q=0.5, br']) {
    const answer = await rawGet(big.app, '/list/', { 'Accept-Encoding': acceptEncoding });
    expect([acceptEncoding, answer.headers['content-encoding']]).toEqual([acceptEncoding, 'br']);
  }
  const br = await rawGet(big.app, '/list/', { 'Accept-Encoding': 'gzip, br' });
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  expect(big.renders()).toBe(1);
});

test('a conditional request answers 304 whichever encoding the client takes', async () => {
  const big = bigApp();
  const first = await rawGet(big.app, '/list/', { 'Accept-Encoding': 'gzip, deflate, br' });
  const etag = String(first.headers.etag);
  for (const acceptEncoding of ['gzip, deflate, br', 'gzip', 'identity']) {
    const again = await rawGet(big.app, '/list/', { 'Accept-Encoding': acceptEncoding, 'If-None-Match': etag });
    expect([acceptEncoding, again.status, again.headers['x-guest-cache'], again.body.length]).toEqual([acceptEncoding, 304, 'hit', 0]);
  }
  expect(big.renders()).toBe(1);
});

test('the compressed copies count toward maxBytes', async () => {
  // Bodies that barely compress: the brotli copy is almost as large as the body.
  const app = express();
  app.use(guestResponseCache({ ttlMs: 10_000, maxBytes: 10_000 }));
  app.get('/noise/:n/', (req, res) => {
    res.locals.sharedCacheControl = 'public, max-age=10';
    res.json({ n: req.params.n, noise: randomBytes(3_000).toString('base64') });
  });
  const a = await rawGet(app, '/noise/a/', { 'Accept-Encoding': 'identity' });
  await rawGet(app, '/noise/b/', { 'Accept-Encoding': 'identity' });
  expect(a.body.length).toBeGreaterThan(4_000); // two bodies fit in 10,000 bytes, not three
  expect((await rawGet(app, '/noise/b/', { 'Accept-Encoding': 'identity' })).headers['x-guest-cache']).toBe('hit');
  expect((await rawGet(app, '/noise/a/', { 'Accept-Encoding': 'br' })).headers['content-encoding']).toBe('br');
  // a's body and its brotli copy, with b's body, are over maxBytes: b, the least recently used, went.
  expect((await rawGet(app, '/noise/a/', { 'Accept-Encoding': 'br' })).headers['x-guest-cache']).toBe('hit');
  expect((await rawGet(app, '/noise/b/', { 'Accept-Encoding': 'identity' })).headers['x-guest-cache']).toBeUndefined();
});

test('the cache holds at most maxBytes of bodies: the oldest entries go first', async () => {
  const app = express();
  let renders = 0;
  app.use(guestResponseCache({ ttlMs: 10_000, maxBytes: 2_500 }));
  app.get('/item/:n/', (req, res) => {
    renders += 1;
    res.locals.sharedCacheControl = 'public, max-age=10';
    res.json({ n: req.params.n, padding: 'x'.repeat(1_000) });
  });
  for (const n of [1, 2, 3]) await request(app).get(`/item/${n}/`).set('Accept-Encoding', 'identity');
  expect(renders).toBe(3);
  // Two bodies of about 1 KB fit in 2,500 bytes: the third pushed the first out.
  expect((await request(app).get('/item/3/').set('Accept-Encoding', 'identity')).headers['x-guest-cache']).toBe('hit');
  expect((await request(app).get('/item/2/').set('Accept-Encoding', 'identity')).headers['x-guest-cache']).toBe('hit');
  expect((await request(app).get('/item/1/').set('Accept-Encoding', 'identity')).headers['x-guest-cache']).toBeUndefined();
  expect(renders).toBe(4);
});

test('before the session: a session is read once per renewal interval, other hits cost no session read, nor does a first visit', async () => {
  let clock = 1_000;
  let sessionReads = 0;
  const cache = guestResponseCache({ ttlMs: 60_000, now: () => clock, cookies: { ignored: ['sessionid'], keyed: [], session: { name: 'sessionid', renewEveryMs: 1_000 } } });
  const app = express();
  app.use(cookieParser());
  app.use(cache.beforeSession);
  app.use((_req, _res, next) => {
    sessionReads += 1; // stands for the session middleware (a store read, the rolling cookie)
    next();
  });
  app.use(cache);
  app.get('/page/', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60');
    res.locals.sharedCacheControl = 'public, max-age=60';
    res.locals.sameForMembers = true;
    res.send('<p>the same for everybody</p>');
  });
  const member = `${GUEST}; sessionid=s%3Aabc.def`;
  await request(app).get('/page/').set('Cookie', GUEST);
  expect(sessionReads).toBe(1);
  expect((await request(app).get('/page/').set('Cookie', GUEST)).headers['x-guest-cache']).toBe('hit');
  expect(sessionReads).toBe(1);
  await request(app).get('/page/').set('Cookie', member);
  expect(sessionReads).toBe(2); // this session's first: renewed
  expect((await request(app).get('/page/').set('Cookie', member)).headers['x-guest-cache']).toBe('hit');
  expect(sessionReads).toBe(2);
  clock += 1_001;
  await request(app).get('/page/').set('Cookie', member);
  expect(sessionReads).toBe(3); // renewed again once the interval is over
  // A first visit (no cookie at all) needs no session and no token: served before the session.
  expect((await request(app).get('/page/')).headers['x-guest-cache']).toBe('hit');
  expect(sessionReads).toBe(3);
});

test('before the session: a guest-only answer (a read API) goes to visitors with no session cookie, never to one with a session', async () => {
  let sessionReads = 0;
  let renders = 0;
  const cache = guestResponseCache({ ttlMs: 60_000, cookies: { ignored: ['sessionid'], keyed: [], session: { name: 'sessionid', renewEveryMs: 1_000 } } });
  const app = express();
  app.use(cookieParser());
  app.use(cache.beforeSession);
  app.use((req, _res, next) => {
    sessionReads += 1;
    // Stands for the session middleware: this session is a signed-in member.
    if (req.cookies.sessionid) (req as unknown as { user: object }).user = { id: 1 };
    next();
  });
  app.use(cache);
  app.get('/api/v2/shared-things/', (req, res) => {
    renders += 1;
    res.set('Cache-Control', 'public, max-age=10');
    if (!(req as unknown as { user?: object }).user) res.locals.sharedCacheControl = 'public, max-age=10';
    res.json({ renders, member: Boolean((req as unknown as { user?: object }).user) });
  });
  expect((await request(app).get('/api/v2/shared-things/').set('Cookie', GUEST)).body).toEqual({ renders: 1, member: false });
  expect(sessionReads).toBe(1);
  const hit = await request(app).get('/api/v2/shared-things/').set('Cookie', GUEST);
  expect(hit.headers['x-guest-cache']).toBe('hit');
  expect(hit.body).toEqual({ renders: 1, member: false });
  expect(sessionReads).toBe(1); // served before the session
  // A member is never handed the guest's answer, before the session or after it.
  for (let i = 0; i < 2; i++) {
    const own = await request(app).get('/api/v2/shared-things/').set('Cookie', `${GUEST}; sessionid=s%3Aabc.def`);
    expect(own.headers['x-guest-cache']).toBeUndefined();
    expect(own.body).toMatchObject({ member: true });
  }
  expect(sessionReads).toBe(3);
});
