import request from 'supertest';
import moment from 'moment-timezone';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createListing } from '../../testing/fixtures';
import { eventsQuery } from '../events/queries';
import { jpegImage } from '../media/test-images';
import { listPendingEvents, moderateEvent } from './moderation-queries';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

// Dates relative to today in Toronto, so the tests never submit an event that has ended.
const day = (offset: number) => moment.tz('Canada/Eastern').add(offset, 'days').format('YYYY-MM-DD');

const singleDay = (extra: Record<string, string> = {}) => ({
  title: 'Jazz in the Park',
  description: 'Free concert.',
  venue_name: 'Trinity Bellwoods Park',
  address: '790 Queen St W',
  website: 'jazz.example.com',
  schedule_type: 'single_day',
  'single_day-date': day(10),
  'single_day-start_time': '7:00 PM',
  'single_day-end_time': '21:30',
  ...extra,
});

describe('event submission /events/add/', () => {
  let t: TestContext;
  let member: Agent;
  let memberIdValue: number;

  beforeAll(async () => {
    t = await createTestContext();
    // Two places on the even side of Queen St W, for the address an event gives without a listing.
    await createListing(t.ctx.db, { name: 'The Rex Hotel', address: '194 Queen St W', latitude: 43.6504, longitude: -79.3884 });
    await createListing(t.ctx.db, { name: 'Queen Books', address: '198 Queen St W', latitude: 43.6506, longitude: -79.3886 });
    const m = await createMember(t.ctx);
    memberIdValue = m.id;
    member = await memberAgent(t, m);
  });
  afterAll(() => t.close());

  /** A real multipart post with the CSRF token as a form field, as a browser sends it. */
  const postForm = (agent: Agent, fields: Record<string, string | string[]>, asJson = false) => {
    let req = agent.post('/events/add/').field('csrfmiddlewaretoken', agent.csrfToken);
    if (asJson) req = req.set('Accept', 'application/json');
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) req = req.field(k, one);
    return req;
  };

  test('guests are sent to the login page and back', async () => {
    const page = await request(t.app).get('/events/add/');
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/accounts/login?next=%2Fevents%2Fadd%2F');
    const post = await postForm(guestAgent(t.app), singleDay());
    expect(post.status).toBe(302);
    expect(post.headers.location).toMatch(/^\/accounts\/login\?next=/);
    const json = await postForm(guestAgent(t.app), singleDay(), true);
    expect(json.status).toBe(401);
  });

  test('members see the form with the CSRF field and every schedule tab', async () => {
    const res = await member.get('/events/add/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="csrfmiddlewaretoken"');
    expect(res.text).toContain('enctype="multipart/form-data"');
    for (const name of ['single_day-date', 'day_range-start_date', 'weekly-weekdays', 'irregular-TOTAL_FORMS', 'irregular-0-start_date', 'uploaded_image_url']) expect(res.text).toContain(`name="${name}"`);
    expect(res.text).toContain('Only Toronto-based events will be approved for posting.');
  });

  test('a multipart post without the CSRF field is refused', async () => {
    const res = await member.post('/events/add/').field('title', 'x');
    expect(res.status).toBe(403);
  });

  test('a valid single-day event is saved as pending with its occurrence, then the success page', async () => {
    const res = await postForm(member, singleDay());
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/events/add/success/');
    const event = await t.ctx.db('events').orderBy('id', 'desc').first();
    expect(event).toMatchObject({ title: 'Jazz in the Park', status: 'pending', source: 'member', submitted_by: memberIdValue, website: 'http://jazz.example.com', schedule_type: 'single_day' });
    const occ = await t.ctx.db('event_occurrences').where({ event_id: event.id });
    expect(occ).toHaveLength(1);
    // 7 PM in Toronto, whatever the server's zone.
    expect(moment(occ[0].starts_at).tz('Canada/Eastern').format('YYYY-MM-DD HH:mm')).toBe(`${day(10)} 19:00`);
    expect(moment(occ[0].ends_at).tz('Canada/Eastern').format('HH:mm')).toBe('21:30');
    const success = await member.get('/events/add/success/');
    expect(success.status).toBe(200);
    expect(success.text).toContain('Your event has been submitted');
    // Pending events are not public.
    expect(await eventsQuery(t.ctx.db).where('e.id', event.id).first()).toBeUndefined();
  });

  test('the island gets JSON: 201 with the id, and 400 with errors per field', async () => {
    const ok = await postForm(member, singleDay({ title: 'Island event' }), true);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ status: 'pending', success_url: '/events/add/success/' });
    expect(typeof ok.body.id).toBe('number');
    const bad = await member
      .post('/events/add/')
      .set('X-Requested-With', 'XMLHttpRequest')
      .field('csrfmiddlewaretoken', member.csrfToken)
      .field('schedule_type', 'single_day');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['address', 'date', 'description', 'endTime', 'startTime', 'title', 'venueName']);
  });

  test('a NUL in an event field is a 400 naming it, as multipart or urlencoded, and nothing is saved', async () => {
    const before = await t.ctx.db('events').count({ n: '*' }).first();
    for (const field of ['title', 'description', 'venue_name', 'address', 'website']) {
      const json = await postForm(member, singleDay({ [field]: 'Jazz\u0000night' }), true);
      expect([field, json.status, json.body]).toEqual([field, 400, { [field]: ['Null characters are not allowed.'] }]);
    }
    const form = await member.post('/events/add/').type('form').set('X-CSRFToken', member.csrfToken).send(singleDay({ title: 'Jazz\u0000night' }));
    expect(form.status).toBe(400);
    expect(form.text).toContain('Null characters are not allowed.');
    expect(await t.ctx.db('events').count({ n: '*' }).first()).toEqual(before);
  });

  test('a urlencoded post (its body already read app-wide) is answered, not left waiting for an upload slot', async () => {
    // Node destroys a request once its body is consumed; the upload slot once took that for a
    // client that had gone, never answered, and kept the slot: four such posts stopped every upload.
    for (let i = 0; i < 5; i += 1) {
      const res = await member.post('/events/add/').type('form').set('X-CSRFToken', member.csrfToken).set('Accept', 'application/json').send(singleDay({ title: `Urlencoded jazz ${i}` }));
      expect(res.status).toBe(201);
    }
    expect(await t.ctx.db('events').where('title', 'like', 'Urlencoded jazz %').count({ n: '*' }).first()).toEqual({ n: 5 });
  });

  test('without JavaScript errors re-render the form with values kept and messages beside the fields', async () => {
    const res = await postForm(member, singleDay({ title: '', 'single_day-start_time': '25:99', website: 'not a url' }));
    expect(res.status).toBe(400);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('id="title-error"');
    expect(res.text).toContain('id="startTime-error"');
    expect(res.text).toContain('id="website-error"');
    expect(res.text).toContain('value="Trinity Bellwoods Park"');
    expect(res.text).toContain('value="25:99"');
    expect(res.text).toContain('Free concert.</textarea>');
  });

  test.each([
    ['title over 255', { title: 'x'.repeat(256) }, 'title'],
    ['address over 255', { address: 'x'.repeat(256) }, 'address'],
    ['venue over 255', { venue_name: 'x'.repeat(256) }, 'venueName'],
    ['no venue and no listing', { venue_name: '' }, 'venueName'],
    ['a listing id that is not a number', { listing: 'abc', venue_display_name: 'Somewhere' }, 'venueDisplayName'],
    ['a listing that does not exist', { listing: '999999', venue_display_name: 'Somewhere' }, 'venueDisplayName'],
    ['a bad website', { website: 'javascript:alert(1)' }, 'website'],
    ['a bad date', { 'single_day-date': '2026-02-30' }, 'date'],
    ['a date in another format', { 'single_day-date': '12/05/2026' }, 'date'],
    ['a date in the past', { 'single_day-date': day(-2) }, 'date'],
    ['an end before the start', { 'single_day-start_time': '9:00 PM', 'single_day-end_time': '8:00 PM' }, 'endTime'],
    ['an unknown schedule type', { schedule_type: 'monthly' }, 'schedule_type'],
    ['an image URL from elsewhere', { uploaded_image_url: 'https://evil.example/x.jpg' }, 'image'],
    ['an image position that is not a number', { uploaded_image_url: '/media/uploads/m1/x.jpg', hub_page_image_top: 'abc' }, 'image'],
  ])('%s is a 400 on that field', async (_label, extra, key) => {
    const res = await postForm(member, singleDay(extra as Record<string, string>), true);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toContain(key);
  });

  test('multiple venues or a virtual event need no venue or address, and drop them', async () => {
    const res = await postForm(member, singleDay({ title: 'Festival crawl', is_multiple_venues: 'on', venue_name: '', address: '', listing: '5' }), true);
    expect(res.status).toBe(201);
    const event = await t.ctx.db('events').where({ id: res.body.id }).first();
    expect(event).toMatchObject({ is_multiple_venues: true, venue_name: '', address: '', listing_id: null });
  });

  test('a chosen listing fills venue, address and location', async () => {
    const listingId = await createListing(t.ctx.db, { name: 'Massey Hall', address: '178 Victoria St', latitude: 43.654, longitude: -79.379 });
    const res = await postForm(member, singleDay({ listing: String(listingId), venue_display_name: 'Massey Hall', venue_name: '', address: '' }), true);
    expect(res.status).toBe(201);
    const event = await t.ctx.db('events').where({ id: res.body.id }).first();
    expect(event).toMatchObject({ listing_id: listingId, venue_name: 'Massey Hall', address: '178 Victoria St', latitude: 43.654 });
  });

  test('without a listing, a typed address our places know places the event; an unknown street leaves it off the map', async () => {
    // Built before the first look-up of this file's process reads the places (geocoder/loader.ts keeps them).
    const placed = await postForm(member, singleDay({ title: 'Poetry at the Rex', venue_name: 'The Rex', address: '196 Queen St. W., Toronto' }), true);
    expect(placed.status).toBe(201);
    const event = await t.ctx.db('events').where({ id: placed.body.id }).first();
    // Between the two places on its side of the street (194 and 198 Queen St W).
    expect(event).toMatchObject({ listing_id: null, venue_name: 'The Rex', address: '196 Queen St. W., Toronto' });
    expect(event.latitude).toBeCloseTo(43.6505, 4);
    expect(event.longitude).toBeCloseTo(-79.3885, 4);
    const unknown = await postForm(member, singleDay({ title: 'Somewhere else', venue_name: 'A barn', address: '12 Nowhere Lane' }), true);
    expect(await t.ctx.db('events').where({ id: unknown.body.id }).first('latitude', 'longitude')).toEqual({ latitude: null, longitude: null });
  });

  test('day_range expands to each day; its dates are checked together', async () => {
    const ok = await postForm(member, { ...singleDay(), schedule_type: 'day_range', 'day_range-start_date': day(3), 'day_range-end_date': day(5), 'day_range-all_day': 'on' }, true);
    expect(ok.status).toBe(201);
    const occ = await t.ctx.db('event_occurrences').where({ event_id: ok.body.id }).orderBy('starts_at');
    expect(occ).toHaveLength(3);
    expect(occ.every((o) => o.all_day)).toBe(true);
    const backwards = await postForm(member, { ...singleDay(), schedule_type: 'day_range', 'day_range-start_date': day(5), 'day_range-end_date': day(3), 'day_range-start_time': '10:00', 'day_range-end_time': '11:00' }, true);
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ startDate: [expect.any(String)], endDate: [expect.any(String)] });
    const tooLong = await postForm(member, { ...singleDay(), schedule_type: 'day_range', 'day_range-start_date': day(1), 'day_range-end_date': day(900), 'day_range-start_time': '10:00', 'day_range-end_time': '11:00' }, true);
    expect(tooLong.body).toMatchObject({ endDate: ['An event can run for at most two years.'] });
  });

  test('weekly runs on the chosen weekdays (0 Sunday … 6 Saturday) in local time', async () => {
    const fields = { ...singleDay(), schedule_type: 'weekly', 'weekly-start_date': day(1), 'weekly-end_date': day(28), 'weekly-weekdays': ['1', '3'], 'weekly-start_time': '6:30 PM', 'weekly-end_time': '8:00 PM' };
    const res = await postForm(member, fields, true);
    expect(res.status).toBe(201);
    const occ = await t.ctx.db('event_occurrences').where({ event_id: res.body.id });
    expect(occ.length).toBeGreaterThanOrEqual(7);
    for (const o of occ) {
      const local = moment(o.starts_at).tz('Canada/Eastern');
      expect([1, 3]).toContain(local.day());
      expect(local.format('HH:mm')).toBe('18:30');
    }
    const event = await t.ctx.db('events').where({ id: res.body.id }).first();
    expect(event.weekdays).toEqual([1, 3]);
    for (const weekdays of [[], ['7'], ['mon']]) {
      const bad = await postForm(member, { ...fields, 'weekly-weekdays': weekdays }, true);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body)).toEqual(['weekDays']);
    }
  });

  test('irregular dates come as a formset; blank rows are skipped and bad rows named', async () => {
    const fields = {
      ...singleDay(),
      schedule_type: 'irregular',
      'irregular-TOTAL_FORMS': '3',
      'irregular-INITIAL_FORMS': '0',
      'irregular-MIN_NUM_FORMS': '0',
      'irregular-MAX_NUM_FORMS': '1000',
      'irregular-0-start_date': day(4),
      'irregular-0-start_time': '8:00 PM',
      'irregular-0-end_time': '10:00 PM',
      'irregular-1-start_date': day(2),
      'irregular-1-start_time': '11:00',
      'irregular-1-end_time': '13:00',
    };
    const res = await postForm(member, fields, true);
    expect(res.status).toBe(201);
    const occ = await t.ctx.db('event_occurrences').where({ event_id: res.body.id }).orderBy('starts_at');
    expect(occ.map((o) => moment(o.starts_at).tz('Canada/Eastern').format('YYYY-MM-DD HH:mm'))).toEqual([`${day(2)} 11:00`, `${day(4)} 20:00`]);
    const bad = await postForm(member, { ...fields, 'irregular-1-start_date': 'soon', 'irregular-0-end_time': '7:00 PM' }, true);
    expect(bad.status).toBe(400);
    expect(bad.body.date[0]).toMatch(/^Date 2: /);
    expect(bad.body.endTime[0]).toMatch(/^Date 1: /);
    const none = await postForm(member, { ...singleDay(), schedule_type: 'irregular', 'irregular-TOTAL_FORMS': '2' }, true);
    expect(none.body).toEqual({ date: ['Add at least one date.'] });
    const silly = await postForm(member, { ...singleDay(), schedule_type: 'irregular', 'irregular-TOTAL_FORMS': '99999999' }, true);
    expect(silly.status).toBe(400);
  });

  test('the image uploaded through /streams/image-upload/ is kept with its position', async () => {
    const upload = await member
      .post('/streams/image-upload/')
      .set('X-CSRFToken', member.csrfToken)
      .attach('file', await jpegImage(1200, 800), { filename: 'poster.jpg', contentType: 'image/jpeg' });
    expect(upload.status).toBe(200);
    const res = await postForm(
      member,
      singleDay({ uploaded_image_url: upload.body.uploaded_image_url, thumbnail_image_url: upload.body.thumbnail_url, hub_page_image_top: '-12', hub_page_image_left: '0', box_width: '300', box_height: '200' }),
      true,
    );
    expect(res.status).toBe(201);
    const event = await t.ctx.db('events').where({ id: res.body.id }).first();
    expect(event.image_key).toMatch(new RegExp(`^uploads/m${memberIdValue}/`));
    expect(event.image_crop).toMatchObject({ hub_page_image_top: -12, box_width: 300 });
    // Another member cannot take the image over.
    const other = await memberAgent(t, await createMember(t.ctx));
    const stolen = await postForm(other, singleDay({ uploaded_image_url: upload.body.uploaded_image_url }), true);
    expect(stolen.status).toBe(400);
    expect(Object.keys(stolen.body)).toEqual(['image']);
  });

  test('without JavaScript an image file can be attached to the form itself', async () => {
    let req = member.post('/events/add/').set('Accept', 'application/json').field('csrfmiddlewaretoken', member.csrfToken);
    for (const [k, v] of Object.entries(singleDay({ title: 'With attached image' }))) req = req.field(k, v);
    const res = await req.attach('thumbnail', await jpegImage(800, 600), { filename: 'poster.png', contentType: 'image/jpeg' });
    expect(res.status).toBe(201);
    const event = await t.ctx.db('events').where({ id: res.body.id }).first();
    expect(await t.ctx.storage.exists(event.image_key)).toBe(true);
    let bad = member.post('/events/add/').set('Accept', 'application/json').field('csrfmiddlewaretoken', member.csrfToken);
    for (const [k, v] of Object.entries(singleDay())) bad = bad.field(k, v);
    const refused = await bad.attach('thumbnail', Buffer.from('x'), { filename: 'notes.docx', contentType: 'application/msword' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ image: ['* Unsupported file type ".docx"'] });
  });

  test('moderation: pending events are listed, approved ones appear with their occurrences, rejected ones do not', async () => {
    const a = await postForm(member, singleDay({ title: 'To approve' }), true);
    const r = await postForm(member, singleDay({ title: 'To reject' }), true);
    const pending = await listPendingEvents(t.ctx.db);
    expect(pending.map((e) => e.title)).toEqual(expect.arrayContaining(['To approve', 'To reject']));
    expect(pending.find((e) => e.id === a.body.id)).toMatchObject({ occurrence_count: 1, start_date: day(10), submitter_email: expect.stringContaining('@') });
    await moderateEvent(t.ctx.db, a.body.id, 'approved');
    await moderateEvent(t.ctx.db, r.body.id, 'rejected', 'Not in Toronto');
    const approved = await eventsQuery(t.ctx.db).where('e.id', a.body.id).first();
    expect(moment(approved.start_date_time).tz('Canada/Eastern').format('YYYY-MM-DD HH:mm')).toBe(`${day(10)} 19:00`);
    expect(await eventsQuery(t.ctx.db).where('e.id', r.body.id).first()).toBeUndefined();
    expect((await t.ctx.db('events').where({ id: r.body.id }).first()).moderation_note).toBe('Not in Toronto');
    await expect(moderateEvent(t.ctx.db, 999_999, 'approved')).rejects.toThrow('No event with id 999999.');
  });

  test('with events switched off the form is not there', async () => {
    const off = t.rebuild({ FEATURE_EVENTS: 'false' });
    const agent = await memberAgent({ app: off, ctx: t.ctx }, { id: memberIdValue });
    expect((await agent.get('/events/add/')).status).toBe(404);
  });
});
