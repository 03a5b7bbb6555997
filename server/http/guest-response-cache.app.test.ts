import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../testing/test-app';
import { createArticle, createListing } from '../testing/fixtures';

// The guest response cache in the real app, as production runs it.
describe('guest response cache in production', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'production', SESSION_SECRET: 'p'.repeat(48) });
    await createArticle(t.ctx.db, { name: 'Cached headline' });
  });
  afterAll(() => t.close());

  test('guests share one rendering; a member always gets their own page', async () => {
    const guest = 'csrftoken=' + 'g'.repeat(43);
    const first = await request(t.app).get('/').set('Cookie', guest);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Cached headline');
    const second = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'h'.repeat(43));
    expect(second.headers['x-guest-cache']).toBe('hit');
    expect(second.text).toBe(first.text);

    const member = await createMember(t.ctx, { full_name: 'Jane Jacobs' });
    const page = await (await memberAgent(t, member)).get('/');
    expect(page.headers['x-guest-cache']).toBeUndefined();
    expect(page.text).toContain('Jane Jacobs');
    expect(page.headers['cache-control']).toBe('private, no-store');

    const third = await request(t.app).get('/').set('Cookie', guest);
    expect(third.text).not.toContain('Jane Jacobs');
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
    expect(firstVisit.headers['cache-control']).toBe('private, max-age=10');
    expect(firstVisit.headers['set-cookie']?.[0]).toMatch(/^csrftoken=/);
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

  test('a bad request is never cached and says no-store', async () => {
    const res = await request(t.app).get('/api/v2/listings/?ordering=nonsense');
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await request(t.app).get('/api/v2/listings/?ordering=nonsense');
    expect(again.headers['x-guest-cache']).toBeUndefined();
  });

  test('a visitor who answered the age gate is never served from the cache', async () => {
    const res = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'g'.repeat(43) + '; is_user_over_18=true');
    expect(res.headers['x-guest-cache']).toBeUndefined();
  });
});
