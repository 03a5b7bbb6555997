import type { Express } from 'express';
import { createApp } from '../../app';
import { createTestContext, type Agent, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createVideo } from '../../testing/fixtures';
import { send, signedIn as signedInOn } from '../../testing/signed-in-member';
import type { AppContext, CalendarSync } from '../../context';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signedIn = (app?: Express) => signedInOn(t, app);
const post = (agent: Agent, path: string, body: object) => send(agent, 'post', path, body);

describe('article bookmarks', () => {
  test('sort A–Z, most recent and recently saved, with server_time on the list', async () => {
    const { agent } = await signedIn();
    const b = await createArticle(t.ctx.db, { name: 'Best patios', date_published: new Date('2026-03-01T12:00:00Z') });
    const a = await createArticle(t.ctx.db, { name: 'A new bakery', date_published: new Date('2026-01-01T12:00:00Z') });
    const c = await createArticle(t.ctx.db, { name: 'Condo prices', date_published: new Date('2026-02-01T12:00:00Z') });
    for (const id of [b, a, c]) await post(agent, '/api/v2/article-bookmarks/', { object_id: id });
    const ids = async (q: string) => (await agent.get(`/api/v2/article-bookmarks/${q}`)).body.results.map((r: { object_id: number }) => r.object_id);
    expect(await ids('')).toEqual([c, a, b]);
    expect(await ids('?ordering=-date_created')).toEqual([c, a, b]);
    expect(await ids('?ordering=article_name')).toEqual([a, b, c]);
    expect(await ids('?ordering=-article_date')).toEqual([b, c, a]);
    const list = await agent.get('/api/v2/article-bookmarks/');
    expect(Math.abs(Date.parse(list.body.server_time) - Date.now())).toBeLessThan(60_000);
    expect(list.body.results[0]).toMatchObject({ object_id: c, article: { id: c, name: 'Condo prices', type: { name: 'News' } } });
  });

  test('a draft article cannot be saved', async () => {
    const { agent } = await signedIn();
    const draft = await createArticle(t.ctx.db, { status: 'draft' });
    const res = await post(agent, '/api/v2/article-bookmarks/', { object_id: draft });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['object_id']);
  });

  test('an article unpublished after it was saved leaves the list and its count together', async () => {
    const { agent } = await signedIn();
    const [kept, withdrawn] = [await createArticle(t.ctx.db), await createArticle(t.ctx.db)];
    for (const id of [kept, withdrawn]) await post(agent, '/api/v2/article-bookmarks/', { object_id: id });
    await t.ctx.db('articles').where({ id: withdrawn }).update({ status: 'draft' });
    const list = await agent.get('/api/v2/article-bookmarks/');
    expect(list.body.count).toBe(1);
    expect(list.body.results.map((r: { object_id: number }) => r.object_id)).toEqual([kept]);
  });

  test('a scheduled article cannot be saved before its time, and one moved to a later date leaves the list and its count together', async () => {
    const { agent } = await signedIn();
    const scheduled = await createArticle(t.ctx.db, { date_published: new Date(Date.now() + 3600_000) });
    const refused = await post(agent, '/api/v2/article-bookmarks/', { object_id: scheduled });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body)).toEqual(['object_id']);
    const [kept, moved] = [await createArticle(t.ctx.db), await createArticle(t.ctx.db)];
    for (const id of [kept, moved]) expect((await post(agent, '/api/v2/article-bookmarks/', { object_id: id })).status).toBe(201);
    await t.ctx.db('articles').where({ id: moved }).update({ date_published: new Date(Date.now() + 3600_000) });
    const list = await agent.get('/api/v2/article-bookmarks/');
    expect(list.body.count).toBe(1);
    expect(list.body.results.map((r: { object_id: number }) => r.object_id)).toEqual([kept]);
  });
});

describe('video bookmarks', () => {
  test('the create answers video.date_created, the time it was saved', async () => {
    const { agent } = await signedIn();
    const video = await createVideo(t.ctx.db, { category: 'Food' });
    const res = await post(agent, '/api/v2/video-bookmarks/', { video });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object_id: video, video: { id: video, category: { name: 'Food' } } });
    const saved = await t.ctx.db('video_bookmarks').where({ id: res.body.id }).first('date_created');
    expect(res.body.video.date_created).toBe(new Date(saved.date_created).toISOString());
    expect(res.body.date_created).toBe(res.body.video.date_created);
  });

  test('sort A–Z (video_title), most recent (-video_date), recently saved', async () => {
    const { agent } = await signedIn();
    const x = await createVideo(t.ctx.db, { title: 'Zoo tour', date_published: new Date('2026-01-01') });
    const y = await createVideo(t.ctx.db, { title: 'Art crawl', date_published: new Date('2026-02-01') });
    for (const video of [x, y]) await post(agent, '/api/v2/video-bookmarks/', { video });
    const ids = async (q: string) => (await agent.get(`/api/v2/video-bookmarks/${q}`)).body.results.map((r: { object_id: number }) => r.object_id);
    expect(await ids('')).toEqual([y, x]);
    expect(await ids('?ordering=video_title')).toEqual([y, x]);
    expect(await ids('?ordering=-video_date')).toEqual([y, x]);
    expect((await agent.get('/api/v2/video-bookmarks/')).body.server_time).toEqual(expect.any(String));
    expect((await agent.get('/api/v2/video-bookmarks/?ordering=-article_date')).status).toBe(400);
  });
});

describe('event bookmarks', () => {
  test('saves an approved event with its next start and the add_to_calendar choice', async () => {
    const { agent } = await signedIn();
    const event = await createEvent(t.ctx.db, { title: 'Jazz night' });
    const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: event, add_to_calendar: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object_id: event, add_to_calendar: false, event: { id: event, title: 'Jazz night', can_be_bookmarked: true } });
    expect(res.body.event.start_date_time).toBe('2026-12-06T00:00:00.000Z'); // 19:00 in Toronto
    const list = await agent.get('/api/v2/event-bookmarks/?limit=5&offset=0&ordering=start_date_time');
    expect(list.body).toMatchObject({ count: 1, server_time: expect.any(String) });
  });

  test('events that cannot be bookmarked, or are not approved, are 400s on object_id', async () => {
    const { id, agent } = await signedIn();
    const closed = await createEvent(t.ctx.db, { can_be_bookmarked: false });
    const pending = await createEvent(t.ctx.db, { status: 'pending' });
    const rejected = await createEvent(t.ctx.db, { status: 'rejected' });
    const refused = await post(agent, '/api/v2/event-bookmarks/', { object_id: closed });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ object_id: ['This event cannot be saved.'] });
    for (const id of [pending, rejected]) {
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: id });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['object_id']);
    }
    const badFlag = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db), add_to_calendar: 'sometimes' });
    expect(badFlag.status).toBe(400);
    expect(Object.keys(badFlag.body)).toEqual(['add_to_calendar']);
    expect(await t.ctx.db('event_bookmarks').where({ profile_id: id })).toHaveLength(0);
  });

  test('sorts by start time both ways', async () => {
    const { agent } = await signedIn();
    const later = await createEvent(t.ctx.db, { schedule: { schedule_type: 'single_day', start_date: '2027-02-01', start_time: '10:00', end_time: '11:00' } });
    const sooner = await createEvent(t.ctx.db, { schedule: { schedule_type: 'single_day', start_date: '2027-01-01', start_time: '10:00', end_time: '11:00' } });
    for (const id of [sooner, later]) await post(agent, '/api/v2/event-bookmarks/', { object_id: id });
    const ids = async (q: string) => (await agent.get(`/api/v2/event-bookmarks/${q}`)).body.results.map((r: { object_id: number }) => r.object_id);
    expect(await ids('?ordering=start_date_time')).toEqual([sooner, later]);
    expect(await ids('?ordering=-start_date_time')).toEqual([later, sooner]);
  });

  describe('with add_to_calendar', () => {
    const withCalendar = (calendarSync: CalendarSync) => {
      const ctx: AppContext = { ...t.ctx, config: { ...t.ctx.config, google: { ...t.ctx.config.google, clientId: 'test-client' } }, calendarSync };
      return createApp(ctx, { watchManifest: false });
    };

    test('without Google configured, the choice is only stored', async () => {
      const { agent } = await signedIn();
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db), add_to_calendar: true });
      expect(res.status).toBe(201);
      expect(res.body.add_to_calendar).toBe(true);
    });

    test('a synced event answers 201 after the calendar app copied it', async () => {
      const calls: Array<[number, number]> = [];
      const app = withCalendar(async (_ctx, memberId, eventId) => {
        calls.push([memberId, eventId]);
        return { status: 'synced' };
      });
      const { id, agent } = await signedIn(app);
      const event = await createEvent(t.ctx.db);
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: event, add_to_calendar: true });
      expect(res.status).toBe(201);
      expect(calls).toEqual([[id, event]]);
      const plain = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db) });
      expect(plain.status).toBe(201);
      expect(calls).toHaveLength(1);
    });

    test('a member who has not authorised Google gets {"status": 101, authorization_url} and no bookmark', async () => {
      const app = withCalendar(async () => ({ status: 'needs_authorization', authorization_url: 'https://accounts.example/auth?state=abc' }));
      const { id, agent } = await signedIn(app);
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db), add_to_calendar: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 101, authorization_url: 'https://accounts.example/auth?state=abc' });
      expect(await t.ctx.db('event_bookmarks').where({ profile_id: id })).toHaveLength(0);
    });

    test('wired to the calendar app: a member without Google tokens is sent to authorise', async () => {
      const app = createApp({ ...t.ctx, config: { ...t.ctx.config, google: { ...t.ctx.config.google, clientId: 'test-client', clientSecret: 'test-secret' } } }, { watchManifest: false });
      const { id, agent } = await signedIn(app);
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db), add_to_calendar: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 101, authorization_url: expect.stringMatching(/^https:\/\/accounts\.google\.com\//) });
      expect(await t.ctx.db('event_bookmarks').where({ profile_id: id })).toHaveLength(0);
    });

    test('a calendar that fails keeps the bookmark (failures are only logged)', async () => {
      const app = withCalendar(async () => {
        throw new Error('Google is down');
      });
      const { id, agent } = await signedIn(app);
      const res = await post(agent, '/api/v2/event-bookmarks/', { object_id: await createEvent(t.ctx.db), add_to_calendar: true });
      expect(res.status).toBe(201);
      expect(await t.ctx.db('event_bookmarks').where({ profile_id: id })).toHaveLength(1);
    });
  });
});
