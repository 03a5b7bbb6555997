import request from 'supertest';
import moment from 'moment-timezone';
import { jest } from '@jest/globals';
import { createMember, guestAgent, memberAgent, type Agent } from '../../testing/test-app';
import { postMultipart, staffSuite } from '../../testing/staff-suite';
import { recentStaffActions } from '../staff-audit/audit-log-queries';

// Staff publish an event at /staff/events/new/ with the member form's fields, schedules and
// checks: published at once (approved, editorial, no queue), audited in the same transaction,
// purged; a refused form comes back 400 with the field named and what was typed, nothing saved.

jest.setTimeout(60_000);

const day = (offset: number) => moment.tz('Canada/Eastern').add(offset, 'days').format('YYYY-MM-DD');
const weekly = (extra: Record<string, string | string[]> = {}) => ({
  title: 'Tuesday jazz at the Rex',
  description: 'A weekly quartet.',
  venue_name: 'The Rex Hotel',
  address: '194 Queen St W',
  website: 'https://therex.example',
  schedule_type: 'weekly',
  'weekly-start_date': day(1),
  'weekly-end_date': day(27),
  'weekly-weekdays': ['2'],
  'weekly-start_time': '9:30 PM',
  'weekly-end_time': '23:45',
  ...extra,
});

describe('staff publish an event: /staff/events/new/', () => {
  const desk = staffSuite();

  const postForm = (agent: Agent, fields: Record<string, string | string[]>) => postMultipart(agent, '/staff/events/new/', fields);

  test('the member form, for staff, without the island; the queue links to it', async () => {
    const form = await desk.editor.get('/staff/events/new/').expect(200);
    expect(form.text).toContain('<h1>Publish an event</h1>');
    expect(form.text).toContain('action="/staff/events/new/"');
    for (const name of ['single_day-date', 'day_range-start_date', 'weekly-weekdays', 'irregular-TOTAL_FORMS', 'thumbnail']) expect(form.text).toContain(`name="${name}"`);
    expect(form.text).not.toContain('"event-form":');
    expect((await desk.editor.get('/staff/events/').expect(200)).text).toContain('href="/staff/events/new/"');
  });

  test('a weekly event: published at once with its occurrences, audited, purged, on the events pages', async () => {
    const announce = jest.spyOn(desk.t.ctx.changes, 'announce');
    const res = await postForm(desk.editor, weekly());
    expect(res.status).toBe(303);
    const event = await desk.t.ctx.db('events').where({ title: 'Tuesday jazz at the Rex' }).first();
    expect(res.headers.location).toBe(`/events/${event.slug}-${event.id}/`);
    expect(event).toMatchObject({ status: 'approved', source: 'editorial', submitted_by: null, schedule_type: 'weekly', weekdays: [2], venue_name: 'The Rex Hotel' });
    const occ = await desk.t.ctx.db('event_occurrences').where({ event_id: event.id });
    expect(occ.length).toBeGreaterThanOrEqual(3);
    for (const o of occ) expect(moment(o.starts_at).tz('Canada/Eastern').format('ddd HH:mm')).toBe('Tue 21:30');
    const audit = await recentStaffActions(desk.t.ctx.db, { subjectType: 'event', subjectId: Number(event.id) });
    expect(audit.map((a) => [a.action, a.detail])).toEqual([['event.create', { title: 'Tuesday jazz at the Rex', schedule_type: 'weekly', occurrences: occ.length, listing_id: null }]]);
    expect(announce).toHaveBeenLastCalledWith({ subject: `event:${event.id}`, paths: [res.headers.location, '/events/', '/'], keys: [`event-${event.id}`, 'events', 'home'] });
    announce.mockRestore();

    const page = await request(desk.t.app).get(res.headers.location).expect(200);
    expect(page.text).toContain('Tuesday jazz at the Rex');
    // Not in the moderation queue: staff made it.
    expect((await desk.editor.get('/staff/events/').expect(200)).text).not.toContain('Tuesday jazz at the Rex');
  });

  test('staff edit an event with the same form: its fields filled in, rewritten with its occurrences, audited, purged', async () => {
    await postForm(desk.editor, weekly({ title: 'Wednesday poetry night' })).expect(303);
    const event = await desk.t.ctx.db('events').where({ title: 'Wednesday poetry night' }).first();
    const form = await desk.editor.get(`/staff/events/${event.id}/edit/`).expect(200);
    expect(form.text).toContain('<h1>Edit Wednesday poetry night</h1>');
    expect(form.text).toContain('action="/staff/events/edit/"');
    expect(form.text).toContain(`name="event_id" value="${event.id}"`);
    expect(form.text).toContain(`name="weekly-start_date" type="date" value="${day(1)}"`);
    expect(form.text).toContain('value="9:30 PM"');

    const announce = jest.spyOn(desk.t.ctx.changes, 'announce');
    const edit = desk.editor.post('/staff/events/edit/').field('csrfmiddlewaretoken', desk.editor.csrfToken).field('event_id', String(event.id));
    const fields: Record<string, string | string[]> = { ...weekly({ title: 'Thursday poetry night', 'weekly-weekdays': ['4'] }) };
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) edit.field(k, one);
    const res = await edit;
    expect(res.status).toBe(303);
    const after = await desk.t.ctx.db('events').where({ id: event.id }).first();
    expect(after).toMatchObject({ title: 'Thursday poetry night', slug: 'thursday-poetry-night', weekdays: [4], status: 'approved', source: 'editorial' });
    expect(res.headers.location).toBe(`/events/thursday-poetry-night-${event.id}/`);
    const occ = await desk.t.ctx.db('event_occurrences').where({ event_id: event.id });
    for (const o of occ) expect(moment(o.starts_at).tz('Canada/Eastern').format('ddd')).toBe('Thu');
    expect(announce).toHaveBeenLastCalledWith({ subject: `event:${event.id}`, paths: [res.headers.location, `/events/wednesday-poetry-night-${event.id}/`, '/events/', '/'], keys: [`event-${event.id}`, 'events', 'home'] });
    announce.mockRestore();
    const [entry] = await recentStaffActions(desk.t.ctx.db, { subjectType: 'event', subjectId: Number(event.id) });
    expect(entry).toMatchObject({ action: 'event.update', detail: { title: 'Thursday poetry night', old_slug: 'wednesday-poetry-night' } });

    // A refused change: 400 on the field, nothing changed.
    const bad = desk.editor.post('/staff/events/edit/').field('csrfmiddlewaretoken', desk.editor.csrfToken).field('event_id', String(event.id));
    for (const [k, v] of Object.entries(weekly({ title: '' }))) for (const one of Array.isArray(v) ? v : [v]) bad.field(k, one);
    const refused = await bad;
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="title-error"');
    expect((await desk.t.ctx.db('events').where({ id: event.id }).first()).title).toBe('Thursday poetry night');
    expect((await desk.editor.get('/staff/events/999999/edit/')).status).toBe(404);
  });

  test('an irregular event comes back to its form with each date and its times', async () => {
    const fields = {
      ...weekly({ title: 'Two nights of film' }),
      schedule_type: 'irregular',
      'irregular-TOTAL_FORMS': '2',
      'irregular-0-start_date': day(5), 'irregular-0-start_time': '7:00 PM', 'irregular-0-end_time': '9:00 PM',
      'irregular-1-start_date': day(9), 'irregular-1-start_time': '8:15 PM', 'irregular-1-end_time': '10:00 PM',
    };
    await postForm(desk.editor, fields).expect(303);
    const event = await desk.t.ctx.db('events').where({ title: 'Two nights of film' }).first();
    const form = await desk.editor.get(`/staff/events/${event.id}/edit/`).expect(200);
    expect(form.text).toContain('name="schedule_type" value="irregular" checked');
    expect(form.text).toContain(`name="irregular-0-start_date" type="date" value="${day(5)}"`);
    expect(form.text).toContain('name="irregular-0-start_time" value="7:00 PM"');
    expect(form.text).toContain(`name="irregular-1-start_date" type="date" value="${day(9)}"`);
    expect(form.text).toContain('name="irregular-1-end_time" value="10:00 PM"');
  });

  test('bad input: 400 naming each field, what was typed kept, nothing saved', async () => {
    const res = await postForm(desk.editor, weekly({ title: '', 'weekly-weekdays': [], website: 'not a url', description: 'Kept description' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('id="title-error"');
    expect(res.text).toContain('id="weekDays-error"');
    expect(res.text).toContain('Kept description');
    expect(res.text).toContain('action="/staff/events/new/"');
    const past = await postForm(desk.editor, { ...weekly({ title: 'In the past' }), schedule_type: 'single_day', 'single_day-date': day(-3), 'single_day-start_time': '7:00 PM', 'single_day-end_time': '8:00 PM' });
    expect(past.status).toBe(400);
    expect(past.text).toContain('id="date-error"');
    expect(await desk.t.ctx.db('events').whereIn('title', ['', 'In the past']).first()).toBeUndefined();
  });

  test('staff only, with the CSRF token', async () => {
    expect((await request(desk.t.app).get('/staff/events/new/')).status).toBe(302);
    expect((await postForm(guestAgent(desk.t.app), weekly({ title: 'Guest event' }))).status).toBe(302);
    const member = await memberAgent(desk.t, await createMember(desk.t.ctx));
    expect((await member.get('/staff/events/new/')).status).toBe(403);
    expect((await postForm(member, weekly({ title: 'Member event' }))).status).toBe(403);
    const noToken = desk.editor.post('/staff/events/new/').field('title', 'Tokenless event').field('schedule_type', 'single_day');
    expect((await noToken).status).toBe(403);
    expect(await desk.t.ctx.db('events').whereIn('title', ['Guest event', 'Member event', 'Tokenless event'])).toEqual([]);
  });
});
