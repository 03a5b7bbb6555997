import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../server/app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { createContest } from '../../server/testing/fixtures';
import { urls } from '../../shared/urls';
import { currentIssue } from '../../server/apps/newsletters/newsletter-issue-queries';

// The one rule for contests (whereContestIsPublic in server/apps/contests/queries.ts): public from date_published.
// One published, open contest beside one still being prepared (published tomorrow), through
// every reader: the hub, the contest's page, rules and entry form, home, the sitemap, the API,
// search and the contests newsletter. Only the published one may appear, until its time.
// It lives in test/, not in the app: the readers include apps above the content apps
// (newsletters, calendar), which an app's own tests may not import (server/apps/README.md).

const DAY = 86400_000;

describe('which contests the public sees', () => {
  let t: TestContext;
  const name = { published: '', unpublished: '' };
  let publishAt: Date;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    publishAt = new Date(Date.now() + DAY);
    for (const [which, date_published] of [['published', new Date(Date.now() - DAY)], ['unpublished', publishAt]] as const) {
      const id = await createContest(db, { title: `Wombat tickets ${which}`, start_date: new Date(Date.now() - DAY), end_date: new Date(Date.now() + 7 * DAY), date_published });
      name[which] = (await db('contests').where({ id }).first('name')).name;
    }
  });
  afterAll(() => t.close());

  const readers = ['/', '/contests/', 'PAGE', '/sitemaps/contests-1.xml', '/api/v2/contests/', '/api/search/?serialize_for=web&q=wombat', '/search?q=wombat'];
  const url = (reader: string) => (reader === 'PAGE' ? urls.contest(name.published) : reader);
  const shows = (text: string, which: keyof typeof name) => text.includes(`Wombat tickets ${which}`) || text.includes(urls.contest(name[which]));

  test.each(readers)('%s shows the published contest and not the one still being prepared', async (reader) => {
    const res = await request(t.app).get(url(reader));
    expect(res.status).toBe(200);
    expect({ published: shows(res.text, 'published'), unpublished: shows(res.text, 'unpublished') }).toEqual({ published: true, unpublished: false });
  });

  test('its page, rules and entry form, and the counts, answer as if it did not exist', async () => {
    for (const path of [urls.contest(name.unpublished), urls.contestRules(name.unpublished), urls.contestEnter(name.unpublished)]) {
      expect([path, (await request(t.app).get(path)).status]).toEqual([path, 404]);
    }
    for (const path of [urls.contest(name.published), urls.contestRules(name.published)]) {
      expect([path, (await request(t.app).get(path)).status]).toEqual([path, 200]);
    }
    expect((await request(t.app).get('/api/v2/contests/')).body.count).toBe(1);
    expect((await request(t.app).get('/api/search/?serialize_for=web&q=wombat')).body.counts.contests).toBe(1);
  });

  test('the contests newsletter carries only the published one, and both once the other is published', async () => {
    expect((await currentIssue(t.ctx, 'contests'))?.items.map((i) => i.title)).toEqual(['Wombat tickets published']);
    const later = { ...t.ctx, now: () => new Date(publishAt.getTime() + 60_000) };
    expect((await currentIssue(later, 'contests'))?.items.map((i) => i.title).sort()).toEqual(['Wombat tickets published', 'Wombat tickets unpublished']);
  });

  test('once its date_published comes, the readers show it', async () => {
    const later: Express = createApp({ ...t.ctx, now: () => new Date(publishAt.getTime() + 60_000) }, { watchManifest: false });
    expect((await request(later).get(urls.contest(name.unpublished))).status).toBe(200);
    for (const reader of ['/', '/contests/', '/sitemaps/contests-1.xml', '/api/v2/contests/']) {
      expect([reader, shows((await request(later).get(reader)).text, 'unpublished')]).toEqual([reader, true]);
    }
  });
});
