import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../testing/test-app';
import { createArticle, createListing } from '../testing/fixtures';
import { rawGet } from '../testing/raw-get';

// The guest response cache in the real app, as production runs it.
describe('guest response cache in production', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'production', SESSION_SECRET: 'p'.repeat(48) });
    await createArticle(t.ctx.db, { name: 'Cached headline' });
  });
  afterAll(() => t.close());

  test('guests and members share one rendering, which names nobody', async () => {
    const guest = 'csrftoken=' + 'g'.repeat(43);
    const first = await request(t.app).get('/').set('Cookie', guest);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Cached headline');
    const second = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'h'.repeat(43));
    expect(second.headers['x-guest-cache']).toBe('hit');
    expect(second.text).toBe(first.text);

    const member = await createMember(t.ctx, { full_name: 'Jane Jacobs' });
    const page = await (await memberAgent(t, member)).get('/');
    expect(page.headers['x-guest-cache']).toBe('hit');
    expect(page.text).toBe(first.text);
    expect(page.text).not.toContain('Jane Jacobs');
    // Their answer renews their session cookie: only their own browser may keep it.
    expect(page.headers['cache-control']).toBe('private, max-age=60');
  });

  test('guests share one answer of a public read API; a member gets their own, with their rating', async () => {
    const listingId = await createListing(t.ctx.db, { name: 'Cached Cafe' });
    const url = `/api/v2/listings/${listingId}/`;
    const guest = 'csrftoken=' + 'g'.repeat(43);
    const first = await request(t.app).get(url).set('Cookie', guest);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=10');
    expect(first.headers.vary).toMatch(/Cookie/);
    expect(first.body.user_rating).toBeNull();

    const member = await createMember(t.ctx, { full_name: 'Rated Reader' });
    const agent = await memberAgent(t, member);
    await t.ctx.db('ratings').insert({ profile_id: member.id, listing_id: listingId, rating: 4 });
    const mine = await agent.get(url);
    expect(mine.headers['x-guest-cache']).toBeUndefined();
    expect(mine.headers['cache-control']).toBe('private, no-cache');
    expect(mine.body.user_rating).toMatchObject({ rating: 4 });

    const second = await request(t.app).get(url).set('Cookie', guest);
    expect(second.headers['x-guest-cache']).toBe('hit');
    expect(second.body).toEqual(first.body);
    const firstVisit = await request(t.app).get(url);
    expect(firstVisit.headers['x-guest-cache']).toBe('hit');
    // A first visit is given no cookie, so the answer stays one any shared cache may keep.
    expect(firstVisit.headers['cache-control']).toBe('public, max-age=10');
    expect(firstVisit.headers['set-cookie']).toBeUndefined();
  });

  test('host headers cannot poison what later guests get: links name SITE_URL only', async () => {
    await createListing(t.ctx.db, { name: 'Poison Pub' });
    await createListing(t.ctx.db, { name: 'Poison Patio' });
    const url = '/api/v2/listings/?limit=1&ordering=name';
    const site = t.config.site.url;
    const poison = await request(t.app).get(url).set('Host', 'evil.example').set('X-Forwarded-Host', '127.0.0.1').set('X-Forwarded-Proto', 'https');
    expect(poison.status).toBe(200);
    expect(poison.body.next).toBe(`${site}/api/v2/listings/?limit=1&ordering=name&offset=1`);
    const other = await request(t.app).get(url).set('X-Forwarded-Host', 'evil.example');
    expect(other.body.next).toBe(`${site}/api/v2/listings/?limit=1&ordering=name&offset=1`);
    const plain = await request(t.app).get(url);
    expect(plain.headers['x-guest-cache']).toBe('hit');
    expect(plain.body.next).toBe(`${site}/api/v2/listings/?limit=1&ordering=name&offset=1`);
    expect(plain.text).not.toContain('evil.example');
  });

  test('a request line naming another host is answered, and cached, as its path', async () => {
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    try {
      const absolute = await get('http://evil.example/about?x=1');
      expect(absolute.status).toBe(200);
      expect(absolute.body).not.toContain('evil.example');
      const page = await request(t.app).get('/about?x=1');
      expect(page.headers['x-guest-cache']).toBe('hit');
      expect(page.text).toContain('href="/accounts/login?next=%2Fabout%3Fx%3D1"');
      expect(page.text).not.toContain('evil.example');
      const api = await get('http://evil.example/api/v2/listings/?limit=1&ordering=-date_published');
      expect(JSON.parse(api.body).next).toBe(`${t.config.site.url}/api/v2/listings/?limit=1&ordering=-date_published&offset=1`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a browser that takes br gets brotli, from the compression middleware on a miss and from the cache on a hit', async () => {
    const guest = { Cookie: 'csrftoken=' + 'b'.repeat(43) };
    const browser = { ...guest, 'Accept-Encoding': 'gzip, deflate, br' };
    const miss = await rawGet(t.app, '/about?enc=1', browser);
    expect([miss.status, miss.headers['x-guest-cache'], miss.headers['content-encoding']]).toEqual([200, undefined, 'br']);
    const hit = await rawGet(t.app, '/about?enc=1', browser);
    expect([hit.headers['x-guest-cache'], hit.headers['content-encoding']]).toEqual(['hit', 'br']);
    expect(hit.headers.vary).toMatch(/Accept-Encoding/);
    const plain = await rawGet(t.app, '/about?enc=1', { ...guest, 'Accept-Encoding': 'identity' });
    expect([plain.headers['x-guest-cache'], plain.headers['content-encoding']]).toEqual(['hit', undefined]);
    expect(plain.body.toString('utf8')).toContain('</html>');
    expect(brotliDecompressSync(miss.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(hit.body).equals(plain.body)).toBe(true);
    expect(hit.headers.etag).toBe(plain.headers.etag);
    // nginx asks for gzip only (deploy/nginx.conf.template), as does a client that refuses br.
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip']) {
      const gzipped = await rawGet(t.app, '/about?enc=1', { ...guest, 'Accept-Encoding': acceptEncoding });
      expect([acceptEncoding, gzipped.headers['x-guest-cache'], gzipped.headers['content-encoding']]).toEqual([acceptEncoding, 'hit', 'gzip']);
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    }
    const notModified = await rawGet(t.app, '/about?enc=1', { ...browser, 'If-None-Match': String(hit.headers.etag) });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
  });

  test('a bad request is never cached and says no-store', async () => {
    const res = await request(t.app).get('/api/v2/listings/?ordering=nonsense');
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await request(t.app).get('/api/v2/listings/?ordering=nonsense');
    expect(again.headers['x-guest-cache']).toBeUndefined();
  });

  test("a visitor who answered the age gate is never served an answer made for one who did not (the answer is part of the key)", async () => {
    await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'g'.repeat(43));
    const res = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'g'.repeat(43) + '; is_user_over_18=true');
    expect(res.headers['x-guest-cache']).toBeUndefined();
    const again = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'h'.repeat(43) + '; is_user_over_18=true');
    expect(again.headers['x-guest-cache']).toBe('hit');
  });
});
