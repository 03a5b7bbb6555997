import request from 'supertest';
import { createTestContext, createMember, type TestContext } from '../../testing/test-app';
import { createPhoto } from '../../testing/fixtures';

// The Photo Challenges section: the hub (open, then past by pages), a challenge with its
// entries by pages, both flag states, and what an empty section says.

const DAY = 86_400_000;

describe('Photo Challenges', () => {
  let t: TestContext;
  let openId: number;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const now = Date.now();
    const insert = async (title: string, name: string, startDays: number, endDays: number, published = startDays) => {
      const [row] = await db('photo_challenges')
        .insert({ title, name, hashtag: name.replace(/-/g, ''), description: `Shoot ${title.toLowerCase()}.\n\nBe creative.`, start_date: new Date(now + startDays * DAY), end_date: new Date(now + endDays * DAY), date_published: new Date(now + published * DAY) })
        .returning('id');
      return Number(row.id ?? row);
    };
    openId = await insert('Toronto <after> dark', 'after-dark', -5, 9);
    await insert('Reflections', 'reflections', -3, 20);
    for (let i = 0; i < 13; i++) await insert(`Past theme ${i}`, `past-theme-${i}`, -100 - i * 20, -80 - i * 20);
    await insert('Next month', 'next-month', 10, 30, 10);
    const member = await createMember(t.ctx, { full_name: 'Ada Lens' });
    for (let i = 0; i < 25; i++) {
      const id = await createPhoto(db, { profile_id: i === 0 ? member.id : null, title: `Entry ${i}`, creation_date: new Date(now - (25 - i) * 60_000) });
      await db('photos').where({ id }).update({ challenge_id: openId, instagram_user: i === 0 ? null : `shooter${i}` });
    }
  });
  afterAll(() => t.close());

  test('the hub shows open challenges closing soonest first, then the latest closed, 12 to a page', async () => {
    const res = await request(t.app).get('/photo-challenges/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Photo Challenges');
    const titles = [...res.text.matchAll(/card__title[^>]*>([^<]+)</g)].map((m) => m[1]);
    expect(titles.slice(0, 2)).toEqual(['Toronto &lt;after&gt; dark', 'Reflections']);
    expect(titles.slice(2)).toHaveLength(12);
    expect(titles[2]).toBe('Past theme 0');
    expect(res.text).toContain('25 entries');
    expect(res.text).not.toContain('Next month'); // not started yet
    expect(res.text).toContain('href="/photo-challenges/?page=2"');
    const page2 = await request(t.app).get('/photo-challenges/?page=2');
    expect([...page2.text.matchAll(/card__title[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(['Past theme 12']);
    expect(page2.text).not.toContain('Open now');
    const past = await request(t.app).get('/photo-challenges/?page=3');
    expect([past.status, past.headers.location]).toEqual([302, '/photo-challenges/']);
    expect((await request(t.app).get('/photo-challenges/?page=0')).status).toBe(400);
  });

  test('a challenge shows its theme, hashtag, how to enter, share links and its entries 24 to a page', async () => {
    const res = await request(t.app).get('/photo-challenges/after-dark/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Toronto &lt;after&gt; dark');
    expect(res.text).toContain('#afterdark');
    expect(res.text).toContain('How to enter');
    expect(res.text).toContain('data-share-window="670x340"');
    expect(res.text.match(/class="photo-grid__image"/g)).toHaveLength(24);
    expect(res.text).toContain('Entry 24 · @shooter24');
    const page2 = await request(t.app).get('/photo-challenges/after-dark/?page=2');
    expect(page2.text.match(/class="photo-grid__image"/g)).toHaveLength(1);
    expect(page2.text).toContain('Entry 0 · Ada Lens');
    const past = await request(t.app).get('/photo-challenges/after-dark/?page=3');
    expect([past.status, past.headers.location]).toEqual([302, '/photo-challenges/after-dark/']);
  });

  test('a closed challenge without entries says so; unknown and unstarted challenges are 404s', async () => {
    const closed = await request(t.app).get('/photo-challenges/past-theme-3/');
    expect(closed.status).toBe(200);
    expect(closed.text).toContain('This challenge closed without entries in the gallery.');
    expect(closed.text).not.toContain('How to enter');
    expect((await request(t.app).get('/photo-challenges/no-such-thing/')).status).toBe(404);
    expect((await request(t.app).get('/photo-challenges/next-month/')).status).toBe(404);
  });

  test('with the flag off the footer link is gone and the section is a 404', async () => {
    expect((await request(t.app).get('/')).text).toContain('href="/photo-challenges/"');
    const app = t.rebuild({ FEATURE_PHOTO_CHALLENGES: 'false' });
    expect((await request(app).get('/photo-challenges/')).status).toBe(404);
    expect((await request(app).get('/photo-challenges/after-dark/')).status).toBe(404);
    expect((await request(app).get('/')).text).not.toContain('href="/photo-challenges/"');
    expect((await request(app).get('/sitemaps/pages.xml')).text).not.toContain('/photo-challenges/');
    expect((await request(t.app).get('/sitemaps/pages.xml')).text).toContain('<loc>http://localhost:3000/photo-challenges/</loc>');
  });

  test('with no challenge at all the hub says so (never a 404)', async () => {
    await t.ctx.db('photo_challenges').delete();
    const res = await request(t.app).get('/photo-challenges/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('No photo challenge is open right now.');
    expect(res.text).toContain('No past challenges yet');
  });
});
