import { createTestContext, type Agent, type TestContext } from '../../testing/test-app';
import { createListing, createNeighbourhood } from '../../testing/fixtures';
import { send, signedIn as signedInOn } from '../../testing/signed-in-member';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signedIn = async () => (await signedInOn(t)).agent;
const favourite = (agent: Agent, listing: number) => send(agent, 'post', '/api/v2/favourites/', { listing });
const unfavourite = (agent: Agent, id: number) => send(agent, 'delete', `/api/v2/favourites/${id}/`);
const favouriteCount = async (id: number) => (await t.ctx.db('listings').where({ id }).first('favourite_count')).favourite_count;

describe('favourites', () => {
  test('the create answers the favourite with the listing as the islands read it', async () => {
    const agent = await signedIn();
    const neighbourhood = await createNeighbourhood(t.ctx.db, { name: 'Kensington Market' });
    const listing = await createListing(t.ctx.db, { name: 'Seven Lives', neighbourhood_id: neighbourhood });
    const res = await favourite(agent, listing);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      date_created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      listing: {
        id: listing,
        name: 'Seven Lives',
        share_url: expect.stringMatching(new RegExp(`/seven-lives-${listing}/$`)),
        default_neighborhood: { id: neighbourhood, name: 'Kensington Market' },
        coordinates: { latitude: 43.65, longitude: -79.39 },
        user_rating: null,
        favourite_count: 1,
      },
    });
  });

  test('listings.favourite_count follows favourites, once per member', async () => {
    const listing = await createListing(t.ctx.db);
    const a = await signedIn();
    const b = await signedIn();
    const saved = await favourite(a, listing);
    await favourite(a, listing);
    await favourite(b, listing);
    expect(await favouriteCount(listing)).toBe(2);
    await unfavourite(a, saved.body.id);
    await unfavourite(a, saved.body.id);
    expect(await favouriteCount(listing)).toBe(1);
  });

  test('lists 15 a page by default, newest first; listing_name sorts A–Z', async () => {
    const agent = await signedIn();
    const names = ['Banh Mi Boys', 'Aloette', 'Pai', 'Canoe', 'Dreyfus', 'Enoteca Sociale', 'Fat Pasha', 'Grey Gardens', 'Hanmoto', 'Issan Thai', 'Jules Cafe', 'Kojin', 'Lee', 'Mimi Chinese', 'Nodo', 'Osteria Giulia'];
    for (const name of names) await favourite(agent, await createListing(t.ctx.db, { name }));
    const page = await agent.get('/api/v2/favourites/');
    expect(page.body.count).toBe(16);
    expect(page.body.results).toHaveLength(15);
    expect(page.body.results[0].listing.name).toBe('Osteria Giulia');
    expect(new URL(page.body.next).searchParams.get('limit')).toBe('15');
    const az = await agent.get('/api/v2/favourites/?ordering=listing_name&limit=3');
    expect(az.body.results.map((f: { listing: { name: string } }) => f.listing.name)).toEqual(['Aloette', 'Banh Mi Boys', 'Canoe']);
  });

  test('a favourited place shows the member’s own rating of it', async () => {
    const agent = await signedIn();
    const listing = await createListing(t.ctx.db);
    await favourite(agent, listing);
    const rated = await send(agent, 'post', '/api/v2/ratings/', { listing, rating: 5 });
    const page = await agent.get('/api/v2/favourites/');
    expect(page.body.results[0].listing.user_rating).toEqual({ id: rated.body.id, rating: 5 });
  });
});
