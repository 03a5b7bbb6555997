import { createTestContext, type Agent, type TestContext } from '../../testing/test-app';
import request from 'supertest';
import { createListing, createListingType } from '../../testing/fixtures';
import { send, signedIn as signedInOn } from '../../testing/signed-in-member';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signedIn = async () => (await signedInOn(t)).agent;
const rate = (agent: Agent, listing: number, rating: unknown) => send(agent, 'post', '/api/v2/ratings/', { listing, rating });
const patchRating = (agent: Agent, id: number, body: unknown) => send(agent, 'patch', `/api/v2/ratings/${id}/`, body);
const listingScores = (id: number) => t.ctx.db('listings').where({ id }).first('rating', 'rating_count', 'rating_rank', 'smart_review_score');

describe('ratings', () => {
  beforeEach(() => t.ctx.db('ratings').delete());

  test('ratings set the listing’s average, count and smart review score', async () => {
    const [a, b] = [await createListing(t.ctx.db), await createListing(t.ctx.db)];
    await rate(await signedIn(), b, 1);
    await rate(await signedIn(), a, 5);
    const last = await rate(await signedIn(), a, 4);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ rating: 4, listing: { id: a, rating: 4.5 } });
    const scores = await listingScores(a);
    expect(scores).toMatchObject({ rating: 4.5, rating_count: 2 });
    expect(scores.rating_rank).toBeCloseTo((5 * 3.5 + 9) / 7, 6);
    // Both ratings are from the last year: the smart score is lifted by the full 10%.
    expect(scores.smart_review_score).toBeCloseTo(((5 * 3.5 + 9) / 7) * 1.1, 6);
  });

  test('the RATING ordering needs several votes: one 5-star vote ranks below six 4-star votes', async () => {
    const type_id = await createListingType(t.ctx.db, { name: 'Ranked', slug: 'ranked' });
    const lucky = await createListing(t.ctx.db, { name: 'One Lucky Vote', type_id });
    const steady = await createListing(t.ctx.db, { name: 'Steady Favourite', type_id });
    const unrated = await createListing(t.ctx.db, { name: 'Nobody Yet', type_id });
    await rate(await signedIn(), lucky, 5);
    for (let i = 0; i < 6; i++) await rate(await signedIn(), steady, 4);
    const res = await request(t.app).get('/api/v2/listings/?type=ranked&ordering=-rating');
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([steady, lucky, unrated]);
    // The stars shown stay the plain average.
    expect(res.body.results.map((r: { rating: number | null }) => r.rating)).toEqual([4, 5, null]);
  });

  test('rating again changes the existing rating and answers it with 200', async () => {
    const agent = await signedIn();
    const listing = await createListing(t.ctx.db);
    const first = await rate(agent, listing, 2);
    const again = await rate(agent, listing, 5);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, rating: 5 });
    expect(await listingScores(listing)).toMatchObject({ rating: 5, rating_count: 1 });
  });

  test('PATCH changes the rating; GET /{id}/ and listing_ids show the new value', async () => {
    const agent = await signedIn();
    const listing = await createListing(t.ctx.db);
    const created = await rate(agent, listing, 3);
    const patched = await patchRating(agent, created.body.id, { rating: 1 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, rating: 1, listing: { rating: 1, user_rating: { id: created.body.id, rating: 1 } } });
    expect((await agent.get(`/api/v2/ratings/${created.body.id}/`)).body.rating).toBe(1);
    expect((await agent.get('/api/v2/ratings/listing_ids/')).body).toEqual({ [String(listing)]: { id: created.body.id, rating: 1 } });
  });

  test('deleting the only rating leaves the listing unrated', async () => {
    const agent = await signedIn();
    const listing = await createListing(t.ctx.db);
    const created = await rate(agent, listing, 4);
    expect((await send(agent, 'delete', `/api/v2/ratings/${created.body.id}/`)).status).toBe(204);
    expect(await listingScores(listing)).toEqual({ rating: null, rating_count: 0, rating_rank: null, smart_review_score: 0 });
  });

  test('ratings outside 1–5 are 400s naming rating, on create and on PATCH', async () => {
    const agent = await signedIn();
    const listing = await createListing(t.ctx.db);
    for (const value of [0, 6, -1, 4.5, 'five', '', null, true, 'x'.repeat(100_000), undefined]) {
      const res = await rate(agent, listing, value);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['rating']);
    }
    const created = await rate(agent, listing, '3');
    expect(created.body.rating).toBe(3);
    const bad = await patchRating(agent, created.body.id, { rating: 9 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['rating']);
    expect((await patchRating(agent, created.body.id, {})).body).toEqual({ rating: ['This field is required.'] });
    expect(await listingScores(listing)).toMatchObject({ rating: 3, rating_count: 1 });
  });

  test('another member’s rating cannot be changed', async () => {
    const owner = await signedIn();
    const created = await rate(owner, await createListing(t.ctx.db), 5);
    const res = await patchRating(await signedIn(), created.body.id, { rating: 1 });
    expect(res.status).toBe(404);
    expect((await t.ctx.db('ratings').where({ id: created.body.id }).first('rating')).rating).toBe(5);
  });

  test('members rating one place at the same moment are all counted', async () => {
    const listing = await createListing(t.ctx.db);
    const agents = await Promise.all(Array.from({ length: 8 }, () => signedIn()));
    const values = [1, 2, 3, 4, 5, 5, 4, 3];
    const responses = await Promise.all(agents.map((agent, i) => rate(agent, listing, values[i])));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(await listingScores(listing)).toMatchObject({ rating_count: 8, rating: Math.round((27 / 8) * 100) / 100 });
  });
});
