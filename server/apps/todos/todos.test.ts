import { createTestContext, type Agent, type TestContext } from '../../testing/test-app';
import { createListing } from '../../testing/fixtures';
import { send, signedIn as signedInOn } from '../../testing/signed-in-member';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signedIn = () => signedInOn(t);
const addTodo = (agent: Agent, listing: number) => send(agent, 'post', '/api/v2/todos/', { listing });
const patchTodo = (agent: Agent, id: number, body: unknown) => send(agent, 'patch', `/api/v2/todos/${id}/`, body);
const listingIds = (res: { body: { results: Array<{ listing: { id: number } }> } }) => res.body.results.map((r) => r.listing.id);

/** Saves many to-dos straight in the table: the page-size tests need more rows than requests. */
async function insertTodos(profileId: number, n: number, isDone: boolean) {
  const typeId = (await t.ctx.db('listing_types').insert({ name: `Bulk ${profileId}-${isDone}`, slug: `bulk-${profileId}-${isDone}` }).returning('id'))[0].id;
  const listings = await t.ctx.db('listings')
    .insert(Array.from({ length: n }, (_, i) => ({ name: `Bulk ${i}`, slug: `bulk-${i}`, type_id: typeId })))
    .returning('id');
  await t.ctx.db('todos').insert(listings.map((l: { id: number }) => ({ profile_id: profileId, listing_id: l.id, is_done: isDone, date_completed: isDone ? new Date() : null })));
}

describe('to-dos', () => {
  test('a new to-do is open: in the default list, not in completed=1', async () => {
    const { agent } = await signedIn();
    const listing = await createListing(t.ctx.db);
    const created = await addTodo(agent, listing);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ is_done: false, date_completed: null, listing: { id: listing } });
    expect(listingIds(await agent.get('/api/v2/todos/'))).toEqual([listing]);
    expect(listingIds(await agent.get('/api/v2/todos/?completed=0'))).toEqual([listing]);
    expect((await agent.get('/api/v2/todos/?completed=1')).body.count).toBe(0);
  });

  test('PATCH is_done true moves it to the head of the completed list and stamps todos', async () => {
    const { id, agent } = await signedIn();
    const [first, second] = [await createListing(t.ctx.db), await createListing(t.ctx.db)];
    const a = await addTodo(agent, first);
    const b = await addTodo(agent, second);
    await patchTodo(agent, b.body.id, { is_done: true });
    const before = (await t.ctx.db('profiles').where({ id }).first('last_updates')).last_updates.todos;
    const done = await patchTodo(agent, a.body.id, { is_done: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: a.body.id, is_done: true, date_completed: expect.stringMatching(/T/) });
    expect((await agent.get('/api/v2/todos/')).body.count).toBe(0);
    expect(listingIds(await agent.get('/api/v2/todos/?completed=1'))).toEqual([first, second]);
    const after = (await t.ctx.db('profiles').where({ id }).first('last_updates')).last_updates.todos;
    expect(new Date(after).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
    // The listing stays in the map, so a place page still shows it on the list.
    expect(Object.keys((await agent.get('/api/v2/todos/listing_ids/')).body)).toEqual(expect.arrayContaining([String(first), String(second)]));
  });

  test('page sizes: 100 open to-dos, 15 completed ones', async () => {
    const { id, agent } = await signedIn();
    await insertTodos(id, 101, false);
    await insertTodos(id, 16, true);
    const open = await agent.get('/api/v2/todos/');
    expect([open.body.count, open.body.results.length]).toEqual([101, 100]);
    const completed = await agent.get('/api/v2/todos/?completed=1');
    expect([completed.body.count, completed.body.results.length]).toEqual([16, 15]);
    expect(new URL(completed.body.next).searchParams.get('completed')).toBe('1');
  });

  test('a completed to-do can be deleted from the completed list', async () => {
    const { agent } = await signedIn();
    const todo = await addTodo(agent, await createListing(t.ctx.db));
    await patchTodo(agent, todo.body.id, { is_done: true });
    expect((await send(agent, 'delete', `/api/v2/todos/${todo.body.id}/`)).status).toBe(204);
    expect((await agent.get('/api/v2/todos/?completed=1')).body.count).toBe(0);
  });

  test('a completed to-do can be rated, and the completed list shows the rating', async () => {
    const { agent } = await signedIn();
    const listing = await createListing(t.ctx.db);
    const todo = await addTodo(agent, listing);
    await patchTodo(agent, todo.body.id, { is_done: true });
    const rating = await send(agent, 'post', '/api/v2/ratings/', { listing, rating: 4 });
    expect(rating.status).toBe(201);
    const completed = await agent.get('/api/v2/todos/?completed=1');
    expect(completed.body.results[0].listing.user_rating).toEqual({ id: rating.body.id, rating: 4 });
  });

  test('bad PATCH bodies and bad completed values are 400s naming the field; others’ to-dos 404', async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const todo = await addTodo(owner.agent, await createListing(t.ctx.db));
    for (const body of [{}, { is_done: 'maybe' }, { is_done: 3 }, { is_done: null }, { is_done: 'x'.repeat(100_000) }]) {
      const res = await patchTodo(owner.agent, todo.body.id, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['is_done']);
    }
    const bad = await owner.agent.get('/api/v2/todos/?completed=2');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['completed']);
    const theirs = await patchTodo(other.agent, todo.body.id, { is_done: true });
    expect(theirs.status).toBe(404);
    expect((await t.ctx.db('todos').where({ id: todo.body.id }).first('is_done')).is_done).toBe(false);
  });
});
