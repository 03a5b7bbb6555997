import moment from 'moment-timezone';
import request from 'supertest';
import { createTestContext, createMember, type TestContext } from '../../server/testing/test-app';
import { createEvent } from '../../server/testing/fixtures';
import { urls } from '../../shared/urls';
import { currentIssue } from '../../server/apps/newsletters/newsletter-issue-queries';
import { loadCalendarSourceEvent } from '../../server/apps/calendar/queries';

// The one rule for events (whereEventIsPublic in server/apps/events/queries.ts): staff approved it. One approved
// event beside a pending submission and a rejected one, all tomorrow, through every reader:
// the hub (upcoming and by day), the event pages, home, the sitemap, the API, search, the
// events newsletter, and the two calendar readers of a member's saved events (the ICS feed and
// what is sent to Google Calendar). Only the approved one may appear.
// It lives in test/, not in the app: the readers include apps above the content apps
// (newsletters, calendar), which an app's own tests may not import (server/apps/README.md).

const tz = 'Canada/Eastern';
const day = (offset: number) => moment.tz(tz).add(offset, 'days').format('YYYY-MM-DD');
const TOKEN = 'q'.repeat(43);

describe('which events the public sees', () => {
  let t: TestContext;
  const id = { approved: 0, pending: 0, rejected: 0 };
  const path = (which: keyof typeof id) => urls.event(`quokka-jazz-${which}`, id[which]);

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    for (const status of ['approved', 'pending', 'rejected'] as const) {
      id[status] = await createEvent(db, { title: `Quokka jazz ${status}`, status, schedule: { schedule_type: 'single_day', start_date: day(1), start_time: '19:00', end_time: '21:00' } });
    }
    // A member with all three saved (an event sent back to the queue keeps its saves): their feed shows the approved one only.
    const member = await createMember(t.ctx);
    await db('profiles').where({ id: member.id }).update({ ics_token: TOKEN });
    await db('event_bookmarks').insert(Object.values(id).map((event_id) => ({ profile_id: member.id, event_id })));
  });
  afterAll(() => t.close());

  const readers = [
    '/', '/events/', `/events/?date=${day(1)}`, 'APPROVED', '/sitemaps/events-1.xml',
    '/api/v2/events/', `/api/v2/events/?date=${day(1)}&bundle_type=large`, '/api/search/?serialize_for=web&q=quokka', '/search?q=quokka', `/calendar/${TOKEN}.ics`,
  ];
  const url = (reader: string) => (reader === 'APPROVED' ? path('approved') : reader);
  const shows = (text: string, which: keyof typeof id) => text.includes(`Quokka jazz ${which}`) || text.includes(path(which));

  test.each(readers)('%s shows the approved event and neither the pending nor the rejected one', async (reader) => {
    const res = await request(t.app).get(url(reader));
    expect(res.status).toBe(200);
    expect({ approved: shows(res.text, 'approved'), pending: shows(res.text, 'pending'), rejected: shows(res.text, 'rejected') }).toEqual({ approved: true, pending: false, rejected: false });
  });

  test('the pages of the others, and the counts, answer as if they did not exist', async () => {
    expect((await request(t.app).get(path('pending'))).status).toBe(404);
    expect((await request(t.app).get(path('rejected'))).status).toBe(404);
    expect((await request(t.app).get('/api/v2/events/')).body.count).toBe(1);
    expect((await request(t.app).get('/api/search/?serialize_for=web&q=quokka')).body.counts.events).toBe(1);
  });

  test('the events newsletter carries only the approved one', async () => {
    expect((await currentIssue(t.ctx, 'events'))?.items.map((i) => i.title)).toEqual(['Quokka jazz approved']);
  });

  test('only the approved one can be sent to a member\'s Google Calendar', async () => {
    expect((await loadCalendarSourceEvent(t.ctx.db, id.approved))?.title).toBe('Quokka jazz approved');
    expect(await loadCalendarSourceEvent(t.ctx.db, id.pending)).toBeUndefined();
    expect(await loadCalendarSourceEvent(t.ctx.db, id.rejected)).toBeUndefined();
  });
});
