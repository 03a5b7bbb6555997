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
