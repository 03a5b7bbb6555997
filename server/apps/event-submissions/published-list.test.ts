import moment from 'moment-timezone';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';

// Staff's list of published events (/staff/events/published/): staff only; upcoming events
// soonest first, past ones on their own tab latest first; only approved events; search by
// title; 50 a page, a bad parameter a 400 naming it, a page past the last sent to the first.

const PATH = '/staff/events/published/';
const day = (offset: number) => moment.tz('Canada/Eastern').add(offset, 'days').format('YYYY-MM-DD');
const on = (offset: number) => ({ schedule_type: 'single_day' as const, start_date: day(offset), start_time: '19:00', end_time: '21:00' });

describe('staff list of published events', () => {
  let t: TestContext;
  let staff: Agent;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestContext();
    staff = await memberAgent(t, await createMember(t.ctx, { is_staff: true }));
    const db = t.ctx.db;
    ids.soon = await createEvent(db, { title: 'Harbourfront kite day', status: 'approved', schedule: on(3) });
    ids.later = await createEvent(db, { title: 'Distillery winter market', status: 'approved', venue_name: 'Distillery District', schedule: on(20) });
    ids.past = await createEvent(db, { title: 'Nuit Blanche walk', status: 'approved', schedule: on(-10) });
    ids.older = await createEvent(db, { title: 'Harbourfront swap meet', status: 'approved', schedule: on(-40) });
    ids.pending = await createEvent(db, { title: 'Pending kite jam', status: 'pending', schedule: on(5) });
    ids.rejected = await createEvent(db, { title: 'Rejected kite fair', status: 'rejected', schedule: on(6) });
  });
  afterAll(() => t.close());

  const rowsOf = (html: string) => [...mainOf(html).matchAll(/<tr data-event="(\d+)">/g)].map((m) => Number(m[1]));

  test('staff only: a guest is sent to sign in, a member who is not staff is refused', async () => {
    const res = await guestAgent(t.app).get(PATH).expect(302);
    expect(res.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(PATH)}`);
    const member = await memberAgent(t, await createMember(t.ctx));
    await member.get(PATH).expect(403);
  });

  test('upcoming events soonest first, each with its dates, venue, status, Edit and public links; pending and rejected ones are not listed', async () => {
    const res = await staff.get(PATH).expect(200);
    expect(res.headers['cache-control']).toMatch(/private|no-store/);
    expect(rowsOf(res.text)).toEqual([ids.soon, ids.later]);
    const main = mainOf(res.text);
    expect(main).toContain('href="/staff/events/new/"');
    expect(main).toContain(`href="/staff/events/${ids.later}/edit/"`);
    const later = await t.ctx.db('events').where({ id: ids.later }).first('slug');
    expect(main).toContain(`href="/events/${later.slug}-${ids.later}/"`);
    expect(main).toContain('Distillery District');
    expect(main).toContain(moment.tz(day(20), 'Canada/Eastern').format('MMM D, YYYY'));
    expect(main).toContain('Upcoming');
    expect(main).not.toContain('Pending kite jam');
    expect(main).not.toContain('Rejected kite fair');
    // In the staff menu, on every staff page.
    expect((await staff.get('/staff/').expect(200)).text).toContain(`href="${PATH}"`);
  });

  test('the past tab: ended events, latest first', async () => {
    const res = await staff.get(`${PATH}?tab=past`).expect(200);
    expect(rowsOf(res.text)).toEqual([ids.past, ids.older]);
    expect(mainOf(res.text)).toContain('Ended');
  });

  test('search by title, on either tab, wildcards taken literally', async () => {
    expect(rowsOf((await staff.get(PATH).query({ q: 'harbourFRONT' }).expect(200)).text)).toEqual([ids.soon]);
    expect(rowsOf((await staff.get(PATH).query({ q: 'harbourfront', tab: 'past' }).expect(200)).text)).toEqual([ids.older]);
    expect(rowsOf((await staff.get(PATH).query({ q: '%' }).expect(200)).text)).toEqual([]);
  });

  test('50 a page: the second page has the rest, the pager keeps the search; past the last page goes to the first', async () => {
    const db = t.ctx.db;
    for (let i = 0; i < 51; i += 1) await createEvent(db, { title: `Paged concert ${String(i).padStart(2, '0')}`, status: 'approved', schedule: on(30 + i) });
    const first = await staff.get(PATH).query({ q: 'paged concert' }).expect(200);
    expect(rowsOf(first.text)).toHaveLength(50);
    expect(first.text).toContain(`href="${PATH}?q=paged+concert&amp;page=2"`);
    const second = await staff.get(PATH).query({ q: 'paged concert', page: '2' }).expect(200);
    const last = await db('events').where({ title: 'Paged concert 50' }).first('id');
    expect(rowsOf(second.text)).toEqual([last.id]);
    const beyond = await staff.get(PATH).query({ q: 'paged concert', page: '9' }).expect(302);
    expect(beyond.headers.location).toBe(`${PATH}?q=paged+concert`);
  });

  test('a bad page, tab or repeated search is a 400 naming it', async () => {
    for (const [query, field] of [['page=0', 'page'], ['page=abc', 'page'], ['tab=soon', 'tab'], ['q=a&q=b', 'q']] as const) {
      const res = await staff.get(`${PATH}?${query}`);
      expect(res.status).toBe(400);
      expect(mainOf(res.text)).toContain(`${field}: `);
    }
  });
});
