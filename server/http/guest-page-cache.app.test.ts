import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../testing/test-app';
import { createArticle } from '../testing/fixtures';

// The guest page cache in the real app, as production runs it.
describe('guest page cache in production', () => {
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
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(second.text).toBe(first.text);

    const member = await createMember(t.ctx, { full_name: 'Jane Jacobs' });
    const page = await (await memberAgent(t, member)).get('/');
    expect(page.headers['x-page-cache']).toBeUndefined();
    expect(page.text).toContain('Jane Jacobs');
    expect(page.headers['cache-control']).toBe('private, no-store');

    const third = await request(t.app).get('/').set('Cookie', guest);
    expect(third.text).not.toContain('Jane Jacobs');
  });

  test('a visitor who answered the age gate is never served from the cache', async () => {
    const res = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'g'.repeat(43) + '; is_user_over_18=true');
    expect(res.headers['x-page-cache']).toBeUndefined();
  });
});
