import request from 'supertest';
import moment from 'moment-timezone';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';

// GET /api/v2/events/: the events occurring on a Canada/Eastern day, recurring schedules
// included, and right on both sides of the DST changes (2026-03-08 and 2026-11-01).

const TZ = 'Canada/Eastern';
type Item = { id: number; title: string; start_date_time: string };

describe('GET /api/v2/events/', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  const NOW = new Date('2026-10-20T12:00:00Z');

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => NOW;
    t.app = t.rebuild();
    const db = t.ctx.db;
    // Thursdays at 7 pm from October into November: across the fall DST change.
    ids.weeklyFall = await createEvent(db, { title: 'Trivia Night', schedule: { schedule_type: 'weekly', start_date: '2026-10-15', end_date: '2026-11-19', weekdays: [4], start_time: '19:00', end_time: '22:00' } });
    // Sundays at 1 am in March: 2026-03-08 is the spring-forward day.
    ids.weeklySpring = await createEvent(db, { title: 'Late Jazz', schedule: { schedule_type: 'weekly', start_date: '2026-03-01', end_date: '2026-03-15', weekdays: [0], start_time: '23:30', end_time: '02:00' } });
    ids.range = await createEvent(db, { title: 'Nuit Market', schedule: { schedule_type: 'day_range', start_date: '2026-10-30', end_date: '2026-11-02', all_day: true } });
    ids.single = await createEvent(db, { title: 'Halloween Party', schedule: { schedule_type: 'single_day', start_date: '2026-10-31', start_time: '21:00', end_time: '01:00' } });
    ids.early = await createEvent(db, { title: 'Morning Run', schedule: { schedule_type: 'single_day', start_date: '2026-11-01', start_time: '00:30' } });
    ids.irregular = await createEvent(db, {
      title: 'Pop-up Dinners',
      schedule: { schedule_type: 'irregular', start_date: '2026-11-01', dates: [{ date: '2026-11-01', start_time: '18:00', end_time: '20:00' }, { date: '2026-11-01', start_time: '21:00', end_time: '23:00' }, { date: '2026-11-07', start_time: '18:00', end_time: null }] },
    } as never);
    ids.pending = await createEvent(db, { title: 'Not Yet Approved', status: 'pending', schedule: { schedule_type: 'single_day', start_date: '2026-11-01', start_time: '12:00' } });
    ids.past = await createEvent(db, { title: 'Summer Fest', schedule: { schedule_type: 'single_day', start_date: '2026-07-01', start_time: '12:00' } });
  });
  afterAll(() => t.close());

  const onDate = async (date: string, extra = '') => {
    const res = await request(t.app).get(`/api/v2/events/?date=${date}&limit=50${extra}`);
    expect(res.status).toBe(200);
    return res.body.results as Item[];
  };
  const titles = (items: Item[]) => items.map((i) => i.title).sort();

  test('a date answers the events occurring that day, recurring ones included, each once', async () => {
    expect(titles(await onDate('2026-11-01'))).toEqual(['Morning Run', 'Nuit Market', 'Pop-up Dinners']);
    expect(titles(await onDate('2026-10-31'))).toEqual(['Halloween Party', 'Nuit Market']);
    expect(titles(await onDate('2026-11-05'))).toEqual(['Trivia Night']);
    expect(titles(await onDate('2026-11-04'))).toEqual([]);
    expect(titles(await onDate('2026-11-07'))).toEqual(['Pop-up Dinners']);
  });

  test('a weekly event keeps its local time across the fall DST change', async () => {
    for (const [date, offset] of [['2026-10-29', '-04:00'], ['2026-11-05', '-05:00']]) {
      const [item] = await onDate(date);
      expect(item.title).toBe('Trivia Night');
      const local = moment(item.start_date_time).tz(TZ);
      expect(local.format('YYYY-MM-DD HH:mm Z')).toBe(`${date} 19:00 ${offset}`);
    }
    // 7 pm EDT is 23:00 UTC, 7 pm EST is 00:00 UTC the next day: still listed on its local day.
    expect((await onDate('2026-11-05'))[0].start_date_time).toBe('2026-11-06T00:00:00.000Z');
    expect(titles(await onDate('2026-11-06'))).toEqual([]);
  });

  test('an event on the spring-forward day is on its local day, at its local time', async () => {
    for (const [date, utc] of [['2026-03-01', '2026-03-02T04:30:00.000Z'], ['2026-03-08', '2026-03-09T03:30:00.000Z'], ['2026-03-15', '2026-03-16T03:30:00.000Z']]) {
      const items = await onDate(date);
      expect(items.map((i) => i.title)).toEqual(['Late Jazz']);
      expect(items[0].start_date_time).toBe(utc);
    }
    expect(titles(await onDate('2026-03-09'))).toEqual([]);
  });

  test('an event shows that day’s start time, not its next occurrence', async () => {
    const [item] = (await onDate('2026-11-02')).filter((i) => i.title === 'Nuit Market');
    expect(moment(item.start_date_time).tz(TZ).format('YYYY-MM-DD HH:mm')).toBe('2026-11-02 00:00');
    const dinners = (await onDate('2026-11-01')).find((i) => i.title === 'Pop-up Dinners')!;
    expect(moment(dinners.start_date_time).tz(TZ).format('HH:mm')).toBe('18:00');
  });

  test('orders by start time, latest first by default; start_date_time ascending', async () => {
    const desc = (await onDate('2026-11-01')).map((i) => i.start_date_time);
    expect(desc).toEqual([...desc].sort().reverse());
    const asc = (await onDate('2026-11-01', '&ordering=start_date_time')).map((i) => i.title);
    expect(asc).toEqual(['Nuit Market', 'Morning Run', 'Pop-up Dinners']);
  });

  test('without a date: upcoming events only, limit 6 by default, simple bundle, pages disjoint', async () => {
    const res = await request(t.app).get('/api/v2/events/?ordering=start_date_time');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
    const items = res.body.results as Item[];
    expect(items).toHaveLength(5);
    expect(items.map((i) => i.title)).not.toContain('Summer Fest');
    expect(items.map((i) => i.title)).not.toContain('Not Yet Approved');
    expect(items[0].title).toBe('Trivia Night');
    expect(moment(items[0].start_date_time).tz(TZ).format('YYYY-MM-DD')).toBe('2026-10-22');
    expect(Object.keys(items[0]).sort()).toEqual(['all_day', 'can_be_bookmarked', 'id', 'image_url', 'listing', 'share_url', 'start_date_time', 'title', 'venue_name']);
    const a = (await request(t.app).get('/api/v2/events/?limit=3')).body.results as Item[];
    const b = (await request(t.app).get('/api/v2/events/?limit=3&offset=3')).body.results as Item[];
    expect(a).toHaveLength(3);
    expect(new Set([...a, ...b].map((i) => i.id)).size).toBe(5);

  });

  test('answers 6 events per page by default', async () => {
    for (let i = 0; i < 7; i += 1) {
      await createEvent(t.ctx.db, { title: `Carol ${i}`, schedule: { schedule_type: 'single_day', start_date: '2026-12-24', start_time: `1${i}:00` } });
    }
    const res = await request(t.app).get('/api/v2/events/?date=2026-12-24');
    expect(res.body.count).toBe(7);
    expect(res.body.results).toHaveLength(6);
    expect(new URL(res.body.next).searchParams.get('offset')).toBe('6');
  });

  test('bundle_type medium and large add fields', async () => {
    const medium = (await onDate('2026-11-05', '&bundle_type=medium'))[0];
    expect(medium).toMatchObject({ schedule_type: 'weekly', venue_name: 'Massey Hall', location: expect.any(Object) });
    const large = (await onDate('2026-11-05', '&bundle_type=large'))[0];
    expect(large).toHaveProperty('description');
    expect(large).toHaveProperty('categories');
  });

  test.each([
    ['date=2026-02-30', 'date'],
    ['date=tomorrow', 'date'],
    ['date=2026-1-1', 'date'],
    ['ordering=name', 'ordering'],
    ['bundle_type=xl', 'bundle_type'],
    ['limit=10000', 'limit'],
    ['date[]=2026-11-01', 'date'],
  ])('bad input %s is a 400 naming %s', async (qs, field) => {
    const res = await request(t.app).get(`/api/v2/events/?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty(field);
  });
});
