import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createEvent, createListing, createListingType, createPhoto } from '../../testing/fixtures';
import { mediaCacheDir } from '../media/api';
import { recentStaffActions } from '../staff-audit/audit-log-queries';

// The staff area in the real app: who reaches it (guests go to login, members get a 403 page,
// staff get in), that every action needs the CSRF token, and what each action does: the
// change, its audit entry, and for events the member's email.

const PAGES = ['/staff/', '/staff/events/', '/staff/photos/', '/staff/contact/', '/staff/audit/'];

describe('staff area /staff/', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let staffAgent: Agent;
  let member: MemberFixture;
  let memberAgentValue: Agent;
  let submitter: MemberFixture;
  let listingId: number;
  let listingPath: string;

  /** Every staff action, as [path, valid form fields], on objects made fresh for each call. */
  async function actions(): Promise<Array<[string, Record<string, string>]>> {
    const eventId = await createEvent(t.ctx.db, { status: 'pending', submitted_by: submitter.id });
    const photoId = await createPhoto(t.ctx.db, { listing_id: listingId, profile_id: submitter.id });
    const messageId = await contactMessage('Boundary check');
    return [
      [`/staff/events/${eventId}/moderate/`, { decision: 'approved' }],
      [`/staff/events/${eventId}/moderate/`, { decision: 'rejected', note: 'Not in Toronto' }],
      ['/staff/events/bulk/', { ids: String(eventId), decision: 'approved' }],
      [`/staff/photos/${photoId}/remove/`, { confirm: 'yes', note: 'Not this place' }],
      [`/staff/contact/${messageId}/handled/`, {}],
    ];
  }

  async function contactMessage(comment: string, at = new Date()): Promise<number> {
    const [row] = await t.ctx.db('contact_messages')
      .insert({ question_category: 'general', comment, name: 'Jo Reader', email: 'jo@example.com', date_created: at })
      .returning('id');
    return Number(row.id ?? row);
  }

  /** What the actions could change: staff actions leave a trace in each of these. */
  async function state() {
    const db = t.ctx.db;
    const [events, photos, handled, audit] = await Promise.all([
      db('events').whereNot({ status: 'pending' }).whereNotNull('submitted_by').count('* as n').first(),
      db('photos').count('* as n').first(),
      db('contact_messages').whereNotNull('handled_at').count('* as n').first(),
      db('staff_audit_log').count('* as n').first(),
    ]);
    return { moderated: Number(events?.n), photos: Number(photos?.n), handled: Number(handled?.n), audit: Number(audit?.n), mail: t.mailer.sent.length };
  }

  beforeAll(async () => {
    t = await createTestContext();
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    staffAgent = await memberAgent(t, staff);
    member = await createMember(t.ctx);
    memberAgentValue = await memberAgent(t, member);
    submitter = await createMember(t.ctx, { full_name: 'Pat Submitter' });
    const typeId = await createListingType(t.ctx.db, { name: 'Cafes', slug: 'cafes' });
    listingId = await createListing(t.ctx.db, { name: 'Pilot Coffee', type_id: typeId });
    listingPath = `/cafes/pilot-coffee-${listingId}/photos/`;
  });
  afterAll(() => t.close());

  test('a guest is sent to the login page, and comes back to the staff area', async () => {
    const guest = guestAgent(t.app);
    for (const p of PAGES) {
      const res = await guest.get(p);
      expect([p, res.status, res.headers.location]).toEqual([p, 302, `/accounts/login?next=${encodeURIComponent(p)}`]);
    }
    const before = await state();
    for (const [p, fields] of await actions()) {
      const res = await guest.post(p).type('form').send({ csrfmiddlewaretoken: guest.csrfToken, ...fields });
      expect([p, res.status, res.headers.location]).toEqual([p, 302, `/accounts/login?next=${encodeURIComponent('/staff/')}`]);
    }
    expect(await state()).toEqual({ ...before, photos: before.photos + 1 });
  });

  test('a signed-in member who is not staff gets a 403 page on every page and every action, and changes nothing', async () => {
    for (const p of PAGES) {
      const res = await memberAgentValue.get(p);
      expect([p, res.status]).toEqual([p, 403]);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('This part of the site is for staff.');
      expect(res.text).not.toMatch(/at .*\.ts:\d+|Error:/);
    }
    const before = await state();
    for (const [p, fields] of await actions()) {
      const res = await memberAgentValue.post(p).type('form').send({ csrfmiddlewaretoken: memberAgentValue.csrfToken, ...fields });
      expect([p, res.status]).toEqual([p, 403]);
      expect(res.text).toContain('This part of the site is for staff.');
    }
    expect(await state()).toEqual({ ...before, photos: before.photos + 1 });
  });

  test('staff see every page, private and not for search engines; the landing page links every section', async () => {
    for (const p of PAGES) {
      const res = await staffAgent.get(p);
      expect([p, res.status]).toEqual([p, 200]);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    }
    const landing = await staffAgent.get('/staff/');
    for (const href of ['/staff/events/', '/staff/photos/', '/staff/contact/', '/staff/contests/', '/staff/audit/']) expect(landing.text).toContain(`href="${href}"`);
  });

  test('every staff action is refused without the CSRF token or with a wrong one, and changes nothing', async () => {
    const before = await state();
    for (const [p, fields] of await actions()) {
      const missing = await staffAgent.post(p).type('form').send(fields);
      expect([p, missing.status]).toEqual([p, 403]);
      expect(missing.text).toContain('CSRF token missing');
      const wrong = await staffAgent.post(p).type('form').send({ csrfmiddlewaretoken: 'x'.repeat(43), ...fields });
      expect([p, wrong.status]).toEqual([p, 403]);
      expect(wrong.text).toContain('CSRF token incorrect');
    }
    expect(await state()).toEqual({ ...before, photos: before.photos + 1 });
  });

  test('approving publishes the event, logs who did it, and emails the member a link', async () => {
    const id = await createEvent(t.ctx.db, { title: 'Jazz in the Park', status: 'pending', submitted_by: submitter.id });
    const queue = await staffAgent.get('/staff/events/');
    expect(queue.text).toContain('Jazz in the Park');
    expect(queue.text).toContain(submitter.email);
    expect(queue.text).toContain(`action="/staff/events/${id}/moderate/"`);
    const sent = t.mailer.sent.length;
    const started = Date.now();
    const res = await staffAgent.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, decision: 'approved', note: '' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/events/?done=approved&event=${id}&mail=sent`);
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'approved' });
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id });
    expect(entry).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'event.approve', subject_id: id, note: null, detail: { title: 'Jazz in the Park', emailed: submitter.email } });
    expect(entry.created_at.getTime()).toBeGreaterThanOrEqual(started - 5000);
    expect(t.mailer.sent.slice(sent)).toHaveLength(1);
    const mail = t.mailer.sent[sent];
    expect(mail.to).toBe(submitter.email);
    expect(mail.subject).toBe('Your event "Jazz in the Park" is approved');
    const slug = (await t.ctx.db('events').where({ id }).first('slug')).slug as string;
    expect(mail.text).toContain(`${t.config.site.url}/events/${slug}-${id}/`);
    const after = await staffAgent.get(res.headers.location);
    expect(after.text).toContain('“Jazz in the Park” is approved. The member has been emailed.');
    expect(after.text).not.toContain(`action="/staff/events/${id}/moderate/"`);
  });

  test('rejecting needs a note; the note is kept, logged and emailed to the member', async () => {
    const id = await createEvent(t.ctx.db, { title: 'Party in Buffalo', status: 'pending', submitted_by: submitter.id });
    const sent = t.mailer.sent.length;
    const bare = await staffAgent.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, decision: 'rejected', note: '  ' });
    expect(bare.status).toBe(400);
    expect(bare.text).toContain('Say why the event is rejected');
    expect(bare.text).toContain(`id="note-${id}-error"`);
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'pending' });
    expect(t.mailer.sent.length).toBe(sent);

    const res = await staffAgent.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, decision: 'rejected', note: 'Buffalo is not in Toronto.' });
    expect(res.status).toBe(303);
    expect(await t.ctx.db('events').where({ id }).first('status', 'moderation_note')).toEqual({ status: 'rejected', moderation_note: 'Buffalo is not in Toronto.' });
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id });
    expect(entry).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'event.reject', note: 'Buffalo is not in Toronto.' });
    expect(t.mailer.sent.slice(sent)).toEqual([expect.objectContaining({ to: submitter.email, subject: 'Your event "Party in Buffalo" was not approved' })]);
    expect(t.mailer.sent[sent].text).toContain('Buffalo is not in Toronto.');
  });

  test('an event is decided once: a second decision is a 409 and sends no second email', async () => {
    const id = await createEvent(t.ctx.db, { status: 'pending', submitted_by: submitter.id });
    const post = (decision: string, note = '') => staffAgent.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, decision, note });
    expect((await post('approved')).status).toBe(303);
    const sent = t.mailer.sent.length;
    const again = await post('rejected', 'Changed my mind');
    expect(again.status).toBe(409);
    expect(again.text).toContain('already moderated');
    expect(t.mailer.sent.length).toBe(sent);
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'approved' });
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id })).toHaveLength(1);
  });

  test('ticked events are decided together: one note, an audit entry and an email each; all or nothing', async () => {
    const ids = [];
    for (const title of ['Bulk one', 'Bulk two', 'Bulk three']) ids.push(await createEvent(t.ctx.db, { title, status: 'pending', submitted_by: submitter.id }));
    const bulk = (body: string) => staffAgent.post('/staff/events/bulk/').type('form').send(`csrfmiddlewaretoken=${encodeURIComponent(staffAgent.csrfToken)}&${body}`);
    const queue = await staffAgent.get('/staff/events/');
    for (const id of ids) expect(queue.text).toContain(`name="ids" value="${id}" form="bulk"`);

    const sent = t.mailer.sent.length;
    const none = await bulk('decision=approved');
    expect(none.status).toBe(400);
    expect(none.text).toMatch(/Select at least one event\.|This field is required\./);
    const noNote = await bulk(`ids=${ids[0]}&ids=${ids[1]}&decision=rejected&note=`);
    expect(noNote.status).toBe(400);
    expect(noNote.text).toContain('id="bulk-note-error"');
    expect(noNote.text).toContain(`name="ids" value="${ids[0]}" form="bulk" checked`);
    expect(noNote.text).not.toContain(`name="ids" value="${ids[2]}" form="bulk" checked`);
    expect((await bulk(`ids=${ids[0]}&ids=abc&decision=approved`)).status).toBe(400);
    // One unknown event refuses the whole batch.
    expect((await bulk(`ids=${ids[0]}&ids=99999999&decision=approved`)).status).toBe(404);
    expect(await t.ctx.db('events').whereIn('id', ids).pluck('status')).toEqual(['pending', 'pending', 'pending']);
    expect(t.mailer.sent.length).toBe(sent);

    const res = await bulk(`ids=${ids[0]}&ids=${ids[1]}&decision=rejected&note=${encodeURIComponent('Duplicates of an existing listing.')}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/events/?done=rejected&event=${ids[0]}&count=2&mail=sent`);
    expect(await t.ctx.db('events').whereIn('id', ids).orderBy('id').select('status', 'moderation_note')).toEqual([
      { status: 'rejected', moderation_note: 'Duplicates of an existing listing.' },
      { status: 'rejected', moderation_note: 'Duplicates of an existing listing.' },
      { status: 'pending', moderation_note: '' },
    ]);
    for (const id of ids.slice(0, 2)) {
      expect(await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id })).toEqual([expect.objectContaining({ action: 'event.reject', staff_email: staff.email, note: 'Duplicates of an existing listing.', detail: expect.objectContaining({ batch: 2 }) })]);
    }
    expect(t.mailer.sent.slice(sent).map((m) => m.subject)).toEqual(['Your event "Bulk one" was not approved', 'Your event "Bulk two" was not approved']);
    expect((await staffAgent.get(res.headers.location)).text).toContain('2 events are rejected, starting with “Bulk one”. The members have been emailed.');

    // An event already decided refuses the batch it is in, and nothing of it changes.
    const again = await bulk(`ids=${ids[2]}&ids=${ids[0]}&decision=approved`);
    expect(again.status).toBe(409);
    expect(await t.ctx.db('events').where({ id: ids[2] }).first('status')).toEqual({ status: 'pending' });
    expect(t.mailer.sent.length).toBe(sent + 2);
  });

  test('bad input is a 4xx naming the field; unknown objects are 404s', async () => {
    const id = await createEvent(t.ctx.db, { status: 'pending', submitted_by: submitter.id });
    const form = (p: string, fields: Record<string, string>) => staffAgent.post(p).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, ...fields });
    const bad = await form(`/staff/events/${id}/moderate/`, { decision: 'publish' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Choose approve or reject.');
    const long = await form(`/staff/events/${id}/moderate/`, { decision: 'rejected', note: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('no more than 2000 characters');
    for (const p of ['/staff/events/999999/moderate/', '/staff/events/abc/moderate/', '/staff/events/2147483648/moderate/', '/staff/photos/999999/remove/', '/staff/contact/999999/handled/']) {
      expect([p, (await form(p, { decision: 'approved' })).status]).toEqual([p, 404]);
    }
    expect((await staffAgent.get('/staff/photos/?page=abc')).status).toBe(400);
    const past = await staffAgent.get('/staff/photos/?page=99');
    expect([past.status, past.headers.location]).toEqual([302, '/staff/photos/']);
    expect((await staffAgent.get('/staff/events/?done=approved&event=99999999999')).status).toBe(200);
  });

  test('removing a listing photo deletes its row, file and renditions, logs it, and the listing counts one fewer', async () => {
    const key = 'photos/staff-test/removed.jpg';
    await t.ctx.storage.put(key, Buffer.from('not really a jpeg'), 'image/jpeg');
    expect(await t.ctx.storage.exists(key)).toBe(true);
    const renditionDir = path.join(mediaCacheDir(t.config), key);
    fs.mkdirSync(renditionDir, { recursive: true });
    fs.writeFileSync(path.join(renditionDir, 'w340-h340-crop.jpg'), 'rendition');
    const kept = await createPhoto(t.ctx.db, { listing_id: listingId, profile_id: submitter.id, title: 'Latte art' });
    const id = await createPhoto(t.ctx.db, { listing_id: listingId, profile_id: submitter.id, title: 'Wrong cafe', image_key: key });
    const count = async () => Number((await t.ctx.db('photos').where({ listing_id: listingId }).count('* as n').first())?.n);
    const before = await count();

    const list = await staffAgent.get('/staff/photos/');
    expect(list.text).toContain('Wrong cafe');
    expect(list.text).toContain(`href="${listingPath}"`);
    expect(list.text.indexOf('Wrong cafe')).toBeLessThan(list.text.indexOf('Latte art'));
    const listingPage = await request(t.app).get(listingPath);
    expect(listingPage.text).toContain('Wrong cafe');

    // Without the tick: nothing is removed, the page says why beside that photo, the reason kept.
    const unticked = await staffAgent.post(`/staff/photos/${id}/remove/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, note: 'Another cafe' });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain(`Photo #${id} was not removed:`);
    expect(unticked.text).toContain(`id="photo-confirm-${id}-error" class="field-error">Tick &quot;Delete it for good&quot; to remove the photo: it cannot be undone.</p>`);
    expect(unticked.text).toContain(`id="photo-note-${id}" name="note" type="text" maxlength="2000" value="Another cafe"`);
    expect(await t.ctx.db('photos').where({ id }).first('id')).toBeTruthy();
    expect(await t.ctx.storage.exists(key)).toBe(true);

    const res = await staffAgent.post(`/staff/photos/${id}/remove/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, confirm: 'yes', note: 'Another cafe' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/photos/?removed=${id}`);
    expect(await t.ctx.db('photos').where({ id }).first()).toBeUndefined();
    expect(await t.ctx.db('photos').where({ id: kept }).first('id')).toBeTruthy();
    expect(await count()).toBe(before - 1);
    expect(await t.ctx.storage.exists(key)).toBe(false);
    expect(fs.existsSync(renditionDir)).toBe(false);
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'photo', subjectId: id });
    expect(entry).toMatchObject({ staff_email: staff.email, action: 'photo.remove', note: 'Another cafe', detail: { title: 'Wrong cafe', listing_id: listingId } });
    expect((await request(t.app).get(listingPath)).text).not.toContain('Wrong cafe');
    expect((await staffAgent.post(`/staff/photos/${id}/remove/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken, confirm: 'yes' })).status).toBe(404);
  });

  test('contact messages are listed newest first and marked handled once', async () => {
    const older = await contactMessage('Older question', new Date(Date.now() - 3600_000));
    const newer = await contactMessage('Newer question', new Date(Date.now() + 3600_000));
    const list = await staffAgent.get('/staff/contact/');
    expect(list.text.indexOf('Newer question')).toBeLessThan(list.text.indexOf('Older question'));
    const mark = () => staffAgent.post(`/staff/contact/${older}/handled/`).type('form').send({ csrfmiddlewaretoken: staffAgent.csrfToken });
    const res = await mark();
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/contact/#message-${older}`);
    const row = await t.ctx.db('contact_messages').where({ id: older }).first('handled_at', 'handled_by');
    expect(row.handled_at).toBeInstanceOf(Date);
    expect(row.handled_by).toBe(staff.id);
    expect((await mark()).status).toBe(303);
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'contact_message', subjectId: older })).toEqual([expect.objectContaining({ action: 'contact_message.handled', staff_email: staff.email })]);
    const after = await staffAgent.get('/staff/contact/');
    expect(after.text).toContain(`Handled `);
    expect(after.text).toContain(`by ${staff.email}`);
    expect(after.text).toContain(`action="/staff/contact/${newer}/handled/"`);
    expect(after.text).not.toContain(`action="/staff/contact/${older}/handled/"`);
  });

  test('the audit page lists recent actions with who, what and when, newest first', async () => {
    const res = await staffAgent.get('/staff/audit/');
    expect(res.status).toBe(200);
    const entries = await recentStaffActions(t.ctx.db, { limit: 3 });
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(res.text).toContain(`<code>${e.action}</code>`);
    expect(res.text).toContain(staff.email);
    expect(res.text).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
    expect(res.text.indexOf('contact_message.handled')).toBeLessThan(res.text.indexOf('event.approve'));
  });

  test('the profile API cannot make a member staff (PUT or PATCH)', async () => {
    const put = await memberAgentValue.put('/api/v2/profiles/me/').set('X-CSRFToken', memberAgentValue.csrfToken).send({ email: member.email, is_staff: true });
    expect(put.status).toBe(200);
    const patch = await memberAgentValue.patch('/api/v2/profiles/me/').set('X-CSRFToken', memberAgentValue.csrfToken).send({ is_staff: true, full_name: 'Still a member' });
    expect(patch.status).toBe(200);
    expect(await t.ctx.db('profiles').where({ id: member.id }).first('is_staff', 'full_name')).toEqual({ is_staff: false, full_name: 'Still a member' });
    expect((await memberAgentValue.get('/staff/')).status).toBe(403);
  });

  test('revoking staff takes effect on the next request of a signed-in session', async () => {
    const former = await createMember(t.ctx, { is_staff: true });
    const agent = await memberAgent(t, former);
    expect((await agent.get('/staff/')).status).toBe(200);
    await t.ctx.db('profiles').where({ id: former.id }).update({ is_staff: false });
    expect((await agent.get('/staff/')).status).toBe(403);
  });
});
