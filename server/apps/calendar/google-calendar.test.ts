import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';
import { startFakeGoogle, type FakeGoogle } from './fake-google';
import { syncBookmarkToCalendar } from './service';
import { createTokenCipher } from './token-crypto';
import { createStateSigner } from './oauth-state';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

describe('Google Calendar sync', () => {
  let google: FakeGoogle;
  let t: TestContext;

  beforeAll(async () => {
    google = await startFakeGoogle();
    t = await createTestContext(google.env);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const fresh = async (): Promise<{ member: MemberFixture; agent: Agent }> => {
    const member = await createMember(t.ctx);
    return { member, agent: await memberAgent(t, member) };
  };

  /** Asks for the URL, then returns from "Google" to the callback with a code, in the same session. */
  const authorise = async (agent: Agent, next = '/events/') => {
    const res = await agent.get(`/api/v2/profiles/oauth-authorization?next_url=${encodeURIComponent(next)}`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.authorization_url);
    const callback = await agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(url.searchParams.get('state')!)}`);
    return { url, callback };
  };

  test('the authorization URL asks Google for offline calendar access with a signed state', async () => {
    const { agent } = await fresh();
    const res = await agent.get('/api/v2/profiles/oauth-authorization?next_url=/events/');
    expect(res.status).toBe(200);
    const url = new URL(res.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(google.env.GOOGLE_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'test-client',
      redirect_uri: `${t.config.site.url}/profiles/oauth2callback/`,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/calendar.events',
      access_type: 'offline',
    });
    expect(url.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
    expect((await request(t.app).get('/api/v2/profiles/oauth-authorization')).status).toBe(401);
  });

  test('the callback stores the tokens encrypted and returns to next_url; saves then insert into the calendar', async () => {
    const { member, agent } = await fresh();
    const { callback } = await authorise(agent, '/events/');
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe('/events/');
    const row = await t.ctx.db('calendar_credentials').where({ profile_id: member.id }).first();
    expect(row.access_token_enc).toMatch(/^v1\./);
    expect(row.access_token_enc).not.toContain('access-');
    expect(row.refresh_token_enc).not.toContain('refresh-1');
    expect(createTokenCipher(t.config.sessionSecret).decrypt(row.refresh_token_enc)).toBe('refresh-1');

    const eventId = await createEvent(t.ctx.db, { title: 'Nuit Blanche', schedule: { schedule_type: 'single_day', start_date: '2030-10-05', start_time: '19:00', end_time: '23:30' } });
    await t.ctx.db('event_bookmarks').insert({ profile_id: member.id, event_id: eventId, add_to_calendar: true });
    const result = await syncBookmarkToCalendar(t.ctx, member.id, eventId);
    expect(result).toEqual({ status: 'synced', calendar_event_id: `guide${member.id}e${eventId}` });
    const sent = google.inserted.at(-1)!;
    expect(sent.calendarId).toBe('primary');
    expect(sent.authorization).toMatch(/^Bearer access-\d+$/);
    expect(sent.body).toMatchObject({
      summary: 'Nuit Blanche',
      location: 'Massey Hall, 178 Victoria St',
      start: { dateTime: '2030-10-05T19:00:00-04:00', timeZone: 'America/Toronto' },
      end: { dateTime: '2030-10-05T23:30:00-04:00', timeZone: 'America/Toronto' },
    });
    expect((await t.ctx.db('event_bookmarks').where({ profile_id: member.id, event_id: eventId }).first()).calendar_event_id).toBe(`guide${member.id}e${eventId}`);
    // Saving the same event again does not make a second copy.
    const again = await syncBookmarkToCalendar(t.ctx, member.id, eventId);
    expect(again).toEqual(result);
    expect(google.inserted.filter((i) => i.body.id === `guide${member.id}e${eventId}`)).toHaveLength(1);
  });

  test('weekly schedules become an RRULE and all-day events use dates', async () => {
    const { member, agent } = await fresh();
    await authorise(agent);
    const weekly = await createEvent(t.ctx.db, { schedule: { schedule_type: 'weekly', start_date: '2030-01-07', end_date: '2030-03-25', weekdays: [1, 3], start_time: '18:30', end_time: '20:00' } });
    expect((await syncBookmarkToCalendar(t.ctx, member.id, weekly)).status).toBe('synced');
    const w = google.inserted.at(-1)!.body;
    expect(w.start).toEqual({ dateTime: '2030-01-07T18:30:00-05:00', timeZone: 'America/Toronto' });
    expect(w.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20300325T223000Z']);
    const allDay = await createEvent(t.ctx.db, { schedule: { schedule_type: 'day_range', start_date: '2030-07-01', end_date: '2030-07-03', all_day: true } });
    await syncBookmarkToCalendar(t.ctx, member.id, allDay);
    const a = google.inserted.at(-1)!.body;
    expect([a.start, a.end, a.recurrence]).toEqual([{ date: '2030-07-01' }, { date: '2030-07-02' }, ['RRULE:FREQ=DAILY;UNTIL=20300703']]);
  });

  test('an expired access token is refreshed before the insert', async () => {
    const { member, agent } = await fresh();
    await authorise(agent);
    await t.ctx.db('calendar_credentials').where({ profile_id: member.id }).update({ expires_at: new Date(Date.now() - 1000) });
    const before = google.tokenRequests.length;
    const eventId = await createEvent(t.ctx.db, { schedule: { schedule_type: 'single_day', start_date: '2030-05-01', start_time: '10:00', end_time: '11:00' } });
    expect((await syncBookmarkToCalendar(t.ctx, member.id, eventId)).status).toBe('synced');
    expect(google.tokenRequests.slice(before).map((r) => r.grant_type)).toEqual(['refresh_token']);
    const row = await t.ctx.db('calendar_credentials').where({ profile_id: member.id }).first();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  test('a token Google rejects is refreshed once; a revoked grant asks the member to authorise again', async () => {
    const { member, agent } = await fresh();
    await authorise(agent);
    google.validAccessTokens.clear();
    const eventId = await createEvent(t.ctx.db, { schedule: { schedule_type: 'single_day', start_date: '2030-05-02', start_time: '10:00', end_time: '11:00' } });
    expect((await syncBookmarkToCalendar(t.ctx, member.id, eventId)).status).toBe('synced');
    google.validAccessTokens.clear();
    google.revoked.add('refresh-1');
    try {
      const result = await syncBookmarkToCalendar(t.ctx, member.id, eventId);
      expect(result.status).toBe('needs_authorization');
      expect(await t.ctx.db('calendar_credentials').where({ profile_id: member.id }).first()).toBeUndefined();
    } finally {
      google.revoked.clear();
    }
  });

  test('without authorization the save answers the URL; authorising then adds that event', async () => {
    const { member, agent } = await fresh();
    const eventId = await createEvent(t.ctx.db, { title: 'Caribana', schedule: { schedule_type: 'single_day', start_date: '2030-08-01', start_time: '12:00', end_time: '18:00' } });
    const result = await syncBookmarkToCalendar(t.ctx, member.id, eventId);
    if (result.status !== 'needs_authorization') throw new Error(`unexpected ${result.status}`);
    const state = new URL(result.authorization_url).searchParams.get('state')!;
    const count = google.inserted.length;
    const callback = await agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(state)}`);
    expect(callback.status).toBe(302);
    expect(google.inserted.length).toBe(count + 1);
    expect(google.inserted.at(-1)!.body.summary).toBe('Caribana');
  });

  test('after consent from a save, the member lands back on that event with the bookmark made (issue 13)', async () => {
    const { member, agent } = await fresh();
    const eventId = await createEvent(t.ctx.db, { title: 'Doors Open', schedule: { schedule_type: 'single_day', start_date: '2030-05-25', start_time: '10:00', end_time: '17:00' } });
    const slug = (await t.ctx.db('events').where({ id: eventId }).first('slug')).slug;
    const saved = await agent.post('/api/v2/event-bookmarks/').set('X-CSRFToken', agent.csrfToken).send({ object_id: eventId, add_to_calendar: true });
    expect(saved.body.status).toBe(101);
    expect(await t.ctx.db('event_bookmarks').where({ profile_id: member.id })).toHaveLength(0);
    const state = new URL(saved.body.authorization_url).searchParams.get('state')!;
    const callback = await agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(state)}`);
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toMatch(new RegExp(`^/events/.*${slug}`));
    const page = await agent.get(callback.headers.location);
    expect(page.status).toBe(200);
    const bookmark = await t.ctx.db('event_bookmarks').where({ profile_id: member.id, event_id: eventId }).first();
    expect(bookmark).toMatchObject({ add_to_calendar: true, calendar_event_id: `guide${member.id}e${eventId}` });
  });

  test("the dashboard's Connect link keeps the nonce in the session before it redirects, and comes back to the events view", async () => {
    const { member, agent } = await fresh();
    const status = await agent.get('/api/v2/profiles/me/calendar/');
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      google: { configured: true, connected: false, connect_url: '/profiles/oauth-connect/?next=%2Faccounts%2Fdashboard%2F%23%2Fevents%2F', setup_hint: null },
      feed: { url: null, webcal_url: null },
    });
    const go = await agent.get(status.body.google.connect_url);
    expect(go.status).toBe(302);
    const url = new URL(go.headers.location);
    expect(`${url.origin}${url.pathname}`).toBe(google.env.GOOGLE_AUTH_URL);
    const state = url.searchParams.get('state')!;
    // Session-bound: another session of the same member cannot use it.
    const other = await memberAgent(t, member);
    expect((await other.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(state)}`)).status).toBe(400);
    const back = await agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(state)}`);
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe('/accounts/dashboard/#/events/');
    await agent.post('/api/v2/profiles/me/ics-feed/').set('X-CSRFToken', agent.csrfToken);
    const after = await agent.get('/api/v2/profiles/me/calendar/');
    expect(after.body.google.connected).toBe(true);
    expect(after.body.feed.url).toMatch(/\/calendar\/[\w-]{43}\.ics$/);
    // Guests are sent to log in first.
    const guest = await guestAgent(t.app).get('/profiles/oauth-connect/');
    expect(guest.status).toBe(302);
    expect(guest.headers.location).toMatch(/^\/accounts\/login\?next=/);
    expect((await guestAgent(t.app).get('/api/v2/profiles/me/calendar/')).status).toBe(401);
  });

  test('the callback refuses forged, foreign, replayed and other-session states', async () => {
    const alice = await fresh();
    const bob = await fresh();
    const forged = await alice.agent.get('/profiles/oauth2callback/?code=good-code&state=abc.def');
    expect(forged.status).toBe(400);

    // Bob's state, from his own session, is useless in Alice's session.
    const bobs = await bob.agent.get('/api/v2/profiles/oauth-authorization');
    const bobState = new URL(bobs.body.authorization_url).searchParams.get('state')!;
    expect((await alice.agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(bobState)}`)).status).toBe(400);

    // Alice's session-bound state works once, in the session that asked for it only.
    const asked = await alice.agent.get('/api/v2/profiles/oauth-authorization');
    const aliceState = new URL(asked.body.authorization_url).searchParams.get('state')!;
    const otherSession = await memberAgent(t, alice.member);
    expect((await otherSession.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(aliceState)}`)).status).toBe(400);
    expect((await alice.agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(aliceState)}`)).status).toBe(302);
    expect((await alice.agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(aliceState)}`)).status).toBe(400);

    // Expired states are refused too.
    const signer = createStateSigner(t.config.sessionSecret);
    const old = signer.sign({ m: alice.member.id, x: '/', s: false }, new Date(Date.now() - 60 * 60 * 1000));
    expect((await alice.agent.get(`/profiles/oauth2callback/?code=good-code&state=${encodeURIComponent(old.token)}`)).status).toBe(400);

    // Guests are sent to log in first.
    const guest = await guestAgent(t.app).get(`/profiles/oauth2callback/?code=good-code&state=x`);
    expect(guest.status).toBe(302);
    expect(guest.headers.location).toMatch(/^\/accounts\/login\?next=/);
  });

  test('a refusal at Google is logged only and the member goes back; next_url never leaves the site', async () => {
    const { member, agent } = await fresh();
    const res = await agent.get('/api/v2/profiles/oauth-authorization?next_url=https://evil.example/');
    const state = new URL(res.body.authorization_url).searchParams.get('state')!;
    const denied = await agent.get(`/profiles/oauth2callback/?error=access_denied&state=${encodeURIComponent(state)}`);
    expect(denied.status).toBe(302);
    expect(denied.headers.location).toBe('/');
    expect(await t.ctx.db('calendar_credentials').where({ profile_id: member.id }).first()).toBeUndefined();
  });

  test('an event that is not approved cannot be synced', async () => {
    const { member } = await fresh();
    const pending = await createEvent(t.ctx.db, { status: 'pending' });
    await expect(syncBookmarkToCalendar(t.ctx, member.id, pending)).rejects.toThrow('Not found.');
  });

  test('without GOOGLE_CLIENT_ID the feature is off: routes 404 and sync does nothing', async () => {
    const off = t.rebuild({ GOOGLE_CLIENT_ID: '' });
    const member = await createMember(t.ctx);
    const agent = await memberAgent({ app: off, ctx: t.ctx }, member);
    expect((await agent.get('/api/v2/profiles/oauth-authorization')).status).toBe(404);
    expect((await agent.get('/profiles/oauth2callback/?code=x&state=y')).status).toBe(404);
    const config = { ...t.config, google: { ...t.config.google, clientId: undefined } };
    expect(await syncBookmarkToCalendar({ ...t.ctx, config }, member.id, 1)).toEqual({ status: 'disabled' });
    // Calendar Settings still shows, saying sync is off and, outside production, how to turn it on.
    const status = await agent.get('/api/v2/profiles/me/calendar/');
    expect(status.status).toBe(200);
    expect(status.body.google).toMatchObject({ configured: false, connected: false, connect_url: null });
    expect(status.body.google.setup_hint).toMatch(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
    expect((await agent.get('/profiles/oauth-connect/')).status).toBe(404);
  });
});
