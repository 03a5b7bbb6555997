import { createTestContext, guestAgent, type TestContext } from '../../testing/test-app';
import { createListing } from '../../testing/fixtures';

// A guest who signs up from a save control keeps that save (spec 2 §4's remembered action,
// carried through sign-up as through sign-in); the onboarding then returns to its page.
describe('sign-up with a remembered action', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const signup = (query: string, email: string) => {
    const agent = guestAgent(t.app);
    return agent.post(`/api/v2/profiles/email-registration/${query}`).set('X-CSRFToken', agent.csrfToken).send({ email, password: 'maple-streetcar-42' });
  };

  test('the remembered favourite is made for the new member', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Cafe Signup' });
    const res = await signup(`?post_authenticate_action=add-favourite&object_id=${listing}`, 'signup-fav@example.com');
    expect(res.status).toBe(201);
    const rows = await t.ctx.db('favourites').where({ profile_id: res.body.id });
    expect(rows.map((r) => r.listing_id)).toEqual([listing]);
  });

  test('without one, nothing is saved; a bad one is a 400 naming the field, and no account is made', async () => {
    const plain = await signup('', 'signup-plain@example.com');
    expect(plain.status).toBe(201);
    expect(await t.ctx.db('favourites').where({ profile_id: plain.body.id })).toEqual([]);
    const bad = await signup('?post_authenticate_action=launch-rocket&object_id=1', 'signup-bad@example.com');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['post_authenticate_action']);
    expect(await t.ctx.db('profiles').where({ email: 'signup-bad@example.com' }).first()).toBeUndefined();
  });
});
