import request from 'supertest';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { mainOf } from '../../server/testing/html-test-helpers';
import { SlugRegistry } from './batch';
import { CANNABIS_STORIES, seedCannabisArticles } from './cannabis';
import { Rng } from './random';

// The cannabis section's seeded articles: real pages behind the age gate, reached from the footer.

describe('seeded cannabis articles', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await seedCannabisArticles(t.ctx.db, { rng: new Rng(1), now: new Date('2026-11-22T15:00:00Z'), timeZone: 'Canada/Eastern', images: {}, slugs: new SlugRegistry() });
  });
  afterAll(() => t.close());

  test('each story is an article of the cannabis type with a body of several paragraphs', async () => {
    const rows = await t.ctx.db('articles as a').join('article_types as t', 't.id', 'a.type_id').where('t.slug', 'cannabis').select('a.name', 'a.body', 'a.path');
    expect(rows.map((r) => r.name).sort()).toEqual(CANNABIS_STORIES.map((s) => s.name).sort());
    for (const r of rows) {
      expect(r.path).toMatch(/^\/cannabis\/\d{4}\/\d{2}\/[a-z0-9-]+\/$/);
      expect(r.body.split('\n\n').length).toBeGreaterThanOrEqual(4);
    }
  });

  test('the hub lists them for a reader who accepted the gate, and an article opens', async () => {
    const hub = await request(t.app).get('/cannabis/').set('Cookie', 'is_user_over_18=true');
    expect(hub.status).toBe(200);
    for (const s of CANNABIS_STORIES) expect(mainOf(hub.text)).toContain(s.name);
    const path = (await t.ctx.db('articles').orderBy('date_published', 'desc').first('path')).path;
    const article = await request(t.app).get(path).set('Cookie', 'is_user_over_18=true');
    expect(article.status).toBe(200);
    expect(article.text).toContain('What to know before you buy cannabis legally in Toronto');
  });

  test('every page links to the section from the footer', async () => {
    const home = await request(t.app).get('/');
    expect(home.text).toContain('<a href="/cannabis/">Cannabis (age-gated)</a>');
  });
});
