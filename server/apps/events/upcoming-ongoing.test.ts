import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';

// Upcoming events skip past occurrences by a bound: nothing not yet over can have started
// earlier than the longest occurrence's duration before now. The bound must never drop an
// occurrence that is still running, however long it is.

describe('GET /api/v2/events/ (upcoming) and occurrences still running', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};
  const NOW = new Date('2026-10-21T03:00:00Z'); // 11 pm on the 20th in Toronto

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => NOW;
    t.app = t.rebuild();
    const db = t.ctx.db;
    // Started three hours ago, ends at 1 am: running now.
    ids.lateShow = await createEvent(db, { title: 'Late Show', schedule: { schedule_type: 'single_day', start_date: '2026-10-20', start_time: '20:00', end_time: '01:00' } });
    // Over an hour ago.
    ids.dinner = await createEvent(db, { title: 'Early Dinner', schedule: { schedule_type: 'single_day', start_date: '2026-10-20', start_time: '18:00', end_time: '22:00' } });
    ids.tomorrow = await createEvent(db, { title: 'Tomorrow Talk', schedule: { schedule_type: 'single_day', start_date: '2026-10-21', start_time: '12:00' } });
  });
  afterAll(() => t.close());

  const upcoming = async () => {
    const res = await request(t.app).get('/api/v2/events/?ordering=start_date_time&limit=50');
    expect(res.status).toBe(200);
    return res.body as { count: number; results: Array<{ id: number; title: string }> };
  };

  test('an occurrence that started before now and is not over is listed first', async () => {
    const body = await upcoming();
    expect(body.results.map((r) => r.title)).toEqual(['Late Show', 'Tomorrow Talk']);
    expect(body.count).toBe(2);
  });

  test('a month-long occurrence that started weeks ago still counts (the bound grows with it)', async () => {
    const db = t.ctx.db;
    ids.exhibition = await createEvent(db, { title: 'Long Exhibition', schedule: { schedule_type: 'single_day', start_date: '2026-12-01', start_time: '10:00' } });
    // One occurrence running from September 30 to November 30, as an import could write it.
    await db('event_occurrences').where('event_id', ids.exhibition).delete();
    await db('event_occurrences').insert({ event_id: ids.exhibition, local_date: '2026-09-30', starts_at: new Date('2026-09-30T14:00:00Z'), ends_at: new Date('2026-11-30T22:00:00Z'), all_day: false });
    const body = await upcoming();
    expect(body.results.map((r) => r.title)).toEqual(['Long Exhibition', 'Late Show', 'Tomorrow Talk']);
    expect(body.count).toBe(3);
  });
});
