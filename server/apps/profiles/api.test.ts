import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createListing, createPhoto, createVideo } from '../../testing/fixtures';
import { touchLastUpdate } from './member-queries';

function send(agent: Agent, method: 'patch' | 'put', body: object) {
  return agent[method]('/api/v2/profiles/me/').set('X-CSRFToken', agent.csrfToken).send(body);
}

describe('profiles API', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test.each(['/api/v2/profiles/hi/', '/api/v2/profiles/me/', '/api/v2/profiles/me/dashboard/'])('GET %s is 401 for guests', async (path) => {
    const res = await guestAgent(t.app).get(path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  test('GET /hi/ answers the member and the last update of each cached kind', async () => {
    const m = await createMember(t.ctx);
    const at = new Date('2026-03-01T12:00:00Z');
    await touchLastUpdate(t.ctx.db, m.id, 'favourites', at);
    const res = await (await memberAgent(t, m)).get('/api/v2/profiles/hi/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: m.id,
      email: m.email,
      full_name: expect.any(String),
      avatar_url: null,
      calendar_sync: null,
      is_staff: false,
      last_updates: { 'article-bookmarks': null, 'video-bookmarks': null, favourites: at.toISOString(), todos: null, ratings: null, 'event-bookmarks': null },
    });
  });

  test('GET /hi/ tells staff apart, for the navbar link to /staff/', async () => {
    const m = await createMember(t.ctx);
    await t.ctx.db('profiles').where({ id: m.id }).update({ is_staff: true });
    expect((await (await memberAgent(t, m)).get('/api/v2/profiles/hi/')).body.is_staff).toBe(true);
  });

  test('GET /me/ answers the profile without secrets', async () => {
    const m = await createMember(t.ctx, { full_name: 'Ed Mirvish' });
    const res = await (await memberAgent(t, m)).get('/api/v2/profiles/me/');
    expect(res.body).toMatchObject({ id: m.id, email: m.email, full_name: 'Ed Mirvish', avatar_url: null, settings_receive_newsletter_news: false });
    expect(Object.keys(res.body)).not.toContain('password_hash');
    expect(Object.keys(res.body)).not.toContain('apple_sub');
  });

  test('PATCH /me/ updates the name, the email and the newsletter settings', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const res = await send(agent, 'patch', { full_name: '  Jane Doe ', email: 'Jane.Doe@Example.com', settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ full_name: 'Jane Doe', email: 'jane.doe@example.com', settings_receive_newsletter_news: true, settings_receive_newsletter_foods: true, settings_receive_newsletter_events: false });
    expect((await agent.get('/api/v2/profiles/me/')).body.full_name).toBe('Jane Doe');
  });

  test('PATCH /me/ refuses a taken email, a long name and non-boolean settings', async () => {
    const other = await createMember(t.ctx);
    const agent = await memberAgent(t, await createMember(t.ctx));
    expect((await send(agent, 'patch', { email: other.email })).body).toEqual({ email: ['A user with that email already exists.'] });
    expect((await send(agent, 'patch', { full_name: 'x'.repeat(51) })).body).toEqual({ full_name: ['Ensure this field has no more than 50 characters.'] });
    const bad = await send(agent, 'patch', { settings_receive_newsletter_news: 'yes please' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['settings_receive_newsletter_news']);
  });

  test('a NUL in a name is a 400 naming the field, and the profile is unchanged', async () => {
    const m = await createMember(t.ctx, { full_name: 'Ed Mirvish' });
    const agent = await memberAgent(t, m);
    for (const field of ['full_name', 'first_name', 'last_name']) {
      const res = await send(agent, 'patch', { [field]: 'Ed\u0000' });
      expect([field, res.status, res.body]).toEqual([field, 400, { [field]: ['Null characters are not allowed.'] }]);
    }
    expect((await agent.get('/api/v2/profiles/me/')).body.full_name).toBe('Ed Mirvish');
  });

  test('two members changing their email to one address at once: one gets it, the other a 400 email error', async () => {
    // Several pairs at once, so that in some pair both requests pass the lookup before either
    // writes: then the unique index decides, and that must still be a 400 naming the email.
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => ({ address: `taken.at.once.${i}@example.com`, agents: [await memberAgent(t, await createMember(t.ctx)), await memberAgent(t, await createMember(t.ctx))] })),
    );
    const answers = await Promise.all(pairs.flatMap(({ address, agents }) => agents.map((a) => send(a, 'patch', { email: address }))));
    for (let i = 0; i < pairs.length; i++) {
      const [a, b] = answers.slice(i * 2, i * 2 + 2);
      expect([a.status, b.status].sort()).toEqual([200, 400]);
      expect((a.status === 400 ? a : b).body).toEqual({ email: ['A user with that email already exists.'] });
    }
    const owners = await t.ctx.db('profiles').whereIn('email', pairs.map((p) => p.address)).select('email');
    expect(owners).toHaveLength(pairs.length);
  });

  test('PUT /me/ stores the calendar sync choice and needs the email', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const ok = await send(agent, 'put', { id: m.id, email: m.email, sync_bookmarked_events_to_google_calendar: true });
    expect(ok.status).toBe(200);
    expect(ok.body.sync_bookmarked_events_to_google_calendar).toBe(true);
    const row = await t.ctx.db('profiles').where({ id: m.id }).first('sync_bookmarked_events_to_google_calendar');
    expect(row.sync_bookmarked_events_to_google_calendar).toBe(true);
    const missing = await send(agent, 'put', { sync_bookmarked_events_to_google_calendar: false });
    expect(missing.body).toEqual({ email: ['This field is required.'] });
  });

  test('GET /me/dashboard/ answers the seven counts of this member only', async () => {
    const m = await createMember(t.ctx);
    const someoneElse = await createMember(t.ctx);
    const db = t.ctx.db;
    const [l1, l2] = [await createListing(db), await createListing(db)];
    await db('favourites').insert([{ profile_id: m.id, listing_id: l1 }, { profile_id: m.id, listing_id: l2 }, { profile_id: someoneElse.id, listing_id: l1 }]);
    await db('todos').insert([{ profile_id: m.id, listing_id: l1 }, { profile_id: m.id, listing_id: l2, is_done: true }]);
    await db('ratings').insert({ profile_id: m.id, listing_id: l1, rating: 4 });
    await db('article_bookmarks').insert({ profile_id: m.id, article_id: await createArticle(db) });
    await db('video_bookmarks').insert({ profile_id: m.id, video_id: await createVideo(db) });
    await db('event_bookmarks').insert({ profile_id: m.id, event_id: await createEvent(db) });
    await createPhoto(db, { profile_id: m.id, listing_id: l1 });
    const res = await (await memberAgent(t, m)).get('/api/v2/profiles/me/dashboard/');
    expect(res.body).toEqual({ favourite_count: 2, todos_count: 1, bookmark_count: 1, saved_events_count: 1, ratings_count: 1, photo_count: 1, video_bookmarks_count: 1 });
  });
});
