import request from 'supertest';
import moment from 'moment-timezone';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createEvent, createListing } from '../../testing/fixtures';

// The events hub and event pages. Dates are relative to today so the tests never age out.

const tz = 'Canada/Eastern';
const day = (offset: number) => moment.tz(tz).add(offset, 'days').format('YYYY-MM-DD');

describe('event pages', () => {
  let t: TestContext;
  let weeklyId: number;
  let singleId: number;
  let pendingId: number;
  let pastId: number;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const venue = await createListing(db, { name: 'Massey Hall' });
    singleId = await createEvent(db, { title: 'Jazz <script>alert(1)</script> Night', listing_id: venue, schedule: { schedule_type: 'single_day', start_date: day(3), start_time: '19:00', end_time: '21:00' } });
    await db('events').where({ id: singleId }).update({ description: 'An evening of jazz.\n\nBring friends.', website: 'javascript:alert(1)', is_free: true, organizer_name: 'Jazz Society' });
    weeklyId = await createEvent(db, { title: 'Trivia Tuesdays', schedule: { schedule_type: 'weekly', start_date: day(-10), end_date: day(40), start_time: '19:00', end_time: '21:00', weekdays: [2, 4] } });
    pendingId = await createEvent(db, { title: 'Not approved yet', status: 'pending', schedule: { schedule_type: 'single_day', start_date: day(2), start_time: '10:00' } });
    pastId = await createEvent(db, { title: 'Last Year Fair', schedule: { schedule_type: 'single_day', start_date: day(-30), all_day: true } });
  });
  afterAll(() => t.close());

  test('the hub lists upcoming approved events with their schedule in words, soonest first', async () => {
    const res = await request(t.app).get('/events/');
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toContain('Jazz &lt;script&gt;alert(1)&lt;/script&gt; Night');
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('Trivia Tuesdays');
    expect(res.text).toMatch(/Every Tuesday and Thursday, 7 pm – 9 pm, until [A-Z][a-z]+ \d+/);
    expect(res.text).not.toContain('Not approved yet');
    expect(res.text).not.toContain('Last Year Fair');
    expect(res.text).toContain(`href="/events/jazz-script-alert-1-script-night-${singleId}/"`);
    expect(res.text).toContain('<div data-island="events-hub" id="events-hub">');
    expect(res.text).toMatch(/<label for="events-date">Pick a date<\/label>/);
  });

  test('the island’s state carries each printed event’s card fields only, not the whole bundle', async () => {
    const res = await request(t.app).get('/events/');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1]);
    const events = state['events-hub'].results as Record<string, unknown>[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(['all_day', 'id', 'image_url', 'schedule', 'share_url', 'start_date_time', 'title', 'venue_name']);
    }
    expect(events.find((e) => e.id === singleId)).toMatchObject({ title: 'Jazz <script>alert(1)</script> Night', share_url: expect.stringContaining(`-${singleId}/`) });
  });

  test('?date= shows the events on that Toronto day with previous and next day links', async () => {
    const res = await request(t.app).get(`/events/?date=${day(3)}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Jazz &lt;script&gt;');
    expect(res.text).toContain(`href="/events/?date=${day(2)}" rel="prev"`);
    expect(res.text).toContain(`href="/events/?date=${day(4)}" rel="next"`);
    const empty = await request(t.app).get(`/events/?date=${day(200)}`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No events on this day yet.');
  });

  test('a bad date or page is a 400 naming it', async () => {
    const bad = await request(t.app).get('/events/?date=2026-02-31');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('date');
    expect((await request(t.app).get('/events/?page=0')).status).toBe(400);
  });

  test('an event page shows its schedule, upcoming dates, venue, map link, save mount point and Event JSON-LD', async () => {
    const res = await request(t.app).get(`/events/jazz-script-alert-1-script-night-${singleId}/`);
    expect(res.status).toBe(200);
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(res.text).toContain('Jazz &lt;script&gt;alert(1)&lt;/script&gt; Night</h1>');
    expect(res.text).toMatch(/<p class="event__schedule">[A-Z][a-z]+day, [A-Z][a-z]+ \d+(, \d{4})?, 7 pm – 9 pm<\/p>/);
    expect(res.text).toContain('<p>Bring friends.</p>');
    expect(res.text).toContain(', 7:00 pm – 9:00 pm</li>');
    expect(res.text).toMatch(/<dt>Venue<\/dt><dd><a href="[^"]*\/massey-hall-\d+\/">Massey Hall<\/a><\/dd>/);
    expect(res.text).toContain('openstreetmap.org/?mlat=43.6542&amp;mlon=-79.3789');
    // The save control the saves island makes live ('Add to my Events').
    expect(res.text).toMatch(/<div data-island="saves" class="save-control save-control--event" data-save="event" data-object-id="\d+"/);
    expect(res.text).not.toMatch(/href="javascript:/i);
    const ld = [...res.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1])).find((b) => b['@type'] === 'Event');
    expect(ld).toMatchObject({ name: 'Jazz <script>alert(1)</script> Night', location: { '@type': 'Place', name: 'Massey Hall' }, isAccessibleForFree: true, organizer: { name: 'Jazz Society' } });
    expect(new Date(ld.startDate).toISOString()).toBe(ld.startDate);
  });

  test('a weekly event lists all its upcoming dates', async () => {
    const res = await request(t.app).get(`/events/trivia-tuesdays-${weeklyId}/`);
    expect(res.status).toBe(200);
    const dates = res.text.match(/<li><time datetime=/g) ?? [];
    expect(dates.length).toBeGreaterThanOrEqual(10);
    expect(dates.length).toBeLessThanOrEqual(13);
  });

  test('a past event still has its page, says it has ended and offers no save', async () => {
    const res = await request(t.app).get(`/events/last-year-fair-${pastId}/`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('This event has ended.');
    expect(res.text).not.toContain('Add to my Events');
  });

  test('a stale slug is a 301; unknown, pending and malformed ids are the HTML 404 page', async () => {
    const res = await request(t.app).get(`/events/old-${weeklyId}/`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`/events/trivia-tuesdays-${weeklyId}/`);
    for (const path of [`/events/not-approved-yet-${pendingId}/`, '/events/nothing-999999/', '/events/no-id/']) {
      const r = await request(t.app).get(path);
      expect([path, r.status]).toEqual([path, 404]);
      expect(r.text).toContain('Page not found');
    }
  });

  test('with events off, the events pages are 404', async () => {
    const app = t.rebuild({ FEATURE_EVENTS: 'false' });
    expect((await request(app).get('/events/')).status).toBe(404);
    expect((await request(app).get(`/events/trivia-tuesdays-${weeklyId}/`)).status).toBe(404);
  });
});
