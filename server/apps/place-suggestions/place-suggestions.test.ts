import request from 'supertest';
import { unzipSync, strFromU8 } from 'fflate';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createListing, createListingType, createNeighbourhood } from '../../testing/fixtures';
import { forgetGazetteer } from '../geocoder/loader';
import { MIN_SOLVE_MS } from '../contact/captcha';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { placeRevisions } from '../places-desk/revision-queries';
import { MEMBER_EXPORT_PATH } from '../../../shared/member-data';

// Readers' suggested edits (issue 39, "Readers help"), in the real app: the form for guests
// (with the contact form's captcha) and members, its 400s naming the field, the daily limit,
// nothing shown publicly, and the staff page: groups of agreeing suggestions beside the
// current value, apply (a desk revision, refused when the field changed since), dismiss, the
// email, the "closed" flag; and a member's suggestions in their export and gone with them.

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Reads the form's captcha as a person would (from the question), with its key. */
function solve(html: string): { captcha_key: string; captcha: string } {
  const key = /name="captcha_key" value="([^"]+)"/.exec(html)![1];
  const [, a, b] = /alt="What is (\w+) plus (\w+)\?"/.exec(html)!;
  return { captcha_key: key, captcha: String(WORDS.indexOf(a) + WORDS.indexOf(b)) };
}

function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

const WEEK = { hours_mon: 'closed', hours_tue: '9:00-17:00', hours_wed: '9:00-17:00', hours_thu: '9:00-17:00', hours_fri: '9:00-17:00', hours_sat: '10:00-14:00', hours_sun: 'closed' };
const OLD_HOURS = { weekly: { mon: [{ opens: '11:00', closes: '22:00' }] }, holidays: 'closed' };

describe('readers suggest edits to a place; staff apply or dismiss them', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let editor: Agent;
  let typeId: number;
  let clockOffset = 0;

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => new Date(Date.now() + clockOffset);
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    editor = await memberAgent(t, staff);
    typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
  });
  afterAll(() => t.close());

  const place = async (fields: Record<string, unknown> = {}) => {
    const id = await createListing(t.ctx.db, { type_id: typeId, phone: '416-555-0100', website: 'https://old.example.com/', ...fields });
    await t.ctx.db('listings').where({ id }).update({ hours: JSON.stringify(OLD_HOURS) });
    return id;
  };

  /** A guest's form: fetched, then answered a few seconds later, as a person would. */
  async function guestPost(agent: Agent, id: number, fields: Record<string, string>) {
    clockOffset = 0;
    const form = await agent.get(`/places/${id}/suggest/`).expect(200);
    clockOffset = MIN_SOLVE_MS + 1000;
    return agent.post(`/places/${id}/suggest/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...solve(form.text), ...fields });
  }
  const memberPost = (agent: Agent, id: number, fields: Record<string, string>) =>
    agent.post(`/places/${id}/suggest/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });
  const rowsOf = (id: number) => t.ctx.db('place_suggestions').where({ listing_id: id }).orderBy('id');
  const staffPost = (path: string) => editor.post(path).type('form').send({ csrfmiddlewaretoken: editor.csrfToken });
  const groupId = (html: string, kind: string, n = 0) => Number([...html.matchAll(new RegExp(`data-suggestion="(\\d+)" data-kind="${kind}"`, 'g'))][n][1]);

  test('every place page links to the form; the form works without JavaScript and a guest passes the captcha', async () => {
    const id = await place({ name: 'Cafe Link' });
    const listingPage = await request(t.app).get(`/restaurants/cafe-link-${id}/`).expect(200);
    expect(listingPage.text).toContain(`href="/places/${id}/suggest/"`);
    expect(listingPage.text).toContain('Suggest an edit');

    const guest = guestAgent(t.app);
    const form = await guest.get(`/places/${id}/suggest/`).expect(200);
    expect(form.headers['cache-control']).toMatch(/private|no-store/);
    for (const kind of ['closed', 'moved', 'hours', 'phone', 'website', 'name']) expect(form.text).toContain(`name="kind" value="${kind}"`);
    expect(form.text).toContain('name="hours_tue"');
    expect(form.text).toContain('value="11:00-22:00"'); // Monday's current hours, to correct
    expect(form.text).toContain('name="csrfmiddlewaretoken"');
    expect(form.text).toMatch(/<img class="captcha__image" src="data:image\/svg\+xml;base64,/);

    const res = await guestPost(guest, id, { kind: 'phone', phone: '(416) 555 0199', note: 'New number on the door', guest_email: 'jo@example.com' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/places/${id}/suggest/?sent=1`);
    const thanks = await guest.get(res.headers.location).expect(200);
    expect(thanks.text).toContain('Your suggestion is with our editors');

    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ kind: 'phone', value: '416-555-0199', base: '416-555-0100', note: 'New number on the door', status: 'pending', member_id: null, guest_email: 'jo@example.com' });
    // The address is kept as a keyed hash, never as such.
    expect(row.guest_key).toMatch(/^[0-9a-f]{64}$/);
    expect(row.guest_key).not.toContain('127.0.0.1');
  });

  test('a guest without the right captcha answer is refused (400 on captcha) and nothing is stored', async () => {
    const id = await place();
    const guest = guestAgent(t.app);
    const none = await memberPost(guest, id, { kind: 'name', name: 'New Name' });
    expect(none.status).toBe(400);
    expect(none.text).toContain('data-field="captcha_key"');
    const form = await guest.get(`/places/${id}/suggest/`);
    clockOffset = MIN_SOLVE_MS + 1000;
    const { captcha_key, captcha } = solve(form.text);
    const wrong = await memberPost(guest, id, { kind: 'name', name: 'New Name', captcha_key, captcha: String(Number(captcha) + 1) });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('data-field="captcha"');
    expect(wrong.text).toContain('value="New Name"'); // what was typed is kept
    expect(await rowsOf(id)).toHaveLength(0);
  });

  test('a member needs no captcha; their suggestion is theirs', async () => {
    const id = await place();
    const member = await createMember(t.ctx);
    const res = await memberPost(await memberAgent(t, member), id, { kind: 'website', website: 'https://new.example.com/' });
    expect(res.status).toBe(303);
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({ member_id: member.id, guest_key: null, kind: 'website', value: 'https://new.example.com/', base: 'https://old.example.com/' });
  });

  test('bad input is a 400 naming the field, with nothing stored', async () => {
    const id = await place();
    const agent = await memberAgent(t, await createMember(t.ctx));
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'kind'],
      [{ kind: 'gone' }, 'kind'],
      [{ kind: 'phone', phone: '555-01' }, 'phone'],
      [{ kind: 'phone', phone: '' }, 'phone'],
      [{ kind: 'website', website: 'ftp://files.example.com/' }, 'website'],
      [{ kind: 'website', website: 'javascript:alert(1)' }, 'website'],
      [{ kind: 'hours', ...WEEK, hours_tue: '9 till late' }, 'hours_tue'],
      [{ kind: 'hours', ...WEEK, hours_wed: '9:00-12:00, 11:00-15:00' }, 'hours_wed'],
      [{ kind: 'name', name: 'x', note: 'n'.repeat(501) }, 'note'],
      [{ kind: 'moved', address: '' }, 'address'],
      [{ kind: 'closed', closed_on: '2026-02-30' }, 'closed_on'],
      // What the page says already is no suggestion.
      [{ kind: 'phone', phone: '416 555 0100' }, 'phone'],
      [{ kind: 'website', website: 'https://OLD.example.com' }, 'website'],
    ];
    for (const [fields, field] of cases) {
      const res = await memberPost(agent, id, fields);
      expect([JSON.stringify(fields), res.status]).toEqual([JSON.stringify(fields), 400]);
      expect(res.text).toContain(`data-field="${field}"`);
      expect(res.text).toContain(`id="suggest-${field}-error"`);
    }
    // Without the CSRF token, as every form.
    const forged = await agent.post(`/places/${id}/suggest/`).type('form').send({ kind: 'name', name: 'Forged Name' });
    expect(forged.status).toBe(403);
    expect(await rowsOf(id)).toHaveLength(0);
  });

  test('suggestions are never shown publicly before staff act', async () => {
    const id = await place({ name: 'Quiet Diner' });
    const agent = await memberAgent(t, await createMember(t.ctx));
    await memberPost(agent, id, { kind: 'name', name: 'Totally Fake Name', note: 'a secret note' }).expect(303);
    await memberPost(agent, id, { kind: 'closed', note: 'boarded up' }).expect(303);
    for (const path of [`/restaurants/quiet-diner-${id}/`, `/api/v2/listings/${id}/`, '/restaurants/']) {
      const res = await request(t.app).get(path);
      expect(res.text).not.toContain('Totally Fake Name');
      expect(res.text).not.toContain('a secret note');
      expect(res.text).not.toContain('boarded up');
    }
    const page = await request(t.app).get(`/restaurants/quiet-diner-${id}/`);
    expect(page.text).not.toContain('Closed since');
    expect((await t.ctx.db('listings').where({ id }).first('name', 'closed_on'))).toEqual({ name: 'Quiet Diner', closed_on: null });
  });

  test('10 suggestions a day per member; a refused form does not count', async () => {
    const limited = t.rebuild({ RATE_LIMITS: 'true' });
    const id = await place();
    const member = await createMember(t.ctx);
    const agent = guestAgent(limited);
    agent.jar.setCookie(`${(await memberAgent(t, member)).jar.getCookies({ path: '/', domain: '127.0.0.1', secure: false, script: false }).find((c) => c.name === 'sessionid')?.toValueString()}; Path=/`);
    const post = (fields: Record<string, string>) => agent.post(`/places/${id}/suggest/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });
    expect((await post({ kind: 'phone', phone: 'nope' })).status).toBe(400);
    for (let i = 0; i < 10; i += 1) expect((await post({ kind: 'name', name: `Name ${i}` })).status).toBe(303);
    const over = await post({ kind: 'name', name: 'One too many' });
    expect(over.status).toBe(429);
    expect(await t.ctx.db('place_suggestions').where({ member_id: member.id })).toHaveLength(10);
    // Another member still may.
    const other = guestAgent(limited);
    other.jar.setCookie(`${(await memberAgent(t, await createMember(t.ctx))).jar.getCookies({ path: '/', domain: '127.0.0.1', secure: false, script: false }).find((c) => c.name === 'sessionid')?.toValueString()}; Path=/`);
    expect((await other.post(`/places/${id}/suggest/`).type('form').send({ csrfmiddlewaretoken: other.csrfToken, kind: 'name', name: 'Fine' })).status).toBe(303);
  });

  test('10 suggestions a day per guest address, counted by a hash of the address', async () => {
    const limited = t.rebuild({ RATE_LIMITS: 'true' });
    const id = await place();
    // Two agents from the same address (supertest's 127.0.0.1) share the budget.
    const [first, second] = [guestAgent(limited), guestAgent(limited)];
    for (let i = 0; i < 10; i += 1) expect((await guestPost(i % 2 ? first : second, id, { kind: 'name', name: `Guest Name ${i}` })).status).toBe(303);
    expect((await guestPost(first, id, { kind: 'name', name: 'Guest Name 11' })).status).toBe(429);
    const keys = await t.ctx.db('place_suggestions').where({ listing_id: id }).distinct('guest_key');
    expect(keys).toHaveLength(1);
  });

  test('a move is applied with the new address placed on the map, or refused when the map cannot place it', async () => {
    const hood = await createNeighbourhood(t.ctx.db, { name: 'Birch Village' });
    await createListing(t.ctx.db, { type_id: typeId, name: 'Birch Neighbour', address: '50 Birch Ave', latitude: 43.652, longitude: -79.386, neighbourhood_id: hood });
    const id = await place({ name: 'Moving Bakery', address: '10 Birch Ave', latitude: 43.65, longitude: -79.395, neighbourhood_id: hood });
    forgetGazetteer(t.ctx.db);
    const agent = await memberAgent(t, await createMember(t.ctx));
    await memberPost(agent, id, { kind: 'moved', address: '1 Nowhere Lane' }).expect(303);
    let page = await editor.get('/staff/places/suggestions/');
    const refused = await staffPost(`/staff/places/suggestions/${groupId(page.text.slice(page.text.indexOf(`id="place-${id}"`)), 'moved')}/apply/`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Our map cannot place this address');
    expect((await t.ctx.db('listings').where({ id }).first('address')).address).toBe('10 Birch Ave');

    await memberPost(agent, id, { kind: 'moved', address: '50 Birch Ave' }).expect(303);
    page = await editor.get('/staff/places/suggestions/');
    const card = page.text.slice(page.text.indexOf(`id="place-${id}"`));
    const moved = [...card.matchAll(/data-suggestion="(\d+)" data-kind="moved"/g)].map((m) => Number(m[1]));
    const newest = Math.max(...moved);
    expect((await staffPost(`/staff/places/suggestions/${newest}/apply/`)).status).toBe(303);
    const row = await t.ctx.db('listings').where({ id }).first('address', 'latitude', 'longitude');
    expect(row.address).toBe('50 Birch Ave');
    expect(Number(row.latitude)).toBeCloseTo(43.652, 3);
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending', 'applied']);
  });

  test('the staff page groups agreeing suggestions beside the current value; only staff see it', async () => {
    const id = await place({ name: 'Grouped Grill' });
    const [a, b, c] = await Promise.all([createMember(t.ctx), createMember(t.ctx), createMember(t.ctx)]);
    await memberPost(await memberAgent(t, a), id, { kind: 'phone', phone: '416-555-0199', note: 'on their sign' }).expect(303);
    await memberPost(await memberAgent(t, b), id, { kind: 'phone', phone: '(416) 555.0199' }).expect(303);
    await memberPost(await memberAgent(t, c), id, { kind: 'phone', phone: '647-555-0123' }).expect(303);

    expect((await request(t.app).get('/staff/places/suggestions/')).status).not.toBe(200);
    expect((await (await memberAgent(t, a)).get('/staff/places/suggestions/')).status).not.toBe(200);

    const res = await editor.get('/staff/places/suggestions/').expect(200);
    const card = res.text.slice(res.text.indexOf(`id="place-${id}"`));
    const section = card.slice(0, card.indexOf('</ul>\n  </li>'));
    expect(section).toContain('Grouped Grill');
    expect(section).toContain('416-555-0100'); // the current value
    expect(section).toContain('<strong>416-555-0199</strong>');
    expect(section).toContain('2 readers agree');
    expect(section).toContain('<strong>647-555-0123</strong>');
    expect(section).toContain('on their sign');
    // The most agreed first.
    expect(section.indexOf('416-555-0199')).toBeLessThan(section.indexOf('647-555-0123'));
    // The staff landing page's badge counts what waits.
    const landing = await editor.get('/staff/').expect(200);
    const [{ n }] = await t.ctx.db('place_suggestions').where({ status: 'pending' }).count({ n: '*' });
    expect(landing.text).toContain(`Readers’ suggestions <span class="staff-count">${Number(n)}</span>`);
  });

  test('applying a group of hours changes the place through the desk (a revision), marks the group and emails its readers', async () => {
    const id = await place({ name: 'Hours House' });
    const member = await createMember(t.ctx, { full_name: 'Pat Reader' });
    await memberPost(await memberAgent(t, member), id, { kind: 'hours', ...WEEK }).expect(303);
    const guest = guestAgent(t.app);
    expect((await guestPost(guest, id, { kind: 'hours', ...WEEK, guest_email: 'guest@example.com' })).status).toBe(303);
    const quiet = guestAgent(t.app);
    expect((await guestPost(quiet, id, { kind: 'hours', ...WEEK })).status).toBe(303); // no email: not told
    t.mailer.sent.length = 0;

    const page = await editor.get('/staff/places/suggestions/').expect(200);
    const group = groupId(page.text.slice(page.text.indexOf(`id="place-${id}"`)), 'hours');
    const res = await staffPost(`/staff/places/suggestions/${group}/apply/`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/staff\/places\/suggestions\/\?done=applied/);

    const listing = await t.ctx.db('listings').where({ id }).first('hours');
    // The weekly hours are the readers'; the place's holiday rule stays.
    expect(listing.hours).toMatchObject({ weekly: { tue: [{ opens: '09:00', closes: '17:00' }], sat: [{ opens: '10:00', closes: '14:00' }] }, holidays: 'closed' });
    expect(listing.hours.weekly.mon).toBeUndefined();
    const revisions = await placeRevisions(t.ctx.db, id, { limit: 5, offset: 0 });
    expect(revisions[0]).toMatchObject({ kind: 'suggestion', staff_id: staff.id });
    expect(revisions[0].summary).toMatch(/^hours /);
    expect((await rowsOf(id)).map((r) => [r.status, r.decided_by])).toEqual([['applied', staff.id], ['applied', staff.id], ['applied', staff.id]]);
    const actions = (await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id })).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['place_suggestion.apply', 'place.suggestion']));

    expect(t.mailer.sent.map((m) => m.to).sort()).toEqual(['guest@example.com', member.email].sort());
    const mail = t.mailer.sent.find((m) => m.to === member.email)!;
    expect(mail.subject).toContain('Hours House');
    expect(mail.text).toContain('Hello Pat Reader');
    expect(mail.text).toContain(`/restaurants/hours-house-${id}/`);

    // The place page shows them.
    const pub = await request(t.app).get(`/restaurants/hours-house-${id}/`).expect(200);
    expect(pub.text).toContain('<th scope="row">Tuesday</th><td>9 am – 5 pm</td>');
    expect(pub.text).toContain('<th scope="row">Monday</th><td>Closed</td>');
    // A group decided is no longer on the page.
    const after = await editor.get('/staff/places/suggestions/');
    expect(after.text).not.toContain(`id="place-${id}"`);
  });

  test('applying is refused when the field changed since the suggestion was made; the group stays pending', async () => {
    const id = await place();
    await memberPost(await memberAgent(t, await createMember(t.ctx)), id, { kind: 'phone', phone: '416-555-0111' }).expect(303);
    await t.ctx.db('listings').where({ id }).update({ phone: '416-555-0122' });
    const page = await editor.get('/staff/places/suggestions/');
    const card = page.text.slice(page.text.indexOf(`id="place-${id}"`));
    expect(card.slice(0, 2000)).toContain('data-stale');
    const group = groupId(card, 'phone');
    const res = await staffPost(`/staff/places/suggestions/${group}/apply/`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('changed since this was suggested');
    expect(res.text).toContain('data-refused');
    expect((await t.ctx.db('listings').where({ id }).first('phone')).phone).toBe('416-555-0122');
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending']);
    expect(await placeRevisions(t.ctx.db, id, { limit: 5, offset: 0 })).toHaveLength(0);
  });

  test('dismissing a group changes nothing on the place and is in the audit log', async () => {
    const id = await place();
    await memberPost(await memberAgent(t, await createMember(t.ctx)), id, { kind: 'name', name: 'Renamed' }).expect(303);
    await memberPost(await memberAgent(t, await createMember(t.ctx)), id, { kind: 'name', name: 'renamed ' }).expect(303);
    const page = await editor.get('/staff/places/suggestions/');
    const group = groupId(page.text.slice(page.text.indexOf(`id="place-${id}"`)), 'name');
    t.mailer.sent.length = 0;
    expect((await staffPost(`/staff/places/suggestions/${group}/dismiss/`)).status).toBe(303);
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['dismissed', 'dismissed']);
    expect((await t.ctx.db('listings').where({ id }).first('name')).name).not.toBe('Renamed');
    expect(t.mailer.sent).toHaveLength(0);
    expect((await recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id })).map((a) => a.action)).toContain('place_suggestion.dismiss');
    // Deciding it again is refused, not a 500.
    const again = await staffPost(`/staff/places/suggestions/${group}/dismiss/`);
    expect(again.status).toBe(400);
    expect(again.text).toContain('already decided');
  });

  test('three "closed" reports from different people flag the place at the top; applying closes it', async () => {
    const id = await place({ name: 'Shuttered Shop' });
    const other = await place({ name: 'Twice Told' });
    const [a, b] = await Promise.all([createMember(t.ctx), createMember(t.ctx)]);
    const agentA = await memberAgent(t, a);
    // One member twice and one other: two people, not flagged.
    await memberPost(agentA, other, { kind: 'closed' }).expect(303);
    await memberPost(agentA, other, { kind: 'closed', note: 'still closed' }).expect(303);
    await memberPost(await memberAgent(t, b), other, { kind: 'closed' }).expect(303);
    let page = await editor.get('/staff/places/suggestions/');
    expect(page.text).not.toContain(`data-flagged-place="${other}"`);

    await memberPost(agentA, id, { kind: 'closed', closed_on: '2026-11-20' }).expect(303);
    await memberPost(await memberAgent(t, b), id, { kind: 'closed' }).expect(303);
    expect((await guestPost(guestAgent(t.app), id, { kind: 'closed', note: 'sign says closed for good' })).status).toBe(303);
    page = await editor.get('/staff/places/suggestions/');
    expect(page.text).toContain(`data-flagged-place="${id}"`);
    expect(page.text).toMatch(/Shuttered Shop<\/a>: 3 readers/);
    // The flag is at the top, and so is the place's card.
    expect(page.text.indexOf('data-flagged')).toBeLessThan(page.text.indexOf('class="staff-queue"'));
    expect(page.text.indexOf(`id="place-${id}"`)).toBeLessThan(page.text.indexOf(`id="place-${other}"`));

    const group = groupId(page.text.slice(page.text.indexOf(`id="place-${id}"`)), 'closed');
    expect((await staffPost(`/staff/places/suggestions/${group}/apply/`)).status).toBe(303);
    const closed = await t.ctx.db('listings').where({ id }).first(t.ctx.db.raw("to_char(closed_on, 'YYYY-MM-DD') as closed_on"));
    expect(closed.closed_on).toBe('2026-11-20'); // the earliest day a reader gave
    expect((await placeRevisions(t.ctx.db, id, { limit: 5, offset: 0 }))[0].kind).toBe('close');
    expect((await rowsOf(id)).every((r) => r.status === 'applied')).toBe(true);
  });

  test("a member's suggestions are in their data export", async () => {
    const id = await place({ name: 'Exported Eatery' });
    const member = await createMember(t.ctx);
    const agent = await memberAgent(t, member);
    await memberPost(agent, id, { kind: 'hours', ...WEEK, note: 'saw it today' }).expect(303);
    await memberPost(await memberAgent(t, await createMember(t.ctx)), id, { kind: 'name', name: 'Other Name' }).expect(303);

    const res = await agent.get(MEMBER_EXPORT_PATH).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    const rows = JSON.parse(strFromU8(files['place-suggestions.json'])) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'hours', note: 'saw it today', status: 'pending', listing_name: 'Exported Eatery' });
    expect(String(rows[0].listing_url)).toContain(`/restaurants/exported-eatery-${id}/`);
    expect(JSON.parse(String(rows[0].value))).toMatchObject({ weekly: { tue: [{ opens: '09:00', closes: '17:00' }] } });
    expect(strFromU8(files['place-suggestions.csv'])).toContain('saw it today');
    // That they go with the account: account-deletion/place-suggestions.test.ts.
  });
});
