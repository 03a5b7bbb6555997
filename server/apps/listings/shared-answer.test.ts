import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createListingType } from '../../testing/fixtures';
import { KEEP_ANSWERS_FROM } from '../../db/answer-cache';

// A large listing search is kept a few seconds and shared (db/answer-cache.ts); what is
// personal, the member's own rating of each listing, is added to it per request. Nobody may
// see another's rating, and the kept answer must not change under anyone.
describe('listing search shared by everybody, with each member’s own ratings', () => {
  let t: TestContext;
  const many = KEEP_ANSWERS_FROM + 10;
  let first: number;
  let second: number;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    await db.raw(
      `insert into listings (name, slug, type_id, address, latitude, longitude)
       select 'Place ' || lpad(i::text, 5, '0'), 'place-' || i, ?, i || ' Queen St W', 43.65, -79.39 from generate_series(1, ?) as i`,
      [typeId, many],
    );
    [first, second] = await db('listings').orderBy('name').limit(2).pluck('id');
  });
  afterAll(() => t.close());

  const strip = (body: { results: Array<Record<string, unknown>> }) => body.results.map(({ user_rating: _, ...rest }) => rest);

  test('guests, and members with and without ratings, each get their own user_rating on the same page', async () => {
    const rater = await createMember(t.ctx);
    const other = await createMember(t.ctx);
    const [rating] = await t.ctx.db('ratings').insert({ profile_id: rater.id, listing_id: first, rating: 4 }).returning('id');

    const guest = await request(t.app).get('/api/v2/listings/');
    expect(guest.status).toBe(200);
    expect(guest.body.count).toBe(many);
    expect(guest.body.results[0]).toMatchObject({ id: first, user_rating: null });

    const mine = await (await memberAgent(t, rater)).get('/api/v2/listings/');
    expect(mine.body.results[0]).toMatchObject({ id: first, user_rating: { id: Number(rating.id ?? rating), rating: 4 } });
    expect(mine.body.results[1]).toMatchObject({ id: second, user_rating: null });

    const theirs = await (await memberAgent(t, other)).get('/api/v2/listings/');
    expect(theirs.body.results[0]).toMatchObject({ id: first, user_rating: null });

    // The same answer otherwise, and the guest's is still a guest's after the members asked.
    expect(strip(mine.body)).toEqual(strip(guest.body));
    expect(strip(theirs.body)).toEqual(strip(guest.body));
    const guestAgain = await request(t.app).get('/api/v2/listings/');
    expect(guestAgain.body.results[0]).toMatchObject({ id: first, user_rating: null });
  });

  test('the simple bundle carries no user_rating for anybody', async () => {
    const member = await createMember(t.ctx);
    await t.ctx.db('ratings').insert({ profile_id: member.id, listing_id: second, rating: 2 });
    const res = await (await memberAgent(t, member)).get('/api/v2/listings/?bundle_type=simple');
    expect(res.status).toBe(200);
    expect(res.body.results[1].id).toBe(second);
    expect(res.body.results[1]).not.toHaveProperty('user_rating');
  });

  test('a member’s new rating shows at once in the kept answer', async () => {
    const member = await createMember(t.ctx);
    const agent = await memberAgent(t, member);
    expect((await agent.get('/api/v2/listings/')).body.results[1]).toMatchObject({ id: second, user_rating: null });
    const [rating] = await t.ctx.db('ratings').insert({ profile_id: member.id, listing_id: second, rating: 5 }).returning('id');
    expect((await agent.get('/api/v2/listings/')).body.results[1]).toMatchObject({ id: second, user_rating: { id: Number(rating.id ?? rating), rating: 5 } });
  });
});
