import type { Options } from 'express-rate-limit';
import { createTestContext, type TestContext } from '../testing/test-app';
import { DatabaseRateLimitStore } from './rate-limit-store';

// The rate-limit store on a real database: two instances stand for two processes of one
// deployment. Windows are ended by moving reset_at into the past with SQL, never by sleeping.

describe('DatabaseRateLimitStore', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const store = (prefix: string, windowMs = 60_000) => {
    const s = new DatabaseRateLimitStore(t.ctx.db, prefix);
    s.init({ windowMs } as Options);
    return s;
  };
  const endWindow = (key: string) =>
    t.ctx.db.raw(`update rate_limits set reset_at = now() - interval '1 second' where key = ?`, [key]);
  const rowCount = async (key: string) =>
    (await t.ctx.db.raw<{ rows: Array<{ n: number }> }>('select count(*)::int as n from rate_limits where key = ?', [key])).rows[0].n;

  test('two instances with the same prefix count on the same counter, as two processes would', async () => {
    const a = store('shared:');
    const b = store('shared:');
    const first = await a.increment('1.2.3.4');
    expect(first.totalHits).toBe(1);
    expect((await b.increment('1.2.3.4')).totalHits).toBe(2);
    expect((await a.increment('1.2.3.4')).totalHits).toBe(3);
    const seen = await b.get('1.2.3.4');
    expect(seen?.totalHits).toBe(3);
    // One window for both: its end was fixed by the first hit, about windowMs from now.
    expect(seen?.resetTime?.getTime()).toBe(first.resetTime?.getTime());
    const left = first.resetTime!.getTime() - Date.now();
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(65_000);
    expect(a.localKeys).toBe(false);
    expect(a.prefix).toBe('shared:');
  });

  test('a hit after the window has ended starts a new window', async () => {
    const s = store('window:', 1000);
    await s.increment('k');
    await s.increment('k');
    await endWindow('window:k');
    expect(await s.get('k')).toBeUndefined();
    const next = await s.increment('k');
    expect(next.totalHits).toBe(1);
    expect(next.resetTime!.getTime()).toBeGreaterThan(Date.now() - 5000);
    expect((await s.increment('k')).totalHits).toBe(2);
  });

  test('decrement takes a hit back and never goes below 0', async () => {
    const s = store('decrement:');
    await s.increment('k');
    await s.increment('k');
    await s.decrement('k');
    expect((await s.get('k'))?.totalHits).toBe(1);
    await s.decrement('k');
    await s.decrement('k');
    await s.decrement('k');
    expect((await s.get('k'))?.totalHits).toBe(0);
    expect((await s.increment('k')).totalHits).toBe(1);
    await s.decrement('never-counted');
    expect(await s.get('never-counted')).toBeUndefined();
  });

  test('resetKey forgets one client only', async () => {
    const s = store('reset:');
    await s.increment('a');
    await s.increment('a');
    await s.increment('b');
    await s.resetKey('a');
    expect(await s.get('a')).toBeUndefined();
    expect(await rowCount('reset:a')).toBe(0);
    expect((await s.get('b'))?.totalHits).toBe(1);
    expect((await s.increment('a')).totalHits).toBe(1);
  });

  test('different prefixes keep separate counters and windows for the same key', async () => {
    const perMinute = store('minute:', 60_000);
    const perHour = store('hour:', 3_600_000);
    await perMinute.increment('1.2.3.4');
    await perMinute.increment('1.2.3.4');
    const hour = await perHour.increment('1.2.3.4');
    expect(hour.totalHits).toBe(1);
    expect((await perMinute.get('1.2.3.4'))?.totalHits).toBe(2);
    expect(hour.resetTime!.getTime() - Date.now()).toBeGreaterThan(3_000_000);
    await perHour.resetKey('1.2.3.4');
    expect((await perMinute.get('1.2.3.4'))?.totalHits).toBe(2);
  });

  test('concurrent increments on one key each get their own count (one atomic statement)', async () => {
    const stores = [store('race:'), store('race:')];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2].increment('k')));
    const hits = results.map((r) => r.totalHits).sort((x, y) => x - y);
    expect(hits).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetTime!.getTime())).size).toBe(1);
  });

  test('expired rows are deleted in the background', async () => {
    await t.ctx.db('rate_limits').insert({ key: 'stale:k', hits: 3, reset_at: t.ctx.db.raw(`now() - interval '1 hour'`) });
    await store('sweeper:').increment('k'); // a new store sweeps on its first hit
    for (let i = 0; i < 50 && (await rowCount('stale:k')) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await rowCount('stale:k')).toBe(0);
    expect(await rowCount('sweeper:k')).toBe(1);
  });
});
