import { sharedAnswer } from './answer-cache';

// The policy of the shared answers of the public lists and search (answer-cache.ts).
describe('sharedAnswer', () => {
  const counting = <T>(values: T[]) => {
    let calls = 0;
    return {
      compute: async () => values[Math.min(calls++, values.length - 1)],
      get calls() {
        return calls;
      },
    };
  };

  test('an answer worth keeping is computed once and then served to everybody', async () => {
    const db = {};
    const c = counting([{ count: 5000 }]);
    const keep = (v: { count: number }) => v.count >= 1000;
    const first = await sharedAnswer(db, 'k', c.compute, { keep });
    const again = await Promise.all([1, 2, 3].map(() => sharedAnswer(db, 'k', c.compute, { keep })));
    expect(c.calls).toBe(1);
    expect(again.every((v) => v === first)).toBe(true);
  });

  test('an answer not worth keeping is computed by every request (exact at once after a write)', async () => {
    const db = {};
    const c = counting([{ count: 3 }, { count: 4 }]);
    const keep = (v: { count: number }) => v.count >= 1000;
    expect(await sharedAnswer(db, 'k', c.compute, { keep })).toEqual({ count: 3 });
    expect(await sharedAnswer(db, 'k', c.compute, { keep })).toEqual({ count: 4 });
    expect(c.calls).toBe(2);
  });

  test('answers are kept per key and per database', async () => {
    const c = counting(['a', 'b', 'c']);
    const keep = () => true;
    const one = {};
    expect(await sharedAnswer(one, 'k', c.compute, { keep })).toBe('a');
    expect(await sharedAnswer(one, 'other', c.compute, { keep })).toBe('b');
    expect(await sharedAnswer({}, 'k', c.compute, { keep })).toBe('c');
    expect(await sharedAnswer(one, 'k', c.compute, { keep })).toBe('a');
  });

  test("when the minute changes, the previous minute's answer is served while the new one loads, once", async () => {
    const db = {};
    const keep = () => true;
    const m1 = new Date('2026-11-24T18:00:00Z');
    const m2 = new Date('2026-11-24T18:01:00Z');
    expect(await sharedAnswer(db, 'k', async () => 'at 18:00', { keep, minute: m1 })).toBe('at 18:00');
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = async () => {
      loads += 1;
      await gate;
      return 'at 18:01';
    };
    const meanwhile = await Promise.all([1, 2, 3].map(() => sharedAnswer(db, 'k', slow, { keep, minute: m2 })));
    expect(meanwhile).toEqual(['at 18:00', 'at 18:00', 'at 18:00']);
    expect(loads).toBe(1);
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    expect(await sharedAnswer(db, 'k', slow, { keep, minute: m2 })).toBe('at 18:01');
    expect(loads).toBe(1);
  });

  test('an answer of another, older minute is never served', async () => {
    const db = {};
    const keep = () => true;
    await sharedAnswer(db, 'k', async () => 'at 17:00', { keep, minute: new Date('2026-11-24T17:00:00Z') });
    expect(await sharedAnswer(db, 'k', async () => 'at 18:00', { keep, minute: new Date('2026-11-24T18:00:00Z') })).toBe('at 18:00');
  });
});
