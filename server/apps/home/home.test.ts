import request from 'supertest';
import { createTestContext, createMember, memberAgent, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent } from '../../testing/fixtures';

describe('home page', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await createArticle(t.ctx.db, { name: 'Latest <b>headline</b>' });
    await createArticle(t.ctx.db, { name: 'A featured story', is_featured: true, type_slug: 'food' });
    await t.ctx.db('best_of_lists').insert({ title: 'The best patios in Toronto', slug: 'best-patios' });
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
    await createEvent(t.ctx.db, { title: 'Jazz night this week', schedule: { schedule_type: 'single_day', start_date: tomorrow, start_time: '19:00', end_time: '21:00' } });
    await createEvent(t.ctx.db, { title: 'Far future gala', schedule: { schedule_type: 'single_day', start_date: '2099-01-01', start_time: '19:00' } });
    await createContest(t.ctx.db, { title: 'Win concert tickets' });
    await createContest(t.ctx.db, { title: 'Closed contest', end_date: new Date(Date.now() - 86400_000) });
  });
  afterAll(() => t.close());

  test('shows latest and featured articles, Best of, events this week and open contests', async () => {
    const res = await request(t.app).get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Latest &lt;b&gt;headline&lt;/b&gt;');
    expect(res.text).not.toContain('<b>headline</b>');
    expect(res.text).toContain('A featured story');
    expect(res.text).toContain('href="/best-of/best-patios/"');
    expect(res.text).toContain('Jazz night this week');
    expect(res.text).not.toContain('Far future gala');
    expect(res.text).toContain('Win concert tickets');
    expect(res.text).not.toContain('Closed contest');
    expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(res.text).toContain('<link rel="canonical" href="http://localhost:3000/">');
    expect(res.text).toContain('"@type":"WebSite"');
    expect(res.text).toContain('property="og:title"');
  });

  test('guests get a public cacheable page with an ETag, and a 304 when it has not changed', async () => {
    const cookie = 'csrftoken=' + 'a'.repeat(43);
    const first = await request(t.app).get('/').set('Cookie', cookie);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.headers.vary).toMatch(/Cookie/);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await request(t.app).get('/').set('Cookie', cookie).set('If-None-Match', etag);
    expect(again.status).toBe(304);
  });

  test('the footer signup carries no CSRF token, so it does not make pages differ per guest', async () => {
    const res = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'z'.repeat(43));
    const footer = res.text.slice(res.text.indexOf('<footer'));
    expect(footer).toContain('action="/newsletters/" method="get"');
    expect(footer).not.toContain('z'.repeat(43));
  });

  test('two guests with different CSRF cookies get the same page and the same ETag', async () => {
    const one = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'x'.repeat(43));
    const two = await request(t.app).get('/').set('Cookie', 'csrftoken=' + 'y'.repeat(43));
    expect(one.text).not.toContain('x'.repeat(43));
    expect(two.text).toBe(one.text.replace(/x{43}/g, 'y'.repeat(43)));
    expect(two.headers.etag).toBe(one.headers.etag);
  });

  test('a first visit gets no cookie, so shared caches may keep its answer (issue 24)', async () => {
    const res = await request(t.app).get('/');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });

  test("members get the guests' page; private only because their answer renews their own session cookie", async () => {
    const member = await createMember(t.ctx, { full_name: 'Ada Member' });
    const agent = await memberAgent(t, member);
    const res = await agent.get('/');
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/(^|,)sessionid=/);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.text).not.toContain('Ada Member');
  });

  test('sections whose feature is off are not shown', async () => {
    const app = t.rebuild({ FEATURE_EVENTS: 'false', FEATURE_CONTESTS: 'false', FEATURE_BEST_OF: 'false' });
    const res = await request(app).get('/');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('Jazz night this week');
    expect(res.text).not.toContain('Win concert tickets');
    expect(res.text).not.toContain('href="/best-of/best-patios/"');
  });
});
