import { apiRow, costOk, pageRow, parseServerTiming, type Measured } from './measure';

// The bench's judgement of its figures (scripts/bench/site.ts): what it reads from Server-Timing and
// which rows pass.
describe('bench figures', () => {
  test('reads the db metric of Server-Timing, alone or among others, and nothing else', () => {
    expect(parseServerTiming('db;desc="3 queries";dur=2.4')).toEqual({ queries: 3, dbMs: 2.4 });
    expect(parseServerTiming('render;dur=4, db;desc="6 queries";dur=19, total;dur=30')).toEqual({ queries: 6, dbMs: 19 });
    expect(parseServerTiming(null)).toBeNull();
    expect(parseServerTiming('render;dur=4')).toBeNull();
    expect(parseServerTiming('db;desc="3 queries"')).toBeNull();
  });

  test('an uncached render passes with at most 4 queries and 5 ms; a missing header is n/a', () => {
    expect(costOk({ queries: 4, dbMs: 5 })).toBe(true);
    expect(costOk({ queries: 5, dbMs: 1 })).toBe(false);
    expect(costOk({ queries: 2, dbMs: 5.1 })).toBe(false);
    expect(costOk(null)).toBeNull();
  });

  const m = (reqPerSec: number, p99: number, failed = 0): Measured => ({ reqPerSec, p50: 1, p99, failed, load: '' });
  const reference = m(1000, 10);

  test('pages: guests need 0.50x of the reference, members 0.30x and p99 under 100 ms', () => {
    expect(pageRow('guest home', m(500, 300), reference, 50, false)).toMatchObject({ ratio: 0.5, ok: true });
    expect(pageRow('guest home', m(499, 10), reference, 50, false).ok).toBe(false);
    expect(pageRow('member home', m(300, 99), reference, 50, true).ok).toBe(true);
    expect(pageRow('member home', m(300, 100), reference, 50, true).ok).toBe(false);
    expect(pageRow('member home', m(299, 10), reference, 50, true).ok).toBe(false);
  });

  test('APIs: p99 under 50 ms, and no failed request', () => {
    expect(apiRow('articles', m(100, 49), reference, 20).ok).toBe(true);
    expect(apiRow('articles', m(100, 50), reference, 20).ok).toBe(false);
    expect(apiRow('articles', m(100, 10, 1), reference, 20).ok).toBe(false);
  });
});
