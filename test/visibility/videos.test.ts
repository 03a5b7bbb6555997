import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../server/app';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { createVideo } from '../../server/testing/fixtures';
import { send, signedIn } from '../../server/testing/signed-in-member';
import { urls } from '../../shared/urls';

// The one rule for videos (whereVideoIsPublic in server/apps/videos/queries.ts): public from date_published. One
// published video beside two scheduled for tomorrow (one alone in its channel), through every
// reader: the hub and its channel links, the channel pages, the video's page and its related
// row, the sitemap, the API and search. Only the published one may appear, until its time.
// It lives in test/, not in the app: the readers include apps above the content apps
// (newsletters, calendar), which an app's own tests may not import (server/apps/README.md).

const DAY = 86400_000;

describe('which videos the public sees', () => {
  let t: TestContext;
  const slug = { published: '', scheduled: '' };
  let publishAt: Date;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    publishAt = new Date(Date.now() + DAY);
    for (const [which, category, date_published] of [['published', 'Harbour tours', new Date(Date.now() - DAY)], ['scheduled', 'Island walks', publishAt]] as const) {
      const id = await createVideo(db, { title: `Numbat film ${which}`, category, date_published });
      slug[which] = (await db('videos').where({ id }).first('slug')).slug;
    }
    // And one in the published one's channel, which its page's related row would show.
    await createVideo(db, { title: 'Numbat film scheduled in the same channel', category: 'Harbour tours', date_published: publishAt });
  });
  afterAll(() => t.close());

  const readers = ['/videos/', '/videos/category/harbour-tours/', 'PAGE', '/sitemaps/videos-1.xml', '/api/v2/videos/', '/api/search/?serialize_for=web&q=numbat', '/search?q=numbat'];
  const url = (reader: string) => (reader === 'PAGE' ? urls.video(slug.published) : reader);
  const shows = (text: string, which: keyof typeof slug) => text.includes(`Numbat film ${which}`) || text.includes(urls.video(slug[which]));

  test.each(readers)('%s shows the published video and not the scheduled one', async (reader) => {
    const res = await request(t.app).get(url(reader));
    expect(res.status).toBe(200);
    expect({ published: shows(res.text, 'published'), scheduled: shows(res.text, 'scheduled') }).toEqual({ published: true, scheduled: false });
  });

  test('its page, its channel link and the counts answer as if it did not exist', async () => {
    expect((await request(t.app).get(urls.video(slug.scheduled))).status).toBe(404);
    expect((await request(t.app).get('/videos/')).text).not.toContain(urls.videoCategory('island-walks'));
    expect((await request(t.app).get('/api/v2/videos/')).body.count).toBe(1);
    expect((await request(t.app).get('/api/search/?serialize_for=web&q=numbat')).body.counts.videos).toBe(1);
  });

  test('a member cannot save it, and a save made before it was rescheduled is not listed', async () => {
    const { id: memberId, agent } = await signedIn(t);
    const [scheduledId, publishedId] = await Promise.all(['scheduled', 'published'].map(async (w) => (await t.ctx.db('videos').where({ slug: slug[w as keyof typeof slug] }).first('id')).id as number));
    const refused = await send(agent, 'post', '/api/v2/video-bookmarks/', { video: scheduledId });
    expect(refused.status).toBe(400);
    expect((await send(agent, 'post', '/api/v2/video-bookmarks/', { video: publishedId })).status).toBe(201);
    await t.ctx.db('video_bookmarks').insert({ profile_id: memberId, video_id: scheduledId });
    const listed = (await agent.get('/api/v2/video-bookmarks/')).body.results.map((r: { object_id: number }) => r.object_id);
    expect(listed).toEqual([publishedId]);
  });

  test('once its date_published comes, the readers show it', async () => {
    const later: Express = createApp({ ...t.ctx, now: () => new Date(publishAt.getTime() + 60_000) }, { watchManifest: false });
    expect((await request(later).get(urls.video(slug.scheduled))).status).toBe(200);
    for (const reader of ['/videos/', '/sitemaps/videos-1.xml', '/api/v2/videos/']) {
      expect([reader, shows((await request(later).get(reader)).text, 'scheduled')]).toEqual([reader, true]);
    }
    expect((await request(later).get('/videos/')).text).toContain(urls.videoCategory('island-walks'));
  });
});
