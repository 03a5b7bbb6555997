import request from 'supertest';
import type { z } from 'zod';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createListing, createListingType, createNeighbourhood, createVideo } from '../../testing/fixtures';
import {
  articleBookmarkSchema,
  eventBookmarkSchema,
  favouriteSchema,
  hubPrintedPageSchema,
  listingSchema,
  pageSchema,
  profileCountsSchema,
  profileSchema,
  ratingSchema,
  todoSchema,
  videoBookmarkSchema,
} from '../../../shared/dto-schemas';
import { createPayload, SAVE_KINDS } from '../../../shared/save-kinds';
import { send, signedIn } from '../../testing/signed-in-member';

// The contract the islands' fake answers are checked against (islands/common/fixtures-contract
// .test.ts): the real routes' answers parse with the same schemas of shared/dto-schemas.ts.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** Parses or fails the test naming the path and what did not match. */
function expectShape<T extends z.ZodType>(schema: T, body: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${where} answers a shape the islands do not expect:\n${JSON.stringify(parsed.error.issues, null, 2)}`);
  return parsed.data;
}

describe('the API answers the shapes of shared/dto-schemas.ts', () => {
  test('the member’s saved things, profile and counts (what the dashboard and saves islands read)', async () => {
    const db = t.ctx.db;
    const { agent } = await signedIn(t);
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const neighbourhood = await createNeighbourhood(db, { name: 'Kensington Market' });
    const listing = await createListing(db, { name: 'Seven Lives', type_id: typeId, neighbourhood_id: neighbourhood });
    const other = await createListing(db, { name: 'Pai', type_id: typeId });
    const objects = { favourites: listing, todos: other, ratings: listing, articleBookmarks: await createArticle(db), videoBookmarks: await createVideo(db), eventBookmarks: await createEvent(db) };
    for (const [kind, id] of Object.entries(objects) as Array<[keyof typeof objects, number]>) {
      const created = await send(agent, 'post', SAVE_KINDS[kind].path, createPayload(kind, id, 4));
      expect(created.status).toBe(201);
    }
    const todo = (await agent.get(SAVE_KINDS.todos.path)).body.results[0];
    await send(agent, 'patch', `${SAVE_KINDS.todos.path}${todo.id}/`, { is_done: true });

    const lists = [
      ['favourites', favouriteSchema],
      ['ratings', ratingSchema],
      ['articleBookmarks', articleBookmarkSchema],
      ['videoBookmarks', videoBookmarkSchema],
      ['eventBookmarks', eventBookmarkSchema],
    ] as const;
    for (const [kind, schema] of lists) {
      const res = await agent.get(SAVE_KINDS[kind].path);
      const page = expectShape(pageSchema(schema, { serverTime: SAVE_KINDS[kind].serverTime }), res.body, SAVE_KINDS[kind].path);
      expect(page.results).toHaveLength(1);
    }
    const done = await agent.get(`${SAVE_KINDS.todos.path}?completed=1`);
    expect(expectShape(pageSchema(todoSchema), done.body, 'todos?completed=1').results[0].is_done).toBe(true);
    expectShape(profileSchema, (await agent.get('/api/v2/profiles/me/')).body, '/api/v2/profiles/me/');
    const counts = expectShape(profileCountsSchema, (await agent.get('/api/v2/profiles/me/dashboard/')).body, '/api/v2/profiles/me/dashboard/');
    expect(counts.favourite_count).toBe(1);
  });

  test('listing search and the hub page’s first page (what the listing-search island reads)', async () => {
    const db = t.ctx.db;
    const typeId = await createListingType(db, { name: 'Bars', slug: 'bars' });
    await createListing(db, { name: 'Bar Raval', type_id: typeId });
    const api = await request(t.app).get('/api/v2/listings/?type=bars');
    expect(expectShape(pageSchema(listingSchema), api.body, '/api/v2/listings/').count).toBe(1);
    const hub = await request(t.app).get('/bars/');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(hub.text)![1]);
    expect(expectShape(hubPrintedPageSchema, state['listing-search'].results, 'the hub page').ids).toHaveLength(1);
  });
});
