import { RefreshAheadCache, logCacheRefreshErrorsTo, refreshAheadCacheNames, refreshAheadPerOwner, type RefreshAheadOptions, type RefreshErrorLog } from './refresh-ahead';

// The one refresh-ahead policy (refresh-ahead.ts), on a fake clock: a value is served for its
// TTL, a read past refreshAfterMs starts one background load and still answers at once, an
// expired value is loaded once for every reader waiting, a failed refresh is logged and
// forgets or keeps the value as the cache says, and the cache is bounded and invalidated by
// key or prefix.

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Lets settled promises run their callbacks (no timer involved). */
const settle = () => new Promise((r) => setImmediate(r));

function setUp(overrides: Partial<RefreshAheadOptions> = {}) {
  const clock = { t: 1_000_000 };
  const cache = new RefreshAheadCache<string>({
    name: 'test',
    ttlMs: 10_000,
    refreshAfterMs: 4_000,
    maxEntries: 100,
    onRefreshError: 'forget',
    shareFirstLoad: false,
    now: () => clock.t,
    ...overrides,
  });
  return { clock, cache };
}

/** A loader whose calls are counted and answer 'v1', 'v2', ... */
function counting() {
  let calls = 0;
  return {
    load: async () => `v${++calls}`,
    get calls() {
      return calls;
    },
  };
}

let logged: Array<{ details: Parameters<RefreshErrorLog['warn']>[0]; message: string }>;
let previousLog: RefreshErrorLog;
beforeEach(() => {
  logged = [];
  previousLog = logCacheRefreshErrorsTo({ warn: (details, message) => logged.push({ details, message }) });
});
afterEach(() => logCacheRefreshErrorsTo(previousLog));

test('a value is served for its TTL; past refreshAfterMs one background load replaces it while readers get the kept one', async () => {
  const { clock, cache } = setUp();
  const c = counting();
  expect(await cache.get('k', c.load)).toBe('v1');
  clock.t += 3_999;
  expect(await cache.get('k', c.load)).toBe('v1');
  expect(c.calls).toBe(1);
  clock.t += 1;
  const next = deferred<string>();
  let refreshes = 0;
  const slow = () => (refreshes++, next.promise);
  // Three readers at once: all answered from the kept value, one load behind them.
  expect(await Promise.all([1, 2, 3].map(() => cache.get('k', slow)))).toEqual(['v1', 'v1', 'v1']);
  expect(refreshes).toBe(1);
  next.resolve('v2');
  await settle();
  expect(await cache.get('k', c.load)).toBe('v2');
  expect(refreshes).toBe(1);
  expect(c.calls).toBe(1);
});

test('a value is never served past its TTL: the reader waits for a new one, which the readers meanwhile share', async () => {
  const { clock, cache } = setUp();
  await cache.get('k', async () => 'old');
  clock.t += 10_001;
  const next = deferred<string>();
  let loads = 0;
  const slow = () => (loads++, next.promise);
  const waiting = Promise.all([1, 2, 3].map(() => cache.get('k', slow)));
  await settle();
  next.resolve('new');
  expect(await waiting).toEqual(['new', 'new', 'new']);
  expect(loads).toBe(1);
});

test('a key never kept is loaded by each reader (its own writes) unless the cache shares first loads', async () => {
  const own = setUp().cache;
  const c1 = counting();
  expect(await Promise.all([own.get('k', c1.load), own.get('k', c1.load)])).toEqual(['v1', 'v2']);
  const shared = setUp({ shareFirstLoad: true }).cache;
  const c2 = counting();
  expect(await Promise.all([shared.get('k', c2.load), shared.get('k', c2.load)])).toEqual(['v1', 'v1']);
  expect(c2.calls).toBe(1);
});

test('a value not worth keeping is not kept', async () => {
  const { cache } = setUp();
  const c = counting();
  const keep = (v: string) => v === 'v3';
  expect(await cache.get('k', c.load, { keep })).toBe('v1');
  expect(await cache.get('k', c.load, { keep })).toBe('v2');
  expect(await cache.get('k', c.load, { keep })).toBe('v3');
  expect(await cache.get('k', c.load, { keep })).toBe('v3');
  expect(c.calls).toBe(3);
});

test("a failed refresh of a 'forget' cache is logged and drops the value: the next reader loads in its path", async () => {
  const { clock, cache } = setUp({ name: 'forgetful' });
  await cache.get('k', async () => 'v1');
  clock.t += 4_000;
  expect(await cache.get('k', async () => Promise.reject(new Error('database down')))).toBe('v1');
  await settle();
  expect(cache.has('k')).toBe(false);
  expect(logged).toHaveLength(1);
  expect(logged[0].details).toMatchObject({ cache: 'forgetful', key: 'k' });
  expect((logged[0].details.err as Error).message).toBe('database down');
  expect(await cache.get('k', async () => 'v2')).toBe('v2');
});

test("a failed refresh of a 'keep' cache is logged and keeps serving the value until its TTL ends, then loads in the reader's path", async () => {
  const { clock, cache } = setUp({ onRefreshError: 'keep' });
  await cache.get('k', async () => 'v1');
  clock.t += 4_000;
  const failing = async () => Promise.reject(new Error('database down'));
  expect(await cache.get('k', failing)).toBe('v1');
  await settle();
  expect(logged).toHaveLength(1);
  // Each read past refreshAfterMs tries again, in the background.
  clock.t += 5_999;
  expect(await cache.get('k', failing)).toBe('v1');
  await settle();
  expect(logged).toHaveLength(2);
  // The bound: past the TTL the kept value is gone and the reader gets the error itself.
  clock.t += 2;
  await expect(cache.get('k', failing)).rejects.toThrow('database down');
  expect(await cache.get('k', async () => 'v2')).toBe('v2');
});

test("a reader's fallback key is served, and its own key loaded once in the background, while its own has no value", async () => {
  const { cache } = setUp();
  await cache.get('18:00', async () => 'at 18:00');
  const next = deferred<string>();
  let loads = 0;
  const slow = () => (loads++, next.promise);
  expect(await Promise.all([1, 2].map(() => cache.get('18:01', slow, { fallbackKey: '18:00' })))).toEqual(['at 18:00', 'at 18:00']);
  expect(loads).toBe(1);
  next.resolve('at 18:01');
  await settle();
  expect(await cache.get('18:01', slow, { fallbackKey: '18:00' })).toBe('at 18:01');
  // A fallback that expired is never served.
  const { clock, cache: other } = setUp();
  await other.get('17:59', async () => 'stale');
  clock.t += 10_001;
  expect(await other.get('18:00', async () => 'fresh', { fallbackKey: '17:59' })).toBe('fresh');
});

test('a reader may age a value from its own "now"', async () => {
  const { clock, cache } = setUp();
  const c = counting();
  await cache.get('k', c.load, { now: clock.t - 9_000 });
  clock.t += 1_001;
  expect(await cache.get('k', c.load)).toBe('v2');
});

test('bounded: at most maxEntries keys, least recently used out first', async () => {
  const { cache } = setUp({ maxEntries: 2 });
  await cache.get('a', async () => 'A');
  await cache.get('b', async () => 'B');
  await cache.get('a', async () => 'not loaded');
  await cache.get('c', async () => 'C');
  expect(cache.size).toBe(2);
  expect(cache.has('a')).toBe(true);
  expect(cache.has('b')).toBe(false);
  expect(cache.has('c')).toBe(true);
});

test('invalidated by key or by key prefix', async () => {
  const { cache } = setUp();
  for (const k of ['list:1', 'list:2', 'search:1']) await cache.get(k, async () => k);
  cache.invalidate('search:1');
  expect(cache.has('search:1')).toBe(false);
  cache.invalidatePrefix('list:');
  expect(cache.size).toBe(0);
  expect(await cache.get('list:1', async () => 'new')).toBe('new');
});

test('one cache per owner, and every cache defined registers its catalogue name', async () => {
  const perOwner = refreshAheadPerOwner<string>({ name: 'per-owner-test', ttlMs: 1_000, refreshAfterMs: 500, maxEntries: 10, onRefreshError: 'forget', shareFirstLoad: false });
  expect(refreshAheadCacheNames().has('per-owner-test')).toBe(true);
  const one = {};
  await perOwner(one).get('k', async () => 'one');
  expect(perOwner(one)).toBe(perOwner(one));
  expect(await perOwner({}).get('k', async () => 'other')).toBe('other');
  expect(await perOwner(one).get('k', async () => 'reloaded')).toBe('one');
});
