import { logCacheRefreshErrorsTo, type RefreshErrorLog } from '../cache/refresh-ahead';
import { COUNT_TTL_MS, REFRESH_AFTER_MS, cachedValue } from './count-cache';

// The cache in front of large counts and search rankings: kept values answer at once, a value
// read after REFRESH_AFTER_MS is recounted in the background (the reader does not wait), an
// expired one is recomputed once for everyone asking, and values not worth keeping are
// computed fresh for every caller.

const tick = () => new Promise((r) => setImmediate(r));

describe('cachedValue', () => {
  test('keeps large values, refreshes them ahead in the background, never serves past the TTL', async () => {
    const db = {};
    let calls = 0;
    const compute = async () => ++calls * 1000;
    const keep = (v: number) => v >= 1000;
    const t0 = Date.now();
    expect(await cachedValue(db, 'k', compute, { keep, now: t0 })).toBe(1000);
    expect(await cachedValue(db, 'k', compute, { keep, now: t0 + 1 })).toBe(1000);
    expect(calls).toBe(1);
    // Old enough to refresh: the reader gets the kept value, a recount runs behind it.
    expect(await cachedValue(db, 'k', compute, { keep, now: t0 + REFRESH_AFTER_MS + 1 })).toBe(1000);
    await tick();
    expect(calls).toBe(2);
    expect(await cachedValue(db, 'k', compute, { keep, now: Date.now() })).toBe(2000);
    // Past the TTL: recomputed before answering.
    expect(await cachedValue(db, 'k', compute, { keep, now: Date.now() + COUNT_TTL_MS + 1 })).toBe(3000);
  });

  test('an expired value is recomputed once for concurrent callers', async () => {
    const db = {};
    let calls = 0;
    let release: () => void = () => {};
    const compute = () => {
      calls += 1;
      return new Promise<number>((resolve) => (release = () => resolve(5000)));
    };
    const first = cachedValue(db, 'k', async () => 4000, { keep: () => true });
    expect(await first).toBe(4000);
    const later = Date.now() + COUNT_TTL_MS + 1;
    const waiting = [1, 2, 3].map(() => cachedValue(db, 'k', compute, { keep: () => true, now: later }));
    await tick();
    release();
    expect(await Promise.all(waiting)).toEqual([5000, 5000, 5000]);
    expect(calls).toBe(1);
  });

  test('small values are never kept or shared', async () => {
    const db = {};
    let calls = 0;
    const compute = async () => ++calls;
    const keep = (v: number) => v >= 1000;
    expect(await Promise.all([cachedValue(db, 'k', compute, { keep }), cachedValue(db, 'k', compute, { keep })])).toEqual([1, 2]);
    expect(await cachedValue(db, 'k', compute, { keep })).toBe(3);
  });

  test('a failed background refresh forgets the value instead of serving it', async () => {
    const logged: string[] = [];
    const before: RefreshErrorLog = logCacheRefreshErrorsTo({ warn: (details) => logged.push(details.cache) });
    try {
      const db = {};
      const t0 = Date.now();
      await cachedValue(db, 'k', async () => 1000, { keep: () => true, now: t0 });
      expect(await cachedValue(db, 'k', async () => Promise.reject(new Error('gone')), { keep: () => true, now: t0 + REFRESH_AFTER_MS + 1 })).toBe(1000);
      await tick();
      expect(await cachedValue(db, 'k', async () => 7, { keep: () => true, now: t0 + REFRESH_AFTER_MS + 2 })).toBe(7);
      // And says so in the log.
      expect(logged).toEqual(['large-counts']);
    } finally {
      logCacheRefreshErrorsTo(before);
    }
  });
});
