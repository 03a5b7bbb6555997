import { createListing, createListingType } from '../../testing/fixtures';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { purgeDueAccounts } from './purge-job';

// Edits a member suggested to places (issue 39, place-suggestions) go with their account when
// it is purged, pending or decided; another member's stay.

const DAY = 86_400_000;

describe("a member's suggested edits to places", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('are deleted with their account', async () => {
    const typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    const id = await createListing(t.ctx.db, { type_id: typeId, phone: '416-555-0100' });
    const leaving = await createMember(t.ctx);
    const staying = await createMember(t.ctx);
    const agent = await memberAgent(t, leaving);
    const suggest = (a: typeof agent, fields: Record<string, string>) => a.post(`/places/${id}/suggest/`).type('form').send({ csrfmiddlewaretoken: a.csrfToken, ...fields });
    expect((await suggest(agent, { kind: 'phone', phone: '416-555-0199' })).status).toBe(303);
    expect((await suggest(agent, { kind: 'closed', note: 'boarded up' })).status).toBe(303);
    await t.ctx.db('place_suggestions').where({ member_id: leaving.id, kind: 'closed' }).update({ status: 'dismissed' });
    expect((await suggest(await memberAgent(t, staying), { kind: 'name', name: 'Other Name' })).status).toBe(303);

    const requested = new Date();
    const del = await agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, password: leaving.password, content: 'remove' });
    expect(del.status).toBe(303);
    const purged = await purgeDueAccounts({ ...t.ctx, now: () => new Date(requested.getTime() + 7 * DAY + 60_000) });
    expect(purged.map((p) => p.profileId)).toEqual([leaving.id]);
    expect(await t.ctx.db('place_suggestions').where({ member_id: leaving.id })).toHaveLength(0);
    expect(await t.ctx.db('place_suggestions').where({ listing_id: id })).toHaveLength(1);
    expect(await t.ctx.db('place_suggestions').where({ member_id: staying.id })).toHaveLength(1);
  });
});
