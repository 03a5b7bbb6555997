import { cacheTallies, MemoryCache } from './memory-cache';

// The in-process cache behind every time-limited cache of the server: values expire after the
// TTL (measured by the injected clock), concurrent misses share one load, a failed load is not
// kept, and the cache holds at most maxEntries values and maxSize in all.

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

test('a value is served until its TTL has passed, by the injected clock', async () => {
  let clock = 1_000_000;
  const cache = new MemoryCache<string, number>({ ttlMs: 1_000, maxEntries: 10, now: () => clock });
  let loads = 0;
  const load = async () => ++loads;
  expect(await cache.load('k', load)).toBe(1);
  clock += 999;
  expect(await cache.load('k', load)).toBe(1);
  expect(cache.ageOf('k')).toBe(999);
  clock += 2;
  expect(cache.get('k')).toBeUndefined();
  expect(await cache.load('k', load)).toBe(2);
  // A caller may look at its own "now".
  expect(cache.get('k', clock + 500)).toBe(2);
  expect(cache.get('k', clock + 1_001)).toBeUndefined();
});

test('concurrent misses for one key share one load; other keys load on their own', async () => {
  const cache = new MemoryCache<string, string>({ ttlMs: 60_000, maxEntries: 10 });
  const pending = deferred<string>();
  let loads = 0;
  const load = () => {
    loads += 1;
    return pending.promise;
  };
  const waiting = [cache.load('k', load), cache.load('k', load), cache.load('k', load)];
  expect(cache.loading('k')).toBeDefined();
  const other = cache.load('other', async () => 'o');
  pending.resolve('v');
  expect(await Promise.all(waiting)).toEqual(['v', 'v', 'v']);
  expect(await other).toBe('o');
  expect(loads).toBe(1);
  expect(cache.loading('k')).toBeUndefined();
  expect(cache.get('k')).toBe('v');
});

test('a failed load is not kept: every waiter gets the error and the next call loads again', async () => {
  const cache = new MemoryCache<string, string>({ ttlMs: 60_000, maxEntries: 10 });
  const pending = deferred<string>();
  const failing = [cache.load('k', () => pending.promise), cache.load('k', () => pending.promise)];
  pending.reject(new Error('database down'));
  for (const f of failing) await expect(f).rejects.toThrow('database down');
  expect(cache.get('k')).toBeUndefined();
  expect(cache.loading('k')).toBeUndefined();
  // A loader that throws before it returns a promise fails the same way.
  await expect(
    cache.load('k', () => {
      throw new Error('sync');
    }),
  ).rejects.toThrow('sync');
  expect(await cache.load('k', async () => 'back')).toBe('back');
});

test('a refresh serves the stored value meanwhile; a value not worth keeping is not stored', async () => {
  const cache = new MemoryCache<string, number>({ ttlMs: 60_000, maxEntries: 10 });
  await cache.load('k', async () => 1);
  const pending = deferred<number>();
  const refreshing = cache.refresh('k', () => pending.promise);
  expect(cache.get('k')).toBe(1);
  expect(await cache.load('k', async () => 99)).toBe(1);
  pending.resolve(2);
  expect(await refreshing).toBe(2);
  expect(cache.get('k')).toBe(2);
  expect(await cache.refresh('k', async () => 3, { keep: (v) => v > 5 })).toBe(3);
  expect(cache.get('k')).toBeUndefined();
});

test('at most maxEntries values, least recently used out first', async () => {
  const cache = new MemoryCache<string, number>({ ttlMs: 60_000, maxEntries: 2 });
  cache.set('a', 1);
  cache.set('b', 2);
  expect(cache.get('a')).toBe(1); // a is now the most recently used
  cache.set('c', 3);
  expect(cache.size).toBe(2);
  expect(cache.get('b')).toBeUndefined();
  expect(cache.get('a')).toBe(1);
  expect(cache.get('c')).toBe(3);
});

test('at most maxSize in all: older values make room, a value larger than the bound is not kept', () => {
  const cache = new MemoryCache<string, string>({ ttlMs: 60_000, maxEntries: 100, maxSize: 10, sizeOf: (v) => v.length });
  cache.set('a', 'xxxx');
  cache.set('b', 'xxxx');
  cache.set('c', 'xxxx');
  expect(cache.calculatedSize).toBeLessThanOrEqual(10);
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('c')).toBe('xxxx');
  cache.set('c', 'x'.repeat(11));
  expect(cache.get('c')).toBeUndefined();
  expect(cache.get('b')).toBe('xxxx');
});

test('a value stored again keeps the age it is given', () => {
  let clock = 5_000;
  const cache = new MemoryCache<string, string>({ ttlMs: 1_000, maxEntries: 10, now: () => clock });
  cache.set('k', 'small');
  clock += 600;
  cache.set('k', 'larger copy', cache.storedAt('k'));
  expect(cache.ageOf('k')).toBe(600);
  clock += 401;
  expect(cache.get('k')).toBeUndefined();
});

test("a named cache counts its readers' look-ups under its name, every cache of the name together; peek is not counted", async () => {
  const tally = () => ({ ...(cacheTallies().get('test-tally') ?? { hits: 0, misses: 0 }) });
  const a = new MemoryCache<string, number>({ name: 'test-tally', ttlMs: 1_000, maxEntries: 10 });
  const b = new MemoryCache<string, number>({ name: 'test-tally', ttlMs: 1_000, maxEntries: 10 });
  const unnamed = new MemoryCache<string, number>({ ttlMs: 1_000, maxEntries: 10 });
  await a.load('k', async () => 1); // a miss, then stored
  await a.load('k', async () => 2); // a hit
  b.get('other'); // a miss
  a.peek('k');
  a.peek('nothing');
  a.countLookUp(true);
  unnamed.get('k');
  unnamed.countLookUp(false);
  expect(tally()).toEqual({ hits: 2, misses: 2 });
});
