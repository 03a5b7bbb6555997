import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createContest } from '../../testing/fixtures';

describe('contest pages', () => {
  let t: TestContext;
  const names: string[] = [];

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    // 14 contests, newest published last; the oldest has ended.
    for (let i = 0; i < 14; i++) {
      const id = await createContest(db, {
        title: i === 13 ? 'Win <em>Raptors</em> tickets' : `Contest ${String(i).padStart(2, '0')}`,
        date_published: new Date(Date.now() - (20 - i) * 86400_000),
        end_date: i === 0 ? new Date(Date.now() - 86400_000) : new Date(Date.now() + 7 * 86400_000),
      });
      names.push((await db('contests').where({ id }).first('name')).name);
    }
    await db('contests').where({ name: names[13] }).update({ description: 'Two tickets.\n\nCourtside.', prize: 'Two tickets', rules: 'One entry per person.' });
    await createContest(db, { title: 'Scheduled for later', date_published: new Date(Date.now() + 86400_000) });
  });
  afterAll(() => t.close());

  test('the hub shows the newest 12 with a plain Load more link to ?offset=12', async () => {
    const res = await request(t.app).get('/contests/');
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toContain('Win &lt;em&gt;Raptors&lt;/em&gt; tickets');
    expect(res.text).not.toContain('<em>Raptors</em>');
    expect(res.text).not.toContain('Scheduled for later');
    expect(res.text.match(/class="card__title/g)).toHaveLength(12);
    expect(res.text).toContain('href="/contests/?offset=12#contest-list" rel="next">Load more</a>');
    expect(res.text).toContain('data-newsletter-form');
  });

  test('?offset=12 shows the rest, the expired one badged, and no further Load more', async () => {
    const res = await request(t.app).get('/contests/?offset=12');
    expect(res.status).toBe(200);
    expect(res.text.match(/class="card__title/g)).toHaveLength(2);
    expect(res.text).toContain('<span class="card__badge">Expired</span>');
    expect(res.text).not.toContain('Load more');
    expect((await request(t.app).get('/contests/?offset=-1')).status).toBe(400);
  });

  test('a contest page shows its description, prize, rules and deadline; an ended one says so', async () => {
    const res = await request(t.app).get(`/contests/${names[13]}/`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Win &lt;em&gt;Raptors&lt;/em&gt; tickets</h1>');
    expect(res.text).toContain('<p>Courtside.</p>');
    expect(res.text).toContain('<h2>Rules</h2>');
    expect(res.text).toMatch(/Enter by <time/);
    const ended = await request(t.app).get(`/contests/${names[0]}/`);
    expect(ended.text).toContain('This contest has ended');
  });

  test('unknown and unpublished contests are the HTML 404 page; contests off makes every contest page 404', async () => {
    expect((await request(t.app).get('/contests/no-such-contest/')).status).toBe(404);
    const scheduled = (await t.ctx.db('contests').where('title', 'Scheduled for later').first('name')).name;
    expect((await request(t.app).get(`/contests/${scheduled}/`)).status).toBe(404);
    const app = t.rebuild({ FEATURE_CONTESTS: 'false' });
    expect((await request(app).get('/contests/')).status).toBe(404);
    expect((await request(app).get(`/contests/${names[1]}/`)).status).toBe(404);
  });
});
