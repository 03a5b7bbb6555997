import type session from 'express-session';
import { openTestDatabase } from '../../testing/test-db';
import { openUnreachableDatabase } from '../../testing/unreachable-db';
import type { DbHandle } from '../../db';
import { ServiceUnavailableError } from '../../http/errors';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { JOINED_MEMBER, KnexSessionStore, type JoinedPassport } from './session-store-queries';
import { findMemberById, MEMBER_COLUMNS } from '../profiles/member-queries';

const logger = { warn: jest.fn(), error: jest.fn() };
const HOUR = 3600_000;

function sessionData(expiresInMs: number, user = 1): session.SessionData {
  return { cookie: { originalMaxAge: expiresInMs, expires: new Date(Date.now() + expiresInMs), httpOnly: true, path: '/' }, passport: { user } } as unknown as session.SessionData;
}

/** Calls a store method and resolves with what it called back with, and what it returned. */
function called<T>(invoke: (cb: (err?: unknown, value?: T) => void) => unknown): Promise<{ err: unknown; value: T | undefined; returned: unknown }> {
  return new Promise((resolve) => {
    // The callback resolves on a later microtask, by which time `returned` is assigned.
    const cb = (err?: unknown, value?: T) => queueMicrotask(() => resolve({ err, value, returned }));
    const returned: unknown = invoke(cb);
  });
}

describe('KnexSessionStore on the test database', () => {
  let handle: DbHandle;
  let store: KnexSessionStore;
  beforeAll(async () => {
    handle = await openTestDatabase();
    store = new KnexSessionStore(handle.db, { touchIntervalMs: HOUR, cleanupIntervalMs: 0, logger });
  });
  afterAll(() => handle.close());

  test('stores, reads back, renews and destroys a session', async () => {
    const sess = sessionData(5 * 24 * HOUR, 42);
    expect((await called((cb) => store.set('s-1', sess, cb))).err).toBeNull();
    const read = await called<session.SessionData | null>((cb) => store.get('s-1', cb));
    expect(read.err).toBeNull();
    expect(read.value).toMatchObject({ passport: { user: 42 } });

    const later = sessionData(6 * 24 * HOUR, 42);
    expect((await called((cb) => store.touch('s-1', later, cb))).err).toBeNull();
    const row = await handle.db('sessions').where('sid', 's-1').first('expired');
    expect(new Date(row.expired).getTime()).toBe(new Date(later.cookie.expires as Date).getTime());

    expect((await called((cb) => store.destroy('s-1', cb))).err).toBeNull();
    expect((await called((cb) => store.get('s-1', cb))).value).toBeNull();
  });

  test('an expired session reads as none and a touch does not revive it', async () => {
    await handle.db('sessions').insert({ sid: 's-old', sess: JSON.stringify(sessionData(1000)), expired: new Date(Date.now() - 1000) });
    expect((await called((cb) => store.get('s-old', cb))).value).toBeNull();
    await called((cb) => store.touch('s-old', sessionData(HOUR), cb));
    expect(new Date((await handle.db('sessions').where('sid', 's-old').first('expired')).expired).getTime()).toBeLessThan(Date.now());
  });

  test('with a member join, reads the active member with the session, and never writes it back', async () => {
    const joining = new KnexSessionStore(handle.db, { touchIntervalMs: HOUR, cleanupIntervalMs: 0, logger, member: { columns: MEMBER_COLUMNS } });
    const [{ id }] = await handle.db('profiles').insert({ email: 'joined@example.com', full_name: 'Jane Joined' }).returning('id');
    await called((cb) => joining.set('s-join', sessionData(HOUR, id), cb));
    const read = await called<session.SessionData | null>((cb) => joining.get('s-join', cb));
    const passport = (read.value as unknown as { passport: JoinedPassport }).passport;
    // Exactly what passport's own look-up would have answered.
    expect(passport[JOINED_MEMBER]).toEqual(await findMemberById(handle.db, id));
    expect(JSON.stringify(read.value)).not.toContain('Jane Joined');
    await called((cb) => joining.set('s-join', read.value!, cb));
    expect(JSON.stringify((await handle.db('sessions').where('sid', 's-join').first('sess')).sess)).not.toContain('Jane Joined');

    // A deactivated member, or a session naming nobody who exists: joined as nobody (null).
    await handle.db('profiles').where({ id }).update({ is_active: false });
    const closed = await called<session.SessionData | null>((cb) => joining.get('s-join', cb));
    expect((closed.value as unknown as { passport: JoinedPassport }).passport[JOINED_MEMBER]).toBeNull();
    // A user that is not a number (no session of ours has one) joins nobody and reads fine.
    await handle.db('sessions').insert({ sid: 's-odd', sess: JSON.stringify({ ...sessionData(HOUR), passport: { user: "1; drop table sessions" } }), expired: new Date(Date.now() + HOUR) });
    const odd = await called<session.SessionData | null>((cb) => joining.get('s-odd', cb));
    expect(odd.err).toBeNull();
    expect((odd.value as unknown as { passport: JoinedPassport }).passport[JOINED_MEMBER]).toBeNull();
  });

  test('renews a row at most once per interval and process', async () => {
    await called((cb) => store.set('s-2', sessionData(HOUR), cb));
    const first = sessionData(2 * HOUR);
    await called((cb) => store.touch('s-2', first, cb));
    await called((cb) => store.touch('s-2', sessionData(3 * HOUR), cb));
    const row = await handle.db('sessions').where('sid', 's-2').first('expired');
    expect(new Date(row.expired).getTime()).toBe(new Date(first.cookie.expires as Date).getTime());
  });
});

describe('KnexSessionStore while the database is away', () => {
  let handle: DbHandle;
  let store: KnexSessionStore;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeAll(async () => {
    handle = await openUnreachableDatabase();
    store = new KnexSessionStore(handle.db, { touchIntervalMs: HOUR, cleanupIntervalMs: 0, logger });
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await handle.close();
  });

  // connect-session-knex called back with the error and then rejected the promise it returned,
  // which express-session ignores: Node exited on the unhandled rejection.
  test.each([
    ['get', (cb: (err?: unknown) => void) => store.get('sid', cb)],
    ['set', (cb: (err?: unknown) => void) => store.set('sid', sessionData(HOUR), cb)],
    ['touch', (cb: (err?: unknown) => void) => store.touch('sid-touch', sessionData(HOUR), cb)],
    ['destroy', (cb: (err?: unknown) => void) => store.destroy('sid', cb)],
  ])('%s calls back with a 503 and leaves no promise to reject', async (_name, invoke) => {
    const { err, returned } = await called(invoke);
    expect(returned).toBeUndefined();
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).status).toBe(503);
    expect(isDatabaseUnavailable((err as Error).cause)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
  });
});
