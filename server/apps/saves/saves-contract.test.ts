import request from 'supertest';
import type { Db } from '../../db';
import { createTestContext, guestAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createListing, createVideo } from '../../testing/fixtures';
import { send, signedIn as signedInOn } from '../../testing/signed-in-member';
import { createPayload, SAVE_KINDS, type SaveKindName } from '../../../shared/save-kinds';

// The rules every kind of saved thing keeps (spec 1 §4, §7, DESIGN "The API contract"),
// checked once per kind: favourites, to-dos, ratings, article, video and event bookmarks.

/** A saved item as the list answers it: its object nested under the kind's field. */
type SavedItem = Record<string, { id: number }>;

interface KindCase {
  name: string;
  path: string;
  table: string;
  objectColumn: string;
  field: string;
  idsPath: string;
  stamp: string;
  make(db: Db): Promise<number>;
  body(objectId: number): Record<string, unknown>;
  /** Where the list's nested object keeps its id. */
  nestedId(item: SavedItem): number;
  /** The orderings of the dashboard's sort tabs for this list. */
  sortTabs: string[];
}

// Paths, payload fields, id maps and stamps are the shared registry's, which the islands use.
const kindCase = (name: SaveKindName, table: string, objectColumn: string, make: (db: Db) => Promise<number>, nestedId: (i: SavedItem) => number): KindCase => {
  const rules = SAVE_KINDS[name];
  return {
    name, path: rules.path, table, objectColumn, field: rules.objectField, idsPath: rules.idsPath, stamp: rules.lastUpdateKey, make, nestedId,
    body: (id) => ({ ...createPayload(name, id, 4) }),
    sortTabs: rules.sortTabs.map((t) => t.ordering),
  };
};

const KINDS: KindCase[] = [
  kindCase('favourites', 'favourites', 'listing_id', (db) => createListing(db), (i) => i.listing.id),
  kindCase('todos', 'todos', 'listing_id', (db) => createListing(db), (i) => i.listing.id),
  kindCase('ratings', 'ratings', 'listing_id', (db) => createListing(db), (i) => i.listing.id),
  kindCase('articleBookmarks', 'article_bookmarks', 'article_id', (db) => createArticle(db), (i) => i.article.id),
  kindCase('videoBookmarks', 'video_bookmarks', 'video_id', (db) => createVideo(db), (i) => i.video.id),
  kindCase('eventBookmarks', 'event_bookmarks', 'event_id', (db) => createEvent(db), (i) => i.event.id),
];

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const signedIn = () => signedInOn(t);
const post = (agent: Agent, path: string) => send(agent, 'post', path);
const del = (agent: Agent, path: string) => send(agent, 'delete', path);

async function stampOf(profileId: number, kind: string): Promise<string | undefined> {
  const row = await t.ctx.db('profiles').where({ id: profileId }).first('last_updates');
  return (row.last_updates as Record<string, string>)[kind];
}

describe.each(KINDS)('$name', (kind) => {
  test('answers 401 with a detail to guests, for every method', async () => {
    const guest = request(t.app);
    for (const res of [await guest.get(kind.path), await guest.get(kind.path + kind.idsPath), await guest.get(`${kind.path}1/`)]) {
      expect(res.status).toBe(401);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    const anonymous = guestAgent(t.app);
    const create = await post(anonymous, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    expect(create.status).toBe(401);
    expect(create.body.detail).toEqual(expect.any(String));
    expect((await del(anonymous, `${kind.path}1/`)).status).toBe(401);
    expect(await t.ctx.db(kind.table).count({ n: '*' }).first()).toBeDefined();
  });

  test('creates with 201, and saving again answers the same row with 200', async () => {
    const { id, agent } = await signedIn();
    const objectId = await kind.make(t.ctx.db);
    const first = await post(agent, kind.path).send(kind.body(objectId));
    expect(first.status).toBe(201);
    expect(first.body.id).toEqual(expect.any(Number));
    expect(kind.nestedId(first.body)).toBe(objectId);
    const again = await post(agent, kind.path).send(kind.body(objectId));
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.ctx.db(kind.table).where({ profile_id: id }).count({ n: '*' }).first()).toEqual({ n: 1 });
    const one = await agent.get(`${kind.path}${first.body.id}/`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(first.body.id);
  });

  test('concurrent saves of the same object leave exactly one row', async () => {
    const { id, agent } = await signedIn();
    const objectId = await kind.make(t.ctx.db);
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(agent, kind.path).send(kind.body(objectId))));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    const rows = await t.ctx.db(kind.table).where({ profile_id: id, [kind.objectColumn]: objectId });
    expect(rows).toHaveLength(1);
  });

  test('lists only the member’s own saves, with the nested object and the map of ids', async () => {
    const me = await signedIn();
    const other = await signedIn();
    const mine = await kind.make(t.ctx.db);
    const theirs = await kind.make(t.ctx.db);
    const saved = await post(me.agent, kind.path).send(kind.body(mine));
    await post(other.agent, kind.path).send(kind.body(theirs));
    const list = await me.agent.get(kind.path);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results.map(kind.nestedId)).toEqual([mine]);
    expect(list.headers['cache-control']).toBe('no-store');
    const ids = await me.agent.get(kind.path + kind.idsPath);
    expect(ids.status).toBe(200);
    expect(Object.keys(ids.body)).toEqual([String(mine)]);
    const value = ids.body[String(mine)];
    expect(typeof value === 'number' ? value : value.id).toBe(saved.body.id);
  });

  test('every change moves the kind’s last_updates stamp', async () => {
    const { id, agent } = await signedIn();
    expect(await stampOf(id, kind.stamp)).toBeUndefined();
    const created = await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    const afterCreate = await stampOf(id, kind.stamp);
    expect(afterCreate).toEqual(expect.any(String));
    await new Promise((r) => setTimeout(r, 5));
    expect((await del(agent, `${kind.path}${created.body.id}/`)).status).toBe(204);
    const afterDelete = await stampOf(id, kind.stamp);
    expect(new Date(afterDelete!).getTime()).toBeGreaterThan(new Date(afterCreate!).getTime());
  });

  test('deletes the member’s save with 204, then answers 404', async () => {
    const { id, agent } = await signedIn();
    const created = await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    expect((await del(agent, `${kind.path}${created.body.id}/`)).status).toBe(204);
    expect(await t.ctx.db(kind.table).where({ profile_id: id })).toHaveLength(0);
    const again = await del(agent, `${kind.path}${created.body.id}/`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Not found.' });
  });

  test('another member’s save answers 404 and stays saved', async () => {
    const owner = await signedIn();
    const intruder = await signedIn();
    const created = await post(owner.agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    expect((await intruder.agent.get(`${kind.path}${created.body.id}/`)).status).toBe(404);
    const attempt = await del(intruder.agent, `${kind.path}${created.body.id}/`);
    expect(attempt.status).toBe(404);
    expect(attempt.body).toEqual({ detail: 'Not found.' });
    expect(await t.ctx.db(kind.table).where({ id: created.body.id })).toHaveLength(1);
  });

  test('bad create payloads are 400s naming the field, and lose nothing already saved', async () => {
    const { id, agent } = await signedIn();
    await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    const valid = kind.body(1);
    const cases: Array<[unknown, string]> = [
      [{}, 'This field is required.'],
      [{ ...valid, [kind.field]: 'abc' }, 'Incorrect type'],
      [{ ...valid, [kind.field]: { id: 1 } }, 'Incorrect type'],
      [{ ...valid, [kind.field]: true }, 'Incorrect type'],
      [{ ...valid, [kind.field]: 1.5 }, 'Incorrect type'],
      [{ ...valid, [kind.field]: 'x'.repeat(200_000) }, 'Incorrect type'],
      [{ ...valid, [kind.field]: -3 }, 'object does not exist'],
      [{ ...valid, [kind.field]: 99_999_999_999 }, 'object does not exist'],
      [{ ...valid, [kind.field]: 999_999 }, 'Invalid pk "999999" - object does not exist.'],
    ];
    for (const [body, message] of cases) {
      const res = await post(agent, kind.path).send(body as object);
      expect(res.status).toBe(400);
      expect(res.body[kind.field]?.[0]).toContain(message);
    }
    const array = await post(agent, kind.path).send([1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.non_field_errors).toBeDefined();
    const badJson = await post(agent, kind.path).set('Content-Type', 'application/json').send('{"listing": ');
    expect(badJson.status).toBe(400);
    expect(badJson.body.detail).toMatch(/JSON parse error/);
    expect(await t.ctx.db(kind.table).where({ profile_id: id })).toHaveLength(1);
  });

  test('bad list parameters are 400s naming the parameter, and ids that are not ids 404s', async () => {
    const { agent } = await signedIn();
    const cases: Array<[string, string]> = [
      ['?limit=-1', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=0', 'limit'],
      ['?limit=100000', 'limit'],
      ['?offset=-5', 'offset'],
      ['?offset=1e3', 'offset'],
      ['?ordering=password', 'ordering'],
      ['?ordering=' + 'x'.repeat(5000), 'ordering'],
      ['?ordering=a&ordering=b', 'ordering'],
    ];
    for (const [query, field] of cases) {
      const res = await agent.get(kind.path + query);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    // An id that is not one (or that no integer column could hold) names nothing: 404, as DRF.
    for (const id of ['abc', '-1', '0', '1.5', '2147480000', '2147483648', '99999999999', '123456789012345678901']) {
      expect((await agent.get(`${kind.path}${id}/`)).body).toEqual({ detail: 'Not found.' });
      expect((await del(agent, `${kind.path}${id}/`)).status).toBe(404);
    }
  });

  test('accepts the ordering of each of its dashboard sort tabs', async () => {
    const { agent } = await signedIn();
    await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    for (const ordering of kind.sortTabs) {
      const res = await agent.get(`${kind.path}?ordering=${encodeURIComponent(ordering)}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(1);
    }
  });

  test('pages with limit and offset, newest save first by default', async () => {
    const { agent } = await signedIn();
    const objects: number[] = [];
    for (let i = 0; i < 3; i++) {
      objects.push(await kind.make(t.ctx.db));
      await post(agent, kind.path).send(kind.body(objects[i]));
    }
    const first = await agent.get(`${kind.path}?limit=2`);
    expect(first.body.count).toBe(3);
    expect(first.body.results.map(kind.nestedId)).toEqual([objects[2], objects[1]]);
    expect(new URL(first.body.next).searchParams.get('offset')).toBe('2');
    const second = await agent.get(`${kind.path}?limit=2&offset=2`);
    expect(second.body.results.map(kind.nestedId)).toEqual([objects[0]]);
    expect(second.body.next).toBeNull();
    const past = await agent.get(`${kind.path}?offset=50`);
    expect(past.body).toMatchObject({ count: 3, results: [] });
  });

  test('a page costs the same number of queries whatever its size (no query per row)', async () => {
    const { agent } = await signedIn();
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    const measure = async () => {
      queries.length = 0;
      t.ctx.db.on('query', count);
      const res = await agent.get(kind.path);
      t.ctx.db.removeListener('query', count);
      expect(res.status).toBe(200);
      return queries.length;
    };
    await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    const withOne = await measure();
    for (let i = 0; i < 5; i++) await post(agent, kind.path).send(kind.body(await kind.make(t.ctx.db)));
    const withSix = await measure();
    expect(withSix).toBe(withOne);
  });
});
