import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { moderateEvent } from '../event-submissions/moderation-queries';
import { measureQueries, trackQueries } from '../../db/query-stats';
import { syncDueFeeds, syncFeed } from './feed-sync-queries';
import { MAX_FEEDS_PER_MEMBER } from './schemas';

// Organisers' calendar feeds against a feed server of the test's own on 127.0.0.1 (loopback is
// allowed by this test's config only; every other private address stays refused).

interface Route {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answers (beyond the fetch's time limit). */
  hang?: boolean;
}

const routes = new Map<string, Route>();
const seen: Array<{ path: string; ifNoneMatch: string | undefined }> = [];
const hanging: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  seen.push({ path: req.url ?? '', ifNoneMatch: req.headers['if-none-match'] });
  const route = routes.get(req.url ?? '');
  if (!route) return void res.writeHead(404).end();
  if (route.hang) return void hanging.push(res);
  const etag = route.headers?.ETag;
  if (etag && req.headers['if-none-match'] === etag) return void res.writeHead(304, { ETag: etag }).end();
  res.writeHead(route.status ?? 200, { 'Content-Type': 'text/calendar', ...route.headers }).end(route.body ?? '');
});

function vevent(uid: string, lines: string[]): string {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20270101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');
}
const calendar = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test venue//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');

const JAZZ = (seq = 0, title = 'Jazz night') => vevent('jazz@venue', [`SEQUENCE:${seq}`, `SUMMARY:${title}`, 'LOCATION:The Rex, 194 Queen St W', 'DTSTART;TZID=America/Toronto:20300312T200000', 'DTEND;TZID=America/Toronto:20300312T230000']);
const QUIZ = (extra: string[] = []) => vevent('quiz@venue', ['SUMMARY:Pub quiz', 'DTSTART;TZID=America/Toronto:20300105T190000', 'DTEND;TZID=America/Toronto:20300105T210000', 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8', ...extra]);
const BOOK_CLUB = vevent('books@venue', ['SUMMARY:Book club', 'DTSTART;TZID=America/Toronto:20300107T180000', 'DTEND;TZID=America/Toronto:20300107T190000', 'RRULE:FREQ=MONTHLY;BYDAY=1TH;COUNT=6']);

let t: TestContext;
let member: MemberFixture;
let agent: Agent;
let base: string;

const calendarFeeds = { intervalMinutes: 60, fetchTimeoutMs: 400, maxBytes: 64 * 1024, maxEvents: 5, maxRedirects: 3, allowLoopback: true };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestContext({}, { calendarFeeds });
  member = await createMember(t.ctx, { full_name: 'Rex Bookings' });
  agent = await memberAgent(t, member);
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function addFeed(path: string, who: Agent = agent) {
  const res = await who.post('/api/v2/calendar-feeds/').set('X-CSRFToken', who.csrfToken).send({ url: `${base}${path}` });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}
const check = (id: number, who: Agent = agent) => who.post(`/api/v2/calendar-feeds/${id}/check/`).set('X-CSRFToken', who.csrfToken).send({});
const eventOf = (uid: string) => t.ctx.db('calendar_feed_events as l').join('events as e', 'e.id', 'l.event_id').where('l.uid', uid).first('e.*', 'l.review', 'l.state');

describe('calendar feeds', () => {
  it('a new feed: Check now imports each event as a pending submission with the form\'s schedule, and flags a monthly rule', async () => {
    routes.set('/venue.ics', { body: calendar(JAZZ(), QUIZ(), BOOK_CLUB), headers: { ETag: '"v1"' } });
    const feed = await addFeed('/venue.ics');
    const res = await check(feed.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', events_found: 3, last_error: null, consecutive_failures: 0 });
    expect(res.body.last_fetched_at).toEqual(expect.any(String));

    const jazz = await eventOf('jazz@venue');
    expect(jazz).toMatchObject({ title: 'Jazz night', status: 'pending', source: 'calendar_feed', submitted_by: member.id, schedule_type: 'single_day', venue_name: 'The Rex' });
    const quiz = await eventOf('quiz@venue');
    expect(quiz).toMatchObject({ schedule_type: 'weekly', weekdays: [2] });
    const occurrences = await t.ctx.db('event_occurrences').where({ event_id: quiz.id }).count('* as n').first();
    // RRULE COUNT=8: eight evenings, each one occurrence.
    expect(Number(occurrences?.n)).toBe(8);
    const books = await eventOf('books@venue');
    expect(books.review.flags[0]).toMatch(/repeats monthly/);

    const list = await agent.get('/api/v2/calendar-feeds/');
    expect(list.body).toMatchObject({ count: 1, results: [{ id: feed.id, url: `${base}/venue.ics`, events_found: 3 }] });
  });

  it('an unchanged feed answers 304 to If-None-Match and costs nothing', async () => {
    const feed = await t.ctx.db('calendar_feeds').where({ url: `${base}/venue.ics` }).first();
    const before = await eventOf('jazz@venue');
    seen.length = 0;
    const res = await check(feed.id);
    expect(res.status).toBe(200);
    expect(seen).toEqual([{ path: '/venue.ics', ifNoneMatch: '"v1"' }]);
    expect((await eventOf('jazz@venue')).date_updated).toEqual(before.date_updated);
  });

  it('a changed event (SEQUENCE bump) updates its pending submission; an approved one goes back to the queue with the differences', async () => {
    const feed = await t.ctx.db('calendar_feeds').where({ url: `${base}/venue.ics` }).first();
    const quiz = await eventOf('quiz@venue');
    await moderateEvent(t.ctx.db, quiz.id, 'approved');
    routes.set('/venue.ics', { body: calendar(JAZZ(1, 'Late jazz night'), QUIZ(['SEQUENCE:2', 'LOCATION:The Ship, 1 King St']), BOOK_CLUB), headers: { ETag: '"v2"' } });
    await check(feed.id);
    const jazz = await eventOf('jazz@venue');
    expect(jazz).toMatchObject({ title: 'Late jazz night', status: 'pending' });
    const requeued = await eventOf('quiz@venue');
    expect(requeued).toMatchObject({ id: quiz.id, status: 'pending', venue_name: 'The Ship' });
    expect(requeued.review.changes).toEqual(expect.arrayContaining([{ field: 'Venue', before: '', after: 'The Ship' }]));

    const staff = await createMember(t.ctx, { is_staff: true });
    const page = await (await memberAgent(t, staff)).get('/staff/events/');
    expect(page.text).toContain("Imported from the organiser's calendar");
    expect(page.text).toContain('What changed since it was last decided');
    expect(page.text).toMatch(/repeats monthly/);
  });

  it('a cancelled event and one gone from the feed are flagged to staff and kept, not deleted', async () => {
    const feed = await t.ctx.db('calendar_feeds').where({ url: `${base}/venue.ics` }).first();
    const jazz = await eventOf('jazz@venue');
    await moderateEvent(t.ctx.db, jazz.id, 'approved');
    routes.set('/venue.ics', { body: calendar(JAZZ(2).replace('SUMMARY:', 'STATUS:CANCELLED\r\nSUMMARY:')), headers: { ETag: '"v3"' } });
    const res = await check(feed.id);
    expect(res.body.events_found).toBe(0);
    const cancelled = await eventOf('jazz@venue');
    expect(cancelled).toMatchObject({ id: jazz.id, status: 'pending', state: 'cancelled' });
    expect(cancelled.review.flags[0]).toMatch(/cancelled/);
    const gone = await eventOf('quiz@venue');
    expect(gone).toMatchObject({ state: 'gone', status: 'pending' });
    expect(gone.review.flags[0]).toMatch(/no longer in the organiser's calendar/);
    expect(await t.ctx.db('events').where({ source: 'calendar_feed' }).count('* as n').first()).toMatchObject({ n: 3 });
  });

  it('malformed, oversized, too many events, slow: each a failure with its reason; the third in a row pauses the feed and emails the member', async () => {
    routes.set('/broken.ics', { body: '<html>Not a calendar</html>' });
    const feed = await addFeed('/broken.ics');
    expect((await check(feed.id)).body).toMatchObject({ status: 'active', consecutive_failures: 1, last_error: expect.stringMatching(/not valid iCalendar/) });

    routes.set('/broken.ics', { body: calendar(vevent('big', ['SUMMARY:Big', 'DTSTART:20300101T100000Z', `DESCRIPTION:${'x'.repeat(70 * 1024)}`])) });
    expect((await check(feed.id)).body).toMatchObject({ consecutive_failures: 2, last_error: expect.stringMatching(/larger than/) });

    t.mailer.sent.length = 0;
    routes.set('/broken.ics', { hang: true });
    const paused = (await check(feed.id)).body;
    expect(paused).toMatchObject({ status: 'paused', consecutive_failures: 3, last_error: expect.stringMatching(/took longer than 400 ms/), next_fetch_at: null });
    expect(paused.paused_reason).toMatch(/Paused after 3 failed fetches/);
    expect(t.mailer.sent).toEqual([expect.objectContaining({ to: member.email, subject: expect.stringMatching(/paused your calendar feed/) })]);

    // A paused feed is not fetched on the schedule; Check now tries again and resumes it once it works.
    await t.ctx.db('calendar_feeds').where({ id: feed.id }).update({ next_fetch_at: new Date(0) });
    seen.length = 0;
    await syncDueFeeds(t.ctx);
    expect(seen.filter((s) => s.path === '/broken.ics')).toEqual([]);

    routes.set('/broken.ics', { body: calendar(...Array.from({ length: 6 }, (_, i) => vevent(`n${i}`, ['SUMMARY:N', 'DTSTART:20300101T100000Z']))) });
    expect((await check(feed.id)).body).toMatchObject({ status: 'paused', consecutive_failures: 4, last_error: expect.stringMatching(/6 events; at most 5/) });
    routes.set('/broken.ics', { body: calendar(vevent('ok@venue', ['SUMMARY:Fixed', 'DTSTART:20300101T100000Z'])) });
    expect((await check(feed.id)).body).toMatchObject({ status: 'active', paused_reason: null, consecutive_failures: 0, events_found: 1 });
  });

  it('a redirect to a private address (link-local metadata, 10/8) is refused before connecting', async () => {
    for (const target of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/calendar.ics']) {
      routes.set('/moved.ics', { status: 302, headers: { Location: target } });
      const feed = (await t.ctx.db('calendar_feeds').where({ url: `${base}/moved.ics` }).first()) ?? (await addFeed('/moved.ics'));
      const res = await check(feed.id);
      // The address check's reason, not a connection error or a timeout: no connection was tried.
      expect(res.body.last_error).toMatch(/is on a private or reserved network/);
      expect(res.body.last_error).toContain(new URL(target).hostname);
    }
  });

  it('the schedule fetches due feeds only, each claimed once', async () => {
    routes.set('/second.ics', { body: calendar(JAZZ()) });
    const feed = await addFeed('/second.ics');
    seen.length = 0;
    await syncDueFeeds(t.ctx);
    expect(seen.map((s) => s.path)).toEqual(['/second.ics']);
    const row = await t.ctx.db('calendar_feeds').where({ id: feed.id }).first();
    expect(new Date(row.next_fetch_at).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    seen.length = 0;
    await syncDueFeeds(t.ctx);
    expect(seen).toEqual([]);
  });

  it('a first import of 500 events is written in batches: under 20 statements, not several per event', async () => {
    const day = (i: number) => new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10).replace(/-/g, '');
    const bulk = Array.from({ length: 500 }, (_, i) => vevent(`bulk-${i}@venue`, [`SUMMARY:Bulk night ${i}`, `DTSTART;TZID=America/Toronto:${day(i)}T190000`, `DTEND;TZID=America/Toronto:${day(i)}T210000`]));
    routes.set('/bulk.ics', { body: calendar(...bulk) });
    const feed = await addFeed('/bulk.ics');
    const roomy = { ...t.ctx, config: { ...t.ctx.config, calendarFeeds: { ...t.ctx.config.calendarFeeds, maxEvents: 500, maxBytes: 1024 * 1024 } } };
    trackQueries(t.ctx.db);
    const sync = () => measureQueries(async (stats) => ({ outcome: await syncFeed(roomy, feed.id), stats }));

    const first = await sync();
    expect(first.outcome).toBe('updated');
    expect(first.stats.queries).toBeLessThan(20);
    const imported = t.ctx.db('calendar_feed_events').where({ feed_id: feed.id });
    expect(await imported.clone().count('* as n').first()).toMatchObject({ n: 500 });
    const last = await eventOf('bulk-499@venue');
    expect(last).toMatchObject({ title: 'Bulk night 499', status: 'pending', source: 'calendar_feed', schedule_type: 'single_day' });
    expect(await t.ctx.db('event_occurrences').where({ event_id: last.id }).first('local_date', 'all_day')).toMatchObject({ all_day: false });
    expect(await t.ctx.db('event_occurrences').whereIn('event_id', imported.clone().select('event_id')).count('* as n').first()).toMatchObject({ n: 500 });

    // Unchanged (no ETag to ask with): read, compared, nothing written.
    expect((await sync()).stats.queries).toBeLessThan(10);
  });

  it('bad input: 400 naming the url field; another member\'s feed is a 404', async () => {
    const post = (url: unknown) => agent.post('/api/v2/calendar-feeds/').set('X-CSRFToken', agent.csrfToken).send({ url });
    expect((await post('not a url')).body).toEqual({ url: [expect.stringMatching(/valid URL/)] });
    expect((await post('ftp://calendar.example/x.ics')).body).toEqual({ url: [expect.stringMatching(/Only http, https and webcal/)] });
    expect((await post('http://10.0.0.1/x.ics')).body).toEqual({ url: [expect.stringMatching(/private network/)] });
    expect((await post('http://192.168.1.1/x.ics')).status).toBe(400);
    expect((await post(undefined)).body).toEqual({ url: ['This field is required.'] });
    const webcal = await post('webcal://calendar.example/x.ics');
    expect(webcal.body.url).toBe('https://calendar.example/x.ics');
    expect((await post('webcal://calendar.example/x.ics')).body).toEqual({ url: ['You have already added this feed.'] });

    const other = await createMember(t.ctx);
    const otherAgent = await memberAgent(t, other);
    for (let i = 0; i < MAX_FEEDS_PER_MEMBER; i++) await otherAgent.post('/api/v2/calendar-feeds/').set('X-CSRFToken', otherAgent.csrfToken).send({ url: `https://calendar.example/${i}.ics` }).expect(201);
    const tooMany = await otherAgent.post('/api/v2/calendar-feeds/').set('X-CSRFToken', otherAgent.csrfToken).send({ url: 'https://calendar.example/more.ics' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.url[0]).toMatch(/at most 10/);
    expect((await check(webcal.body.id, otherAgent)).status).toBe(404);
    expect((await otherAgent.delete(`/api/v2/calendar-feeds/${webcal.body.id}/`).set('X-CSRFToken', otherAgent.csrfToken)).status).toBe(404);
    expect((await agent.delete(`/api/v2/calendar-feeds/${webcal.body.id}/`).set('X-CSRFToken', agent.csrfToken)).status).toBe(204);
    expect((await guestAgent(t.app).get('/api/v2/calendar-feeds/')).status).toBe(401);
  });

  it('Check now is rate limited per member', async () => {
    const app = t.rebuild({ RATE_LIMITS: 'true' });
    const limited = await memberAgent({ app, ctx: t.ctx }, member);
    const feed = await t.ctx.db('calendar_feeds').where({ url: `${base}/venue.ics` }).first();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await check(feed.id, limited)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
