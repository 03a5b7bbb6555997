import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';
import { ACCESSIBILITY_KEYS, ACCESSIBILITY_NOTE_MAX } from '../../../shared/accessibility';
import { ACCESSIBILITY_REPORT_RATE_LIMIT } from './rate-limit';

// Accessibility of places in the real app: members' reports (one per member and attribute,
// replaced when changed), the clear-majority rule of the search filter, staff verification
// outranking reports (and its audit entry), the listing page and its JSON-LD, the no-JS form,
// bad input answering 400 naming the field, and the rate limit.

const send = (agent: Agent, path: string, body: object) => agent.post(path).set('X-CSRFToken', agent.csrfToken).send(body);
const api = (listing: number) => `/api/v2/listings/${listing}/accessibility/`;
const form = (agent: Agent, listing: number, fields: Record<string, string>) =>
  agent.post(`/places/${listing}/accessibility/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });

describe('accessibility of places', () => {
  let t: TestContext;
  let typeId: number;
  let members: Array<{ member: MemberFixture; agent: Agent }>;
  let staff: Agent;

  beforeAll(async () => {
    t = await createTestContext();
    typeId = await createListingType(t.ctx.db, { name: 'Cafes', slug: 'cafes' });
    members = [];
    for (let i = 0; i < 6; i++) {
      const member = await createMember(t.ctx, { full_name: `Reporter ${i}` });
      members.push({ member, agent: await memberAgent(t, member) });
    }
    staff = await memberAgent(t, await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' }));
  });
  afterAll(() => t.close());

  /** The members' answers on one attribute of a place, through the API. */
  async function reports(listing: number, attribute: string, answers: Array<'yes' | 'no'>) {
    for (const [i, answer] of answers.entries()) {
      const res = await send(members[i].agent, api(listing), { attribute, answer });
      expect([res.status, res.body.answer]).toEqual([201, answer]);
    }
  }

  async function verify(listing: number, attribute: string, decision: string) {
    const res = await staff.post('/staff/accessibility/decide/').type('form').send({ csrfmiddlewaretoken: staff.csrfToken, listing: String(listing), attribute, decision });
    expect([res.status, res.headers.location]).toEqual([303, `/staff/accessibility/?done=${decision}`]);
  }

  const searchIds = async (query: string) => {
    const res = await guestAgent(t.app).get(`/api/v2/listings/?type=cafes&${query}`);
    expect(res.status).toBe(200);
    return (res.body.results as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);
  };

  test('one current report per member and attribute: reporting again replaces it, unknown withdraws it', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Replace Cafe', type_id: typeId });
    const { agent, member } = members[0];
    const first = await send(agent, api(listing), { attribute: 'quiet_hours', answer: 'yes', note: 'Mornings before 10' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ listing, attribute: 'quiet_hours', answer: 'yes', note: 'Mornings before 10' });
    const second = await send(agent, api(listing), { attribute: 'quiet_hours', answer: 'no' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, answer: 'no', note: '' });
    const rows = await t.ctx.db('accessibility_reports').where({ profile_id: member.id, listing_id: listing });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attribute: 'quiet_hours', answer: 'no' });
    const shown = (await guestAgent(t.app).get(api(listing))).body.attributes.find((a: { attribute: string }) => a.attribute === 'quiet_hours');
    expect(shown).toMatchObject({ status: 'reported', yes_count: 0, no_count: 1, value: 'unknown' });

    // The member's own answers come from a private request, never the shared one.
    const mine = await agent.get(`${api(listing)}mine/`);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.body.results).toEqual([expect.objectContaining({ attribute: 'quiet_hours', answer: 'no' })]);

    expect((await send(agent, api(listing), { attribute: 'quiet_hours', answer: 'unknown' })).status).toBe(204);
    expect(await t.ctx.db('accessibility_reports').where({ listing_id: listing })).toHaveLength(0);
    expect(await t.ctx.db('listing_accessibility').where({ listing_id: listing })).toHaveLength(0);
  });

  test('the filter keeps places verified yes or with a clear majority of yes reports (at least 2, and twice the no)', async () => {
    const id = async (name: string) => createListing(t.ctx.db, { name, type_id: typeId });
    const twoYes = await id('Two Yes');
    const threeTwo = await id('Three Yes Two No');
    const fourTwo = await id('Four Yes Two No');
    const oneYes = await id('One Yes');
    const verifiedYes = await id('Verified Yes');
    const verifiedNo = await id('Verified No');
    await reports(twoYes, 'step_free_entrance', ['yes', 'yes']);
    await reports(threeTwo, 'step_free_entrance', ['yes', 'yes', 'yes', 'no', 'no']);
    await reports(fourTwo, 'step_free_entrance', ['yes', 'yes', 'yes', 'yes', 'no', 'no']);
    await reports(oneYes, 'step_free_entrance', ['yes']);
    await verify(verifiedYes, 'step_free_entrance', 'yes');
    await reports(verifiedNo, 'step_free_entrance', ['yes', 'yes', 'yes']);
    expect(await searchIds('accessibility=step_free_entrance')).toEqual([twoYes, fourTwo, verifiedNo, verifiedYes].sort((a, b) => a - b));

    // Staff's "no" outranks three members' "yes".
    await verify(verifiedNo, 'step_free_entrance', 'no');
    expect(await searchIds('accessibility=step_free_entrance')).toEqual([twoYes, fourTwo, verifiedYes]);

    // Several attributes: every one must hold.
    await reports(twoYes, 'accessible_washroom', ['yes', 'yes']);
    await reports(fourTwo, 'accessible_washroom', ['yes', 'no']);
    expect(await searchIds('accessibility=step_free_entrance,accessible_washroom')).toEqual([twoYes]);

    // The hub page filters the same way, from its URL and its no-JS form's repeated checkboxes.
    const hub = await guestAgent(t.app).get('/cafes/?accessibility=step_free_entrance&accessibility=accessible_washroom');
    expect(hub.status).toBe(200);
    expect(hub.text).toContain('Two Yes');
    expect(hub.text).not.toContain('Four Yes Two No');
    expect(hub.text).toMatch(/<input type="checkbox" name="accessibility" value="accessible_washroom" checked>/);
  });

  test('a staff verification outranks reports on the page, the API and JSON-LD, with its date and who, and is audited', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Verified Cafe', type_id: typeId });
    await reports(listing, 'elevator_all_floors', ['yes', 'yes', 'yes']);
    await reports(listing, 'large_print_menu', ['no', 'no']);

    const queue = await staff.get('/staff/accessibility/');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain('Verified Cafe</a>: Elevator to all public floors');

    await verify(listing, 'elevator_all_floors', 'no');
    const attrs = (await guestAgent(t.app).get(api(listing))).body.attributes as Array<Record<string, unknown>>;
    expect(attrs.find((a) => a.attribute === 'elevator_all_floors')).toMatchObject({ status: 'verified', value: 'no', verified: false, yes_count: 3, no_count: 0 });
    expect(attrs.find((a) => a.attribute === 'large_print_menu')).toMatchObject({ status: 'reported', value: 'no' });
    expect(attrs.find((a) => a.attribute === 'quiet_hours')).toMatchObject({ status: 'unknown', value: 'unknown', last_confirmed: null });

    const audit = await t.ctx.db('staff_audit_log').where({ action: 'accessibility.verify_no', subject_id: listing }).first();
    expect(audit).toMatchObject({ staff_email: expect.stringContaining('@'), subject_type: 'listing' });
    const summary = await t.ctx.db('listing_accessibility').where({ listing_id: listing, attribute: 'elevator_all_floors' }).first();
    expect(summary.verified_by).toBe(audit.staff_id);
    expect(summary.verified_at).not.toBeNull();
    // The decision took that group out of the queue; the other stays.
    const after = await staff.get('/staff/accessibility/');
    expect(after.text).not.toContain('Verified Cafe</a>: Elevator to all public floors');
    expect(after.text).toContain('Verified Cafe</a>: Large-print or braille menu');

    const page = await guestAgent(t.app).get(`/cafes/verified-cafe-${listing}/`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/data-attribute="elevator_all_floors" data-status="verified">.*?<strong class="a11y-value a11y-value--no">No<\/strong> <span class="a11y-badge">Verified<\/span>/s);
    expect(page.text).toMatch(/data-attribute="large_print_menu" data-status="reported">.*?Reported by 2 members \(0 yes, 2 no\)/s);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.text)![1]);
    expect(ld.amenityFeature).toEqual([
      { '@type': 'LocationFeatureSpecification', name: 'Elevator to all public floors', value: false },
      { '@type': 'LocationFeatureSpecification', name: 'Large-print or braille menu', value: false },
    ]);
  });

  test('bad input answers 400 naming the field: API, form, search and hub', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Strict Cafe', type_id: typeId });
    const { agent } = members[1];
    const bad = async (body: object, field: string) => {
      const res = await send(agent, api(listing), body);
      expect([res.status, Object.keys(res.body)]).toEqual([400, [field]]);
      return res.body[field][0] as string;
    };
    expect(await bad({ attribute: 'wheelchair_teleporter', answer: 'yes' }, 'attribute')).toContain('step_free_entrance');
    expect(await bad({ attribute: 'quiet_hours', answer: 'maybe' }, 'answer')).toContain('yes, no, unknown');
    expect(await bad({ attribute: 'quiet_hours', answer: 'yes', note: 'x'.repeat(ACCESSIBILITY_NOTE_MAX + 1) }, 'note')).toContain(`${ACCESSIBILITY_NOTE_MAX}`);
    expect((await send(agent, api(listing), { attribute: 'quiet_hours', answer: 'yes', note: 'x'.repeat(ACCESSIBILITY_NOTE_MAX) })).status).toBe(201);
    expect((await send(agent, api(999999), { attribute: 'quiet_hours', answer: 'yes' })).status).toBe(404);

    const formRes = await form(agent, listing, { attribute: 'quiet_hours', answer: 'sometimes', note: 'kept' });
    expect(formRes.status).toBe(400);
    expect(formRes.text).toContain('Select a valid choice: yes, no, unknown.');
    expect(formRes.text).toContain('>kept</textarea>');

    const search = await guestAgent(t.app).get('/api/v2/listings/?accessibility=step_free_entrance,ramp_to_the_moon');
    expect(search.status).toBe(400);
    expect(Object.keys(search.body)).toEqual(['accessibility']);
    expect(search.body.accessibility[0]).toContain('ramp_to_the_moon');
    const hub = await guestAgent(t.app).get('/cafes/?accessibility=ramp_to_the_moon');
    expect(hub.status).toBe(400);
    expect(hub.text).toContain('Unknown accessibility attribute');
    expect((await guestAgent(t.app).get('/api/v2/listings/?accessibility=' + ACCESSIBILITY_KEYS.join(','))).status).toBe(200);
  });

  test('without JavaScript: the shared listing page links to the member\'s private form, which guests reach after logging in', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Form Cafe', type_id: typeId });
    const { agent } = members[2];
    const guest = guestAgent(t.app);
    const login = await guest.get(`/places/${listing}/accessibility/`);
    expect([login.status, login.headers.location]).toEqual([302, `/accounts/login?next=${encodeURIComponent(`/places/${listing}/accessibility/`)}`]);

    const posted = await form(agent, listing, { attribute: 'service_animals_welcome', answer: 'yes', note: 'Guide dog was welcomed' });
    expect([posted.status, posted.headers.location]).toEqual([303, `/places/${listing}/accessibility/?saved=service_animals_welcome#service_animals_welcome`]);
    const mine = await agent.get(`/places/${listing}/accessibility/?saved=service_animals_welcome`);
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toMatch(/private/);
    expect(mine.text).toContain('Guide dog was welcomed</textarea>');
    expect(mine.text).toMatch(/id="service_animals_welcome"[\s\S]*?value="yes" checked/);
    // No CSRF token: refused.
    const noToken = await agent.post(`/places/${listing}/accessibility/`).type('form').send({ attribute: 'quiet_hours', answer: 'yes' });
    expect(noToken.status).toBe(403);

    // The listing page is the same for the member as for a guest: counts, never their note.
    const page = await agent.get(`/cafes/form-cafe-${listing}/`);
    expect(page.text).toContain(`href="/places/${listing}/accessibility/"`);
    expect(page.text).toMatch(/data-attribute="service_animals_welcome" data-status="reported">.*?Reported by 1 member \(1 yes, 0 no\)/s);
    expect(page.text).not.toContain('Guide dog was welcomed');
  });

  test('reports are rate limited per member, the API and the form on one counter', async () => {
    const limited = t.rebuild({ RATE_LIMITS: 'true' });
    const member = await createMember(t.ctx);
    const agent = await memberAgent({ app: limited, ctx: t.ctx }, member);
    const listing = await createListing(t.ctx.db, { name: 'Busy Cafe', type_id: typeId });
    const { limit } = ACCESSIBILITY_REPORT_RATE_LIMIT;
    for (let i = 0; i < limit; i++) {
      const attribute = ACCESSIBILITY_KEYS[i % ACCESSIBILITY_KEYS.length];
      const res = i % 2 ? await send(agent, api(listing), { attribute, answer: i % 4 ? 'yes' : 'no' }) : await form(agent, listing, { attribute, answer: 'yes' });
      expect([i, res.status]).toEqual([i, i % 2 ? expect.any(Number) : 303]);
      expect(res.status).toBeLessThan(400);
    }
    const over = await send(agent, api(listing), { attribute: 'quiet_hours', answer: 'yes' });
    expect(over.status).toBe(429);
    expect((await form(agent, listing, { attribute: 'quiet_hours', answer: 'yes' })).status).toBe(429);
    // Another member has their own budget.
    const other = await memberAgent({ app: limited, ctx: t.ctx }, members[3].member);
    expect((await send(other, api(listing), { attribute: 'quiet_hours', answer: 'yes' })).status).toBe(201);
  });
});
