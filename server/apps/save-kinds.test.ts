import { buildAppContext } from '../app-context';
import { createApp } from '../app';
import type { AppContext } from '../context';
import { createMember, createTestContext, guestAgent, memberAgent, type TestContext } from '../testing/test-app';
import { createArticle, createEvent, createListing, createVideo } from '../testing/fixtures';
import { send } from '../testing/signed-in-member';
import { SAVE_KIND_NAMES, type SaveKindName } from '../../shared/save-kinds';
import { defineSaveKind } from './saves/save-kind';
import { purgeDueAccounts } from './account-deletion/purge-job';

// The six save kinds are built once per context, by the registry (apps/index.ts appServices),
// and everything that uses a kind takes it from ctx.saveKinds: the saving APIs, the save a
// guest asked for before signing in, and the account purge. defineSaveKind is counted to see
// how often kinds are built; each kind is then swapped in a context for a proxy that counts its
// uses, which only code reading the context's kinds can touch.

jest.mock('./saves/save-kind', () => {
  const actual = jest.requireActual<typeof import('./saves/save-kind')>('./saves/save-kind');
  return { ...actual, defineSaveKind: jest.fn(actual.defineSaveKind) };
});
const built = defineSaveKind as unknown as jest.Mock;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;

/** The context with each kind behind a proxy that counts reads of its fields, by kind. */
function countingKinds(ctx: AppContext) {
  const uses = Object.fromEntries(SAVE_KIND_NAMES.map((n) => [n, 0])) as Record<SaveKindName, number>;
  const proxied = Object.fromEntries(
    SAVE_KIND_NAMES.map((n) => [n, new Proxy(ctx.saveKinds[n], { get: (kind, field, receiver) => ((uses[n] += 1), Reflect.get(kind, field, receiver)) })]),
  ) as unknown as AppContext['saveKinds'];
  const counted: AppContext = { ...ctx, saveKinds: proxied };
  const reset = () => SAVE_KIND_NAMES.forEach((n) => (uses[n] = 0));
  return { ctx: counted, uses, reset };
}

describe('save kinds', () => {
  test('are built once per context, by the registry, and not again when the app or a second app is built', async () => {
    // The test context built its context and app above: one of each kind.
    expect(built).toHaveBeenCalledTimes(SAVE_KIND_NAMES.length);
    expect(built.mock.calls.map((c) => c[0])).toEqual(SAVE_KIND_NAMES);
    const instances = built.mock.results.map((r) => r.value);
    expect(SAVE_KIND_NAMES.map((n) => t.ctx.saveKinds[n])).toEqual(instances);
    SAVE_KIND_NAMES.forEach((n, i) => expect(t.ctx.saveKinds[n]).toBe(instances[i]));

    t.rebuild();
    createApp(t.ctx, { watchManifest: false });
    expect(built).toHaveBeenCalledTimes(SAVE_KIND_NAMES.length);

    // Another context (another server process, a script) gets its own set, once.
    const other = buildAppContext(t.config, { db: t.ctx.db, kind: t.ctx.dbKind }, { mailer: t.ctx.mailer, storage: t.ctx.storage });
    expect(built).toHaveBeenCalledTimes(2 * SAVE_KIND_NAMES.length);
    expect(other.saveKinds.favourites).not.toBe(t.ctx.saveKinds.favourites);
  });

  test("the saving APIs, sign-in's remembered save and the account purge use the context's kinds", async () => {
    const counting = countingKinds(t.ctx);
    const app = createApp(counting.ctx, { watchManifest: false });
    const listing = await createListing(t.ctx.db);
    const [article, video, event] = [await createArticle(t.ctx.db), await createVideo(t.ctx.db), await createEvent(t.ctx.db)];

    // The saving APIs, one kind at a time: only that kind is touched.
    const member = await createMember(t.ctx);
    const agent = await memberAgent({ app, ctx: counting.ctx }, member);
    const saves: Array<[SaveKindName, string, object]> = [
      ['favourites', '/api/v2/favourites/', { listing }],
      ['todos', '/api/v2/todos/', { listing }],
      ['ratings', '/api/v2/ratings/', { listing, rating: 4 }],
      ['articleBookmarks', '/api/v2/article-bookmarks/', { object_id: article }],
      ['videoBookmarks', '/api/v2/video-bookmarks/', { video }],
      ['eventBookmarks', '/api/v2/event-bookmarks/', { object_id: event }],
    ];
    for (const [name, path, body] of saves) {
      counting.reset();
      expect([name, (await send(agent, 'post', path, body)).status]).toEqual([name, 201]);
      expect([name, (await agent.get(path)).body.count]).toEqual([name, 1]);
      expect(counting.uses[name]).toBeGreaterThan(0);
      expect(Object.entries(counting.uses).filter(([n, used]) => n !== name && used > 0)).toEqual([]);
    }

    // A guest's remembered save, made as they sign in.
    counting.reset();
    const guest = await createMember(t.ctx);
    const login = await send(guestAgent(app), 'post', '/api/v2/profiles/email-login/', {
      email: guest.email,
      password: guest.password,
      post_authenticate_action: 'add-favourite',
      object_id: listing,
    });
    expect(login.status).toBe(200);
    expect(await t.ctx.db('favourites').where({ profile_id: guest.id, listing_id: listing }).first('id')).toBeTruthy();
    expect(counting.uses.favourites).toBeGreaterThan(0);

    // The purge of the member's account deletes every kind's saves through the kind.
    const form = await agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, password: member.password, content: 'anonymise' });
    expect(form.status).toBe(303);
    counting.reset();
    const purged = await purgeDueAccounts({ ...counting.ctx, now: () => new Date(Date.now() + 8 * DAY) });
    expect(purged.map((p) => p.profileId)).toEqual([member.id]);
    for (const name of SAVE_KIND_NAMES) expect([name, counting.uses[name] > 0]).toEqual([name, true]);
    expect(await t.ctx.db('listings').where({ id: listing }).first('favourite_count')).toEqual({ favourite_count: 1 });
  });
});
