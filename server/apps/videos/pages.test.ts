import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createVideo } from '../../testing/fixtures';

describe('video pages', () => {
  let t: TestContext;
  let slug: string;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    for (let i = 0; i < 38; i++) await createVideo(db, { title: `Video ${String(i).padStart(2, '0')}`, category: i < 3 ? 'Food & Drink' : undefined, date_published: new Date(Date.UTC(2026, 0, 1 + i)) });
    const id = await createVideo(db, { title: 'Best <b>patios</b> tour', category: 'Food & Drink', date_published: new Date(Date.UTC(2026, 3, 1)) });
    slug = (await db('videos').where({ id }).first('slug')).slug;
  });
  afterAll(() => t.close());

  test("the hub is 'Latest Videos', 36 to a page, newest first, with channel links", async () => {
    const res = await request(t.app).get('/videos/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Latest Videos</h1>');
    expect(res.text.match(/class="video-card__title/g)).toHaveLength(36);
    expect(res.text).toContain('Best &lt;b&gt;patios&lt;/b&gt; tour');
    expect(res.text).toContain('href="/videos/category/food-and-drink/">Food &amp; Drink</a>');
    expect(res.text).toMatch(/rel="next" href="\/videos\/\?page=2"/);
    const two = await request(t.app).get('/videos/?page=2');
    expect(two.text.match(/class="video-card__title/g)).toHaveLength(3);
  });

  test('each card has a video-grid thumbnail placeholder and a Save video control; the page says which videos they are', async () => {
    const res = await request(t.app).get('/videos/category/food-and-drink/');
    const placeholders = [...res.text.matchAll(/<div class="video-card__media" data-island="video-grid" data-video-id="(\d+)">/g)].map((m) => Number(m[1]));
    expect(placeholders).toHaveLength(4);
    expect(res.text.match(/data-save="video" data-object-id="\d+"/g)).toHaveLength(4);
    expect(res.text).toContain('Log in to save this video');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1]);
    expect(state['video-grid'].videos.map((v: { id: number }) => v.id)).toEqual(placeholders);
    expect(state['video-grid'].videos[0]).toMatchObject({ title: 'Best <b>patios</b> tour', youtube_code: expect.any(String) });
    expect(state.saves).toEqual({ kinds: ['videoBookmarks'], calendarEnabled: false });
  });

  test("a channel page is 'Latest in {channel name}' with only its videos", async () => {
    const res = await request(t.app).get('/videos/category/food-and-drink/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Latest in Food &amp; Drink</h1>');
    expect(res.text.match(/class="video-card__title/g)).toHaveLength(4);
  });

  test('a video page embeds the player from youtube-nocookie, with VideoObject JSON-LD', async () => {
    const res = await request(t.app).get(`/videos/${slug}/`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Best &lt;b&gt;patios&lt;/b&gt; tour</h1>');
    expect(res.text).toMatch(/<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]+" title="Best &lt;b&gt;patios&lt;\/b&gt; tour"/);
    expect(res.text).toContain('"@type":"VideoObject"');
    expect(res.headers['content-security-policy']).toContain('https://www.youtube-nocookie.com');
    expect(res.text).toContain('More from Food &amp; Drink');
  });

  test('unknown videos and channels are 404; a bad page is 400; videos off makes them all 404', async () => {
    expect((await request(t.app).get('/videos/no-such-video/')).status).toBe(404);
    expect((await request(t.app).get('/videos/category/nothing/')).status).toBe(404);
    expect((await request(t.app).get('/videos/?page=x')).status).toBe(400);
    const app = t.rebuild({ FEATURE_VIDEOS: 'false' });
    for (const path of ['/videos/', '/videos/category/food-and-drink/', `/videos/${slug}/`]) expect([path, (await request(app).get(path)).status]).toEqual([path, 404]);
  });
});
