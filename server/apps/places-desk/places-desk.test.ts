import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createListing, createListingSubType, createListingType, createNeighbourhood, createSubwayStop } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { readPlaceHours } from '../../../shared/place-hours';
import { hoursToForm } from '../../../shared/place-hours-form';
import { changePlace } from './service';

// The staff places desk in the real app (issue 39): adding a place (the geocoder places the
// address; neighbourhood and station follow the point), editing it with a revision line, a
// no-op edit that writes nothing, every refused field a 400 naming it with nothing saved,
// revert and a refused revert, an old slug or type answering a 301, staff only, the audit log,
// and the list's filters.

describe('the places desk', () => {
  let t: TestContext;
  let staff: Agent;
  let staffId: number;
  let typeId: number;
  let barsId: number;
  let subTypeId: number;
  let barSubTypeId: number;
  let hoodId: number;
  let stationId: number;
  let patio: number;
  let wifi: number;
  let delivery: number;
  let site: http.Server;
  let siteUrl: string;

  beforeAll(async () => {
    // The websites the form checks are this test's own server on 127.0.0.1 (loopback allowed
    // for the test, as the calendar feeds' tests do): /ok answers, /gone is a 404.
    site = http.createServer((req, res) => {
      res.statusCode = req.url === '/ok' ? 200 : 404;
      res.end('hello');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestContext({}, { calendarFeeds: { intervalMinutes: 60, fetchTimeoutMs: 400, maxBytes: 64 * 1024, maxEvents: 5, maxRedirects: 3, allowLoopback: true } });
    const db = t.ctx.db;
    const member = await createMember(t.ctx, { is_staff: true, email: 'desk@example.com' });
    staffId = member.id;
    staff = await memberAgent(t, member);
    typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    barsId = await createListingType(db, { name: 'Bars', slug: 'bars' });
    subTypeId = await createListingSubType(db, typeId, { name: 'Pizza', slug: 'pizza' });
    barSubTypeId = await createListingSubType(db, barsId, { name: 'Wine bars', slug: 'wine-bars' });
    // The fixture's square: latitude 43.64–43.66, longitude -79.40 – -79.38.
    hoodId = await createNeighbourhood(db, { name: 'Desk Test Village' });
    stationId = await createSubwayStop(db, { name: 'Osgoode Desk', latitude: 43.6507, longitude: -79.3868 });
    // The gazetteer learns streets from places' addresses: 121 Bay St is at a known point.
    await createListing(db, { name: 'Bay Neighbour', address: '121 Bay St', latitude: 43.6521, longitude: -79.382, type_id: typeId });
    await createListing(db, { name: 'Bay Other', address: '141 Bay St', latitude: 43.6541, longitude: -79.382, type_id: typeId });
    [patio, wifi, delivery] = await Promise.all([
      db('features').insert({ name: 'Patio', slug: 'patio' }).returning('id').then(([r]) => Number(r.id)),
      db('features').insert({ name: 'Wi-Fi', slug: 'wifi' }).returning('id').then(([r]) => Number(r.id)),
      db('services').insert({ name: 'Delivery', slug: 'delivery' }).returning('id').then(([r]) => Number(r.id)),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => site.close(resolve));
  });

  const post = (path: string, fields: Record<string, string>) => staff.post(path).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, ...fields });

  const week = { hours_mon: '9-17', hours_tue: '9:00-17:00', hours_wed: '9-17', hours_thu: '9-17', hours_fri: '11:30-14:30, 17:00-02:00', hours_sat: 'closed', hours_sun: '' };
  const baseForm = (extra: Record<string, string> = {}) => ({
    name: 'Desk Pizza',
    type_id: String(typeId),
    sub_type_id: String(subTypeId),
    address: '121 Bay St',
    latitude: '',
    longitude: '',
    phone: '(416) 555 0100',
    website: '',
    price_range: '2',
    [`feature_${patio}`]: 'on',
    [`service_${delivery}`]: 'on',
    hours_holidays: 'closed',
    ...week,
    ...extra,
  });

  async function addPlace(extra: Record<string, string> = {}): Promise<number> {
    const res = await post('/staff/places/new/', baseForm(extra)).expect(303);
    const m = /^\/staff\/places\/(\d+)\/\?done=added$/.exec(res.headers.location);
    expect(m).not.toBeNull();
    return Number(m![1]);
  }

  /** The form's values of a place as the edit page would post them back. */
  async function formOf(id: number): Promise<Record<string, string>> {
    const p = await t.ctx.db('listings').where({ id }).first();
    const features: number[] = await t.ctx.db('listing_features').where({ listing_id: id }).pluck('feature_id');
    const services: number[] = await t.ctx.db('listing_services').where({ listing_id: id }).pluck('service_id');
    return {
      name: p.name, type_id: String(p.type_id), sub_type_id: p.sub_type_id ? String(p.sub_type_id) : '', address: p.address,
      latitude: String(p.latitude), longitude: String(p.longitude), phone: p.phone, website: p.website, price_range: p.price_range ? String(p.price_range) : '',
      ...Object.fromEntries(features.map((f) => [`feature_${f}`, 'on'])), ...Object.fromEntries(services.map((s) => [`service_${s}`, 'on'])),
      ...hoursToForm(readPlaceHours(p.hours)),
    };
  }

  const revisionsOf = (id: number) => t.ctx.db('place_revisions').where({ listing_id: id }).orderBy('id').select('id', 'kind', 'summary', 'changes', 'reverts_id');

  test('staff only: a guest is sent to sign in, a member who is not staff is refused', async () => {
    const guest = guestAgent(t.app);
    for (const path of ['/staff/places/', '/staff/places/new/']) {
      const res = await guest.get(path).expect(302);
      expect(res.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(path)}`);
    }
    const member = await memberAgent(t, await createMember(t.ctx));
    await member.get('/staff/places/').expect(403);
    await member.post('/staff/places/new/').type('form').send({ csrfmiddlewaretoken: member.csrfToken, ...baseForm() }).expect(403);
    expect(await t.ctx.db('listings').where({ name: 'Desk Pizza' }).first()).toBeUndefined();
  });

  test('the staff menu has a Places section', async () => {
    const res = await staff.get('/staff/').expect(200);
    expect(res.text).toContain('href="/staff/places/"');
  });

  test('adding a place: the address geocoded, neighbourhood and station derived, phone normalised, a create revision and an audit entry', async () => {
    const form = await staff.get('/staff/places/new/').expect(200);
    expect(form.text).toContain('data-island="place-pin"');
    expect(form.text).toContain('name="hours_tue"');

    const id = await addPlace();
    const row = await t.ctx.db('listings').where({ id }).first();
    expect(row).toMatchObject({
      name: 'Desk Pizza', slug: 'desk-pizza', type_id: typeId, sub_type_id: subTypeId, address: '121 Bay St', latitude: 43.6521, longitude: -79.382,
      phone: '416-555-0100', price_range: 2, neighbourhood_id: hoodId, nearest_subway_stop_id: stationId,
    });
    expect(readPlaceHours(row.hours)).toEqual({
      weekly: {
        mon: [{ opens: '09:00', closes: '17:00' }], tue: [{ opens: '09:00', closes: '17:00' }], wed: [{ opens: '09:00', closes: '17:00' }], thu: [{ opens: '09:00', closes: '17:00' }],
        fri: [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '02:00' }],
      },
      holidays: 'closed',
    });
    // The Open now filter's columns are written with the hours.
    expect(row.hours_week).not.toBeNull();
    expect(await t.ctx.db('listing_features').where({ listing_id: id }).pluck('feature_id')).toEqual([patio]);
    expect(await t.ctx.db('listing_services').where({ listing_id: id }).pluck('service_id')).toEqual([delivery]);
    const [rev] = await revisionsOf(id);
    expect(rev).toMatchObject({ kind: 'create', summary: 'added Desk Pizza' });
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id });
    expect(audit).toEqual([expect.objectContaining({ action: 'place.create', staff_id: staffId })]);

    const page = await staff.get(`/staff/places/${id}/`).expect(200);
    const html = mainOf(page.text);
    expect(html).toContain('Desk Test Village');
    expect(html).toContain('Osgoode Desk');
    expect(html).toContain('href="tel:+14165550100"');
    expect(html).toContain('value="11:30-14:30, 17:00-02:00"');
    expect(html).toContain('href="/restaurants/desk-pizza-' + id + '/"');
  });

  test('editing the hours and the phone writes one revision with a line a person reads', async () => {
    const id = await addPlace({ name: 'Desk Edit One' });
    const form = await formOf(id);
    const res = await post(`/staff/places/${id}/`, { ...form, hours_tue: '10-18', phone: '416-555-0199' }).expect(303);
    expect(res.headers.location).toBe(`/staff/places/${id}/?done=saved`);
    const revs = await revisionsOf(id);
    expect(revs).toHaveLength(2);
    expect(revs[1].kind).toBe('edit');
    expect(revs[1].summary).toBe('phone 416-555-0100 → 416-555-0199; hours Tue 9am–5pm → 10am–6pm');
    expect(Object.keys(revs[1].changes).sort()).toEqual(['hours', 'phone']);
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id });
    expect(audit[0]).toMatchObject({ action: 'place.edit', note: revs[1].summary });
    const page = await staff.get(`/staff/places/${id}/?done=saved`).expect(200);
    expect(page.text).toContain('hours Tue 9am–5pm → 10am–6pm');
  });

  test('features, services and price range in the revision line', async () => {
    const id = await addPlace({ name: 'Desk Features' });
    const form = await formOf(id);
    delete form[`feature_${patio}`];
    delete form[`service_${delivery}`];
    await post(`/staff/places/${id}/`, { ...form, [`feature_${wifi}`]: 'on', price_range: '4' }).expect(303);
    expect((await revisionsOf(id)).at(-1)!.summary).toBe('price range $$ → $$$$; features +Wi-Fi −Patio; services −Delivery');
    expect(await t.ctx.db('listing_features').where({ listing_id: id }).pluck('feature_id')).toEqual([wifi]);
    expect(await t.ctx.db('listing_services').where({ listing_id: id }).pluck('service_id')).toEqual([]);
  });

  test('saving the form unchanged writes no revision and no audit entry', async () => {
    const id = await addPlace({ name: 'Desk Same' });
    const before = await t.ctx.db('listings').where({ id }).first('date_modified');
    const res = await post(`/staff/places/${id}/`, await formOf(id)).expect(303);
    expect(res.headers.location).toBe(`/staff/places/${id}/?done=unchanged`);
    expect(await revisionsOf(id)).toHaveLength(1);
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id })).toHaveLength(1);
    expect((await t.ctx.db('listings').where({ id }).first('date_modified')).date_modified).toEqual(before.date_modified);
  });

  test.each([
    ['name', { name: '  ' }],
    ['type_id', { type_id: '' }],
    ['type_id', { type_id: '999999' }],
    ['sub_type_id', { sub_type_id: String(0) }],
    ['address', { address: '' }],
    ['address', { address: '77 Nowhere Cres' }],
    ['latitude', { latitude: 'north' }],
    ['phone', { phone: '555-0100' }],
    ['website', { website: 'ftp://example.com/' }],
    ['website', { website: 'http://user:pw@example.com/' }],
    ['price_range', { price_range: '5' }],
    ['hours_tue', { hours_tue: 'noonish' }],
    ['hours_wed', { hours_wed: '9-13, 12-18' }],
    ['hours_holiday_ranges', { hours_holidays: 'hours', hours_holiday_ranges: '' }],
    ['hours_closure_until', { hours_closure_from: '2026-12-10', hours_closure_until: '2026-12-01' }],
  ])('adding: a bad %s is a 400 naming it, what was typed kept, nothing saved', async (field, bad: Record<string, string>) => {
    const before = await t.ctx.db('listings').count({ n: '*' }).first();
    const res = await post('/staff/places/new/', baseForm({ name: `Refused ${field}`, ...bad })).expect(400);
    const html = mainOf(res.text);
    expect(html).toContain(`data-field-error="${field}"`);
    expect(html).toContain(`data-field="${field}"`);
    if (bad.name === undefined) expect(html).toContain(`value="Refused ${field}"`);
    expect(await t.ctx.db('listings').count({ n: '*' }).first()).toEqual(before);
  });

  test('adding: a sub-type of another type, and a website that does not answer, are refused', async () => {
    let res = await post('/staff/places/new/', baseForm({ name: 'Wrong Sub', sub_type_id: String(barSubTypeId) })).expect(400);
    expect(res.text).toContain('data-field-error="sub_type_id"');
    res = await post('/staff/places/new/', baseForm({ name: 'Dead Site', website: `${siteUrl}/gone` })).expect(400);
    expect(mainOf(res.text)).toMatch(/data-field-error="website">The website answered 404/);
    expect(await t.ctx.db('listings').whereIn('name', ['Wrong Sub', 'Dead Site']).count({ n: '*' }).first()).toEqual({ n: 0 });
    const id = await addPlace({ name: 'Live Site', website: `${siteUrl}/ok` });
    expect((await t.ctx.db('listings').where({ id }).first('website')).website).toBe(`${siteUrl}/ok`);
  });

  test('editing: a refused field leaves the place and its revisions as they were', async () => {
    const id = await addPlace({ name: 'Desk Refused Edit' });
    const form = await formOf(id);
    const res = await post(`/staff/places/${id}/`, { ...form, name: 'Renamed', phone: 'call us' }).expect(400);
    expect(res.text).toContain('data-field-error="phone"');
    expect(res.text).toContain('value="Renamed"');
    expect((await t.ctx.db('listings').where({ id }).first('name')).name).toBe('Desk Refused Edit');
    expect(await revisionsOf(id)).toHaveLength(1);
  });

  test('two editors on one place: a field only the other changed is kept; the same field changed by both is refused by name, the typed value kept, and saving again uses it', async () => {
    const id = await addPlace({ name: 'Desk Two Editors' });
    // Both open the form: it carries the revision it was made from.
    const opened = await staff.get(`/staff/places/${id}/`).expect(200);
    const base = /name="base_revision" value="(\d+)"/.exec(opened.text)?.[1];
    expect(base).toBe(String((await revisionsOf(id))[0].id));
    const form = { ...(await formOf(id)), base_revision: base! };

    // The first saves a new phone.
    await post(`/staff/places/${id}/`, { ...form, phone: '416-555-0111' }).expect(303);
    // The second, on the form made before that, renames the place (its phone field still shows
    // the old number): the rename goes in and the first editor's phone stays.
    await post(`/staff/places/${id}/`, { ...form, name: 'Desk Two Editors Renamed' }).expect(303);
    let row = await t.ctx.db('listings').where({ id }).first('name', 'phone');
    expect(row).toEqual({ name: 'Desk Two Editors Renamed', phone: '416-555-0111' });
    const revs = await revisionsOf(id);
    expect(revs.slice(1).map((r) => Object.keys(r.changes))).toEqual([['phone'], ['name']]);

    // A third, on that same old form, types another phone: refused by name, nothing saved, its
    // number still on the page, which now carries the latest revision.
    const refused = await post(`/staff/places/${id}/`, { ...form, phone: '416-555-0122', name: 'Desk Third Name' }).expect(409);
    expect(refused.text).toContain('data-field-error="phone"');
    expect(refused.text).toContain('Someone else changed the phone since you opened this page: it is now 416-555-0111.');
    expect(refused.text).toContain('value="416-555-0122"');
    expect(refused.text).toContain('value="Desk Third Name"');
    row = await t.ctx.db('listings').where({ id }).first('name', 'phone');
    expect(row).toEqual({ name: 'Desk Two Editors Renamed', phone: '416-555-0111' });
    expect(await revisionsOf(id)).toHaveLength(3);
    const latest = /name="base_revision" value="(\d+)"/.exec(refused.text)?.[1];
    expect(latest).toBe(String(revs[2].id));

    // Saving again from that page: the editor has seen the other phone and keeps theirs.
    await post(`/staff/places/${id}/`, { ...form, phone: '416-555-0122', name: 'Desk Third Name', base_revision: latest! }).expect(303);
    row = await t.ctx.db('listings').where({ id }).first('name', 'phone');
    expect(row).toEqual({ name: 'Desk Third Name', phone: '416-555-0122' });

    // A damaged base_revision is a 400 naming it, nothing saved.
    const damaged = await post(`/staff/places/${id}/`, { ...form, name: 'Never', base_revision: 'x1' }).expect(400);
    expect(damaged.text).toContain('data-field-error="base_revision"');
    expect((await t.ctx.db('listings').where({ id }).first('name')).name).toBe('Desk Third Name');
  });

  test('revert writes the earlier values back as a new revision; a field changed since is refused', async () => {
    const id = await addPlace({ name: 'Desk Revert' });
    const form = await formOf(id);
    await post(`/staff/places/${id}/`, { ...form, phone: '416-555-0111', hours_mon: 'closed' }).expect(303);
    const [, edit] = await revisionsOf(id);

    // A later change to the phone: reverting the first edit would undo it too, so it is refused.
    await post(`/staff/places/${id}/`, { ...(await formOf(id)), phone: '416-555-0122' }).expect(303);
    const refused = await post(`/staff/places/${id}/revisions/${edit.id}/revert/`, {}).expect(400);
    expect(mainOf(refused.text)).toContain('The phone has changed since that revision');
    expect(await revisionsOf(id)).toHaveLength(3);

    // Put the phone back as it was after the edit: the revert goes through.
    await post(`/staff/places/${id}/`, { ...(await formOf(id)), phone: '416-555-0111' }).expect(303);
    const ok = await post(`/staff/places/${id}/revisions/${edit.id}/revert/`, {}).expect(303);
    expect(ok.headers.location).toMatch(new RegExp(`^/staff/places/${id}/revisions/\\?reverted=\\d+$`));
    const row = await t.ctx.db('listings').where({ id }).first();
    expect(row.phone).toBe('416-555-0100');
    expect(readPlaceHours(row.hours)!.weekly.mon).toEqual([{ opens: '09:00', closes: '17:00' }]);
    const revs = await revisionsOf(id);
    expect(revs.at(-1)).toMatchObject({ kind: 'revert', reverts_id: edit.id });
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id });
    expect(audit[0]).toMatchObject({ action: 'place.revert' });

    const page = await staff.get(`/staff/places/${id}/revisions/`).expect(200);
    expect(page.text).toContain(`/staff/places/${id}/revisions/${edit.id}/revert/`);
    expect(page.text).toContain('hours Mon 9am–5pm → closed');
  });

  test('changePlace refuses a field that moved since the suggestion, and says which', async () => {
    const id = await addPlace({ name: 'Desk Suggested' });
    const who = { actor: { id: staffId, email: 'desk@example.com' }, now: new Date() };
    await expect(changePlace(t.ctx.db, who, id, { phone: '416-555-0177' }, { kind: 'suggestion', expected: { phone: '416-555-0999' } })).rejects.toMatchObject({ status: 400, fields: { phone: [expect.stringContaining('since the suggestion')] } });
    const done = await changePlace(t.ctx.db, who, id, { phone: '416-555-0177' }, { kind: 'suggestion', expected: { phone: '416-555-0100' } });
    expect(done).toMatchObject({ changed: ['phone'], revisionId: expect.any(Number) });
    expect((await revisionsOf(id)).at(-1)).toMatchObject({ kind: 'suggestion' });
  });

  test('a new name or type moves the public page; the old address answers a 301 to the new one', async () => {
    const id = await addPlace({ name: 'Old Name' });
    await request(t.app).get(`/restaurants/old-name-${id}/`).expect(200);
    await post(`/staff/places/${id}/`, { ...(await formOf(id)), name: 'New Name' }).expect(303);
    let res = await request(t.app).get(`/restaurants/old-name-${id}/`).expect(301);
    expect(res.headers.location).toBe(`/restaurants/new-name-${id}/`);
    await request(t.app).get(`/restaurants/new-name-${id}/`).expect(200);

    await post(`/staff/places/${id}/`, { ...(await formOf(id)), type_id: String(barsId), sub_type_id: '' }).expect(303);
    res = await request(t.app).get(`/restaurants/new-name-${id}/`).expect(301);
    expect(res.headers.location).toBe(`/bars/new-name-${id}/`);
    const revs = await revisionsOf(id);
    expect(revs.at(-1)!.summary).toBe('type Restaurants → Bars; sub-type Pizza → none');
  });

  test('a change tells the page caches: the old and the new public address, the place\'s keys and both hubs', async () => {
    const id = await addPlace({ name: 'Desk Purged' });
    const announce = jest.spyOn(t.ctx.changes, 'announce');
    try {
      await post(`/staff/places/${id}/`, { ...(await formOf(id)), name: 'Desk Purged Again', type_id: String(barsId), sub_type_id: '' }).expect(303);
      expect(announce).toHaveBeenCalledWith({
        subject: `place:${id}`,
        paths: [`/restaurants/desk-purged-${id}/`, `/bars/desk-purged-again-${id}/`],
        // Renamed: the geocoder's gazetteer is read again too (place-locations).
        keys: expect.arrayContaining([`place-${id}`, 'hub-restaurants', 'hub-bars', `neighbourhood-${hoodId}`, 'place-locations']),
      });
      announce.mockClear();
      // A phone number is not where a place is: the gazetteer stays.
      await post(`/staff/places/${id}/`, { ...(await formOf(id)), phone: '416-555-0142' }).expect(303);
      expect(announce).toHaveBeenCalledTimes(1);
      expect(announce.mock.calls[0][0].keys).toContain(`place-${id}`);
      expect(announce.mock.calls[0][0].keys).not.toContain('place-locations');
      announce.mockClear();
      // Nothing changed, nothing to purge.
      await post(`/staff/places/${id}/`, await formOf(id)).expect(303);
      expect(announce).not.toHaveBeenCalled();
    } finally {
      announce.mockRestore();
    }
  });

  test('the list: search by name, filters, newest changes first', async () => {
    const db = t.ctx.db;
    const closed = await createListing(db, { name: 'Filter Closed Cafe', type_id: barsId });
    await db('listings').where({ id: closed }).update({ closed_on: '2026-01-05', date_modified: new Date('2020-01-01') });
    const reported = await createListing(db, { name: 'Filter Reported Diner', type_id: typeId });
    await db('listings').where({ id: reported }).update({ date_modified: new Date('2020-01-02') });
    await db('place_suggestions').insert({ listing_id: reported, kind: 'closed', status: 'pending', guest_key: 'test-guest' });
    const inHood = await createListing(db, { name: 'Filter Hood Bistro', type_id: typeId, neighbourhood_id: hoodId });
    await db('listings').where({ id: inHood }).update({ date_modified: new Date('2020-01-03') });

    const names = async (query: string) => {
      const res = await staff.get(`/staff/places/${query}`).expect(200);
      return [...mainOf(res.text).matchAll(/<tr data-place="(\d+)">\s*<td data-label="Place"><a [^>]*>([^<]+)<\/a>/g)].map((m) => m[2]);
    };
    expect(await names('?q=filter')).toEqual(['Filter Hood Bistro', 'Filter Reported Diner', 'Filter Closed Cafe']);
    expect(await names('?q=filter&closed=1')).toEqual(['Filter Closed Cafe']);
    expect(await names('?q=filter&reported=1')).toEqual(['Filter Reported Diner']);
    expect(await names(`?q=filter&type=${barsId}`)).toEqual(['Filter Closed Cafe']);
    expect(await names(`?q=filter&neighbourhood=${hoodId}`)).toEqual(['Filter Hood Bistro']);
    expect(await names('?q=filter&recent=1')).toEqual([]);
    const recent = await names('?recent=1');
    expect(recent.length).toBeGreaterThan(0);
    expect(recent).not.toContain('Filter Closed Cafe');
    // Newest change first: a place just edited leads the list.
    const id = await addPlace({ name: 'Desk Newest' });
    expect((await names(''))[0]).toBe('Desk Newest');
    expect(id).toBeGreaterThan(0);
  });
});
