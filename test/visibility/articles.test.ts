import moment from 'moment-timezone';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../server/app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { createArticle } from '../../server/testing/fixtures';
import { currentIssue } from '../../server/apps/newsletters/newsletter-issue-queries';

// The one rule for articles (whereArticleIsPublic in server/apps/articles/queries.ts): published and dated no later
// than now. One public article beside a draft and one scheduled for later, through every reader
// a visitor has: hubs, home, archives, the article pages and their related row, Best of, the
// sitemap, the feeds, the API, search and the newsletter. Only the public one may appear; the
// scheduled one appears everywhere once its time has come, the draft never.
// It lives in test/, not in the app: the readers include apps above the content apps
// (newsletters, calendar), which an app's own tests may not import (server/apps/README.md).

const HOUR = 3600_000;

describe('which articles the public sees', () => {
  let t: TestContext;
  const path: Record<'public' | 'draft' | 'scheduled', string> = { public: '', draft: '', scheduled: '' };
  let scheduledAt: Date;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    scheduledAt = new Date(Date.now() + 2 * HOUR);
    const ids = {
      public: await createArticle(db, { name: 'Zephyr ferry public story', is_featured: true, date_published: new Date(Date.now() - 2 * HOUR) }),
      draft: await createArticle(db, { name: 'Zephyr ferry draft story', is_featured: true, status: 'draft', date_published: new Date(Date.now() - HOUR) }),
      scheduled: await createArticle(db, { name: 'Zephyr ferry scheduled story', is_featured: true, date_published: scheduledAt }),
    };
    for (const k of Object.keys(ids) as Array<keyof typeof ids>) path[k] = (await db('articles').where({ id: ids[k] }).first('path')).path;
    await db('best_of_lists').insert([
      { title: 'Best ferry rides', slug: 'best-ferry-rides', article_id: ids.scheduled },
      { title: 'Best ferry docks', slug: 'best-ferry-docks', article_id: ids.draft },
    ]);
  });
  afterAll(() => t.close());

  // The archive months the three are dated in, in the city's time zone (the test config's).
  const months = () => [...new Set([-2 * HOUR, -HOUR, 2 * HOUR].map((d) => moment.tz(Date.now() + d, 'Canada/Eastern').format('[/archives/]YYYY[/]MM[/]')))];

  /** Every reader of articles a visitor can fetch; PUBLIC is the public article's page, which carries the related row. */
  const readers = [
    '/', '/news/', ...months(), 'PUBLIC', '/best-of/best-ferry-rides/', '/best-of/best-ferry-docks/',
    '/sitemaps/articles-1.xml', '/rss.xml', '/news/rss.xml',
    '/api/v2/articles/', '/api/v2/articles/?is_featured=1&bundle_type=large', '/api/search/?serialize_for=web&q=zephyr', '/search?q=zephyr',
  ];
  const url = (reader: string) => (reader === 'PUBLIC' ? path.public : reader);
  const shows = (text: string, which: keyof typeof path) => text.includes(`Zephyr ferry ${which} story`) || text.includes(path[which]);

  test.each(readers)('%s shows neither the draft nor the scheduled article', async (reader) => {
    const res = await request(t.app).get(url(reader));
    expect(res.status).toBe(200);
    expect({ draft: shows(res.text, 'draft'), scheduled: shows(res.text, 'scheduled') }).toEqual({ draft: false, scheduled: false });
  });

  // The article's own page, the archives and the Best of pages do not list the public one.
  test.each(readers.filter((r) => r !== 'PUBLIC' && !r.startsWith('/best-of/') && !r.startsWith('/archives/')))('%s shows the public article', async (reader) => {
    expect(shows((await request(t.app).get(reader)).text, 'public')).toBe(true);
  });

  test('the pages of the others, and the counts, answer as if they did not exist', async () => {
    expect((await request(t.app).get(path.public)).status).toBe(200);
    expect((await request(t.app).get(path.draft)).status).toBe(404);
    expect((await request(t.app).get(path.scheduled)).status).toBe(404);
    expect((await request(t.app).get('/api/v2/articles/')).body.count).toBe(1);
    expect((await request(t.app).get('/api/search/?serialize_for=web&q=zephyr')).body.counts.articles).toBe(1);
  });

  test('the newsletter issue carries only the public one', async () => {
    const titles = (await currentIssue(t.ctx, 'news'))?.items.map((i) => i.title);
    expect(titles).toEqual(['Zephyr ferry public story']);
  });

  test('once its time comes every reader shows the scheduled one, and still not the draft', async () => {
    const at = new Date(scheduledAt.getTime() + 60_000);
    const later: Express = createApp({ ...t.ctx, now: () => at }, { watchManifest: false });
    expect((await request(later).get(path.scheduled)).status).toBe(200);
    expect((await request(later).get(path.draft)).status).toBe(404);
    for (const reader of readers.filter((r) => r !== 'PUBLIC' && r !== '/best-of/best-ferry-docks/' && !r.startsWith('/search'))) {
      const res = await request(later).get(reader);
      expect({ reader, scheduled: shows(res.text, 'scheduled'), draft: shows(res.text, 'draft') }).toEqual({ reader, scheduled: true, draft: false });
    }
    expect((await currentIssue({ ...t.ctx, now: () => at }, 'news'))?.items.map((i) => i.title)).toEqual(['Zephyr ferry scheduled story', 'Zephyr ferry public story']);
  });
});
