import moment from 'moment-timezone';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';

// An article dated in the future is scheduled: no reader sees it before its time (hub, home,
// its own page, the archives, the navbar's menus, the sitemap, the feeds, the API, search,
// the Best of list that names it), and every one of them shows it once the time has come.
// The newsletters' side is in newsletters/newsletters.test.ts, bookmarks' in bookmarks.test.ts.

const HOUR = 3600_000;

describe('a scheduled article', () => {
  let t: TestContext;
  let scheduledPath: string;
  let publishedPath: string;
  let scheduledAt: Date;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    scheduledAt = new Date(Date.now() + 2 * HOUR);
    const published = await createArticle(db, { name: 'Ferry schedule announced', excerpt: 'Island ferries.', is_featured: true, date_published: new Date(Date.now() - HOUR) });
    const scheduled = await createArticle(db, { name: 'Embargoed ferry story', excerpt: 'Island ferries tomorrow.', is_featured: true, date_published: scheduledAt });
    publishedPath = (await db('articles').where({ id: published }).first('path')).path;
    scheduledPath = (await db('articles').where({ id: scheduled }).first('path')).path;
    await db('best_of_lists').insert({ title: 'Best ferry rides', slug: 'best-ferry-rides', article_id: scheduled, date_published: new Date(Date.now() - HOUR) });
  });
  afterAll(() => t.close());

  // The archive month it will be listed in, in the city's time zone (the test config's).
  const month = () => moment.tz(Date.now() + 2 * HOUR, 'Canada/Eastern').format('[/archives/]YYYY[/]MM[/]');

  /** Every reader of articles, as a visitor fetches it. */
  const readers = ['/news/', '/', month(), '/best-of/best-ferry-rides/', '/sitemaps/articles-1.xml', '/rss.xml', '/news/rss.xml', '/api/v2/articles/', '/api/search/?serialize_for=web&q=ferry', '/search?q=ferry'];

  test.each(readers)('%s does not show it before its time', async (path) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('Embargoed ferry story');
    expect(res.text).not.toContain(scheduledPath);
  });

  test.each(['/news/', '/', '/rss.xml', '/news/rss.xml', '/api/v2/articles/', '/api/search/?serialize_for=web&q=ferry'])('%s shows the published one beside it', async (path) => {
    expect((await request(t.app).get(path)).text).toContain('Ferry schedule announced');
  });

  test('its page and its counts answer as if it did not exist yet', async () => {
    expect((await request(t.app).get(scheduledPath)).status).toBe(404);
    expect((await request(t.app).get(publishedPath)).status).toBe(200);
    expect((await request(t.app).get('/api/v2/articles/')).body.count).toBe(1);
    expect((await request(t.app).get('/api/search/?serialize_for=web&q=ferry')).body.counts.articles).toBe(1);
  });

  test('once its time comes every reader shows it', async () => {
    const later: Express = createApp({ ...t.ctx, now: () => new Date(scheduledAt.getTime() + 60_000) }, { watchManifest: false });
    expect((await request(later).get(scheduledPath)).status).toBe(200);
    for (const path of readers.filter((p) => !p.startsWith('/search'))) {
      const res = await request(later).get(path);
      expect([path, res.text.includes('Embargoed ferry story') || res.text.includes(scheduledPath)]).toEqual([path, true]);
    }
  });
});
