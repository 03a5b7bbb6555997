import { MemoryCache } from './memory-cache';
import { RefreshAheadCache, familyOf, forgetChangedFor } from './refresh-ahead';
import { changeTouches, changedKeys } from './change-keys';
import { forgetSharedAnswers, sharedAnswer } from '../db/answer-cache';
import { cachedValue, forgetCounts } from '../db/count-cache';

// Forgetting by what changed (issue 40, "one truth for every cache"): a change names the
// Surrogate-Key keys of what it changed, and a cache drops only what shows one of them. An
// unrelated value survives, a related one goes, an untagged one goes on any change, and a
// change naming no keys (a reconnect) drops everything.

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

describe('MemoryCache tags', () => {
  const tagged = () => new MemoryCache<string, { tags: string[] }>({ ttlMs: 60_000, maxEntries: 3, tagsOf: (v) => v.tags });

  test('deleteTagged drops the entries naming a tag, and only those', () => {
    const cache = tagged();
    cache.set('a', { tags: ['place-1', 'places'] });
    cache.set('b', { tags: ['place-2', 'places'] });
    cache.set('c', { tags: ['story-3'] });
    expect(cache.deleteTagged(['place-1'])).toBe(1);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')].map(Boolean)).toEqual([false, true, true]);
    expect(cache.deleteTagged(['places', 'nothing'])).toBe(1);
    expect(cache.size).toBe(1);
  });

  test('the index follows replaced and evicted entries', () => {
    const cache = tagged();
    cache.set('a', { tags: ['x'] });
    cache.set('a', { tags: ['y'] }); // replaced: no longer under x
    expect(cache.deleteTagged(['x'])).toBe(0);
    expect(cache.peek('a')).toEqual({ tags: ['y'] });
    for (const k of ['b', 'c', 'd']) cache.set(k, { tags: ['y'] }); // 'a' evicted (3 entries at most)
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.deleteTagged(['y'])).toBe(3);
    expect(cache.size).toBe(0);
  });

  test('a load running across a deletion that touches it is handed to its waiter but not kept', async () => {
    const cache = tagged();
    const load = deferred<{ tags: string[] }>();
    const other = deferred<{ tags: string[] }>();
    const loading = cache.refresh('a', () => load.promise);
    const unrelated = cache.refresh('b', () => other.promise);
    cache.deleteTagged(['place-1']);
    load.resolve({ tags: ['place-1'] });
    other.resolve({ tags: ['place-2'] });
    expect(await loading).toEqual({ tags: ['place-1'] });
    await unrelated;
    expect(cache.peek('a')).toBeUndefined(); // read before the change: not kept
    expect(cache.peek('b')).toEqual({ tags: ['place-2'] }); // untouched by it: kept
  });
});

describe('RefreshAheadCache.forget', () => {
  const setUp = () =>
    new RefreshAheadCache<string>({ name: 'test', ttlMs: 10_000, refreshAfterMs: 4_000, maxEntries: 100, onRefreshError: 'forget', shareFirstLoad: true });

  async function fill(cache: RefreshAheadCache<string>) {
    await cache.get('places', async () => 'places', { tags: ['places'] });
    await cache.get('events', async () => 'events', { tags: ['events', 'places'] });
    await cache.get('stories', async () => 'stories', { tags: ['feeds', 'section-news'] });
    await cache.get('search', async () => 'search'); // untagged: shows anything
    await cache.get('stations', async () => 'stations', { tags: [] }); // shows nothing a change names
    await cache.get('gazetteer', async () => 'gazetteer', { tags: ['neighbourhood-'] });
  }
  const kept = (cache: RefreshAheadCache<string>) => ['places', 'events', 'stories', 'search', 'stations', 'gazetteer'].filter((k) => cache.has(k));

  test("a place's change drops the place and event lists and the untagged answer; the story list stays", async () => {
    const cache = setUp();
    await fill(cache);
    expect(cache.forget(['place-7', 'hub-restaurants', 'places'])).toBe(3);
    expect(kept(cache)).toEqual(['stories', 'stations', 'gazetteer']);
  });

  test("a story's change drops the story list and the untagged answer only", async () => {
    const cache = setUp();
    await fill(cache);
    cache.forget(['story-12', 'section-news', 'home', 'feeds']);
    expect(kept(cache)).toEqual(['places', 'events', 'stations', 'gazetteer']);
  });

  test("a family tag goes with any key of the family (a neighbourhood's)", async () => {
    const cache = setUp();
    await fill(cache);
    cache.forget(['neighbourhood-3']);
    expect(kept(cache)).toEqual(['places', 'events', 'stories', 'stations']);
    expect(familyOf('section-best-of')).toBe('section-');
    expect(familyOf('home')).toBe('');
  });

  test('a change naming no keys drops everything', async () => {
    for (const keys of [undefined, []]) {
      const cache = setUp();
      await fill(cache);
      expect(cache.forget(keys)).toBe(6);
      expect(kept(cache)).toEqual([]);
    }
  });
});

describe('the shared answers and counts of a database', () => {
  test('forget by keys drops only what shows them; forgetChangedFor reaches both; no keys drops all', async () => {
    const db = {};
    let computed = 0;
    const answer = (key: string, tags?: string[]) => sharedAnswer(db, key, async () => `${key} ${++computed}`, { keep: () => true, tags });
    const count = (key: string, tags?: string[]) => cachedValue(db, key, async () => ++computed, { keep: () => true, tags });
    const fillAll = async () => [await answer('places', ['places']), await answer('stories', ['feeds']), await answer('search'), await count('events', ['events']), await count('stories', ['feeds'])];
    const first = await fillAll();
    expect(await fillAll()).toEqual(first); // all kept

    expect(forgetSharedAnswers(db, ['place-1', 'places'])).toBe(2); // the place list and the untagged search
    expect(forgetCounts(db, ['place-1', 'places'])).toBe(0);
    const second = await fillAll();
    expect(second[1]).toBe(first[1]);
    expect(second[3]).toBe(first[3]);
    expect(second[0]).not.toBe(first[0]);
    expect(second[2]).not.toBe(first[2]);

    expect(forgetChangedFor(db, ['event-4', 'events', 'home'])).toBe(2); // the event count and the untagged search
    const third = await fillAll();
    expect(third[3]).not.toBe(second[3]);
    expect([third[0], third[1], third[4]]).toEqual([second[0], second[1], second[4]]);

    expect(forgetChangedFor(db, undefined)).toBe(5);
  });
});

describe('changeTouches', () => {
  test('matches keys and families; a change naming no keys touches everything', () => {
    const place = { keys: ['place-7', 'hub-restaurants', 'places', 'neighbourhood-3'] };
    const story = { keys: ['story-12', 'section-news', 'home', 'feeds'] };
    expect(changeTouches(place, ['home'])).toBe(false);
    expect(changeTouches(story, ['home'])).toBe(true);
    expect(changeTouches(place, ['neighbourhood-'])).toBe(true);
    expect(changeTouches(story, ['neighbourhood-'])).toBe(false);
    expect(changeTouches({}, ['home'])).toBe(true);
    expect(changeTouches({ keys: [] }, ['home'])).toBe(true);
    expect(changedKeys({ keys: [] })).toBeUndefined();
  });
});
