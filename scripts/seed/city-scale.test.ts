import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { seedDemo } from './demo';
import { CITY_TARGETS, cityTargets, seedCityScale } from './city-scale';

// The city seed reaches the sizes it is given, whatever they are: the doubled city of issue 41
// (target 6) is the same code with cityTargets(2). Here on a small demo (300 listings) topped up
// by a few hundred rows of each kind, so the whole pipeline runs in seconds.

const NOW = new Date('2026-11-22T15:00:00Z');
const TABLES = ['profiles', 'listings', 'articles', 'events', 'event_occurrences', 'ratings', 'favourites', 'article_bookmarks', 'event_bookmarks', 'video_bookmarks'] as const;

describe('cityTargets', () => {
  test('factor 1 is the city seed unchanged; factor 2 doubles every size', () => {
    expect(cityTargets()).toEqual(CITY_TARGETS);
    expect(cityTargets(1)).toEqual(CITY_TARGETS);
    expect(cityTargets(2)).toEqual({ members: 200_000, listings: 40_000, articles: 200_000, events: 20_000, saves: 2_000_000 });
    expect(cityTargets(0.5).listings).toBe(10_000);
    expect(() => cityTargets(0)).toThrow('factor must be a number above 0, got 0');
  });
});

describe('seedCityScale on a small demo', () => {
  let t: TestContext;
  const before: Record<string, number> = {};
  const after: Record<string, number> = {};
  const added = { members: 150, listings: 120, articles: 250, events: 40 };
  let lastDemoEvent = 0;

  const counts = async (into: Record<string, number>) => {
    for (const table of TABLES) into[table] = Number((await t.ctx.db(table).count<{ n: string }[]>({ n: '*' }))[0].n);
  };

  beforeAll(async () => {
    t = await createTestContext();
    await seedDemo(t.ctx, { now: NOW, members: 20, articlesPerType: 5, listingLimit: 300 });
    await counts(before);
    lastDemoEvent = Number((await t.ctx.db('events').max<{ m: number }[]>({ m: 'id' }))[0].m);
    const targets = { members: before.profiles + added.members, listings: before.listings + added.listings, articles: before.articles + added.articles, events: before.events + added.events };
    await seedCityScale(t.ctx, { seed: 2004, now: NOW, targets });
    await counts(after);
  }, 180_000); // generous: the machine is shared

  afterAll(async () => {
    await t?.close();
  });

  test('reaches each target exactly', () => {
    expect(after.profiles - before.profiles).toBe(added.members);
    expect(after.listings - before.listings).toBe(added.listings);
    expect(after.articles - before.articles).toBe(added.articles);
    expect(after.events - before.events).toBe(added.events);
  });

  test('every new member saves the same number of distinct things', () => {
    expect(after.ratings - before.ratings).toBe(added.members * 4);
    expect(after.favourites - before.favourites).toBe(added.members * 3);
    expect(after.article_bookmarks - before.article_bookmarks).toBe(added.members * 2);
    expect(after.event_bookmarks - before.event_bookmarks).toBe(added.members);
    expect(after.video_bookmarks - before.video_bookmarks).toBe(added.members / 2);
  });

  test('new events have their days; new articles have unique paths', async () => {
    // Single days, or day ranges of 2-7 days (one in five).
    expect(after.event_occurrences - before.event_occurrences).toBeGreaterThanOrEqual(added.events);
    const dup = await t.ctx.db('articles').select('path').groupBy('path').havingRaw('count(*) > 1');
    expect(dup).toEqual([]);
    const orphans = await t.ctx.db('events as e').leftJoin('event_occurrences as o', 'o.event_id', 'e.id').where('e.id', '>', lastDemoEvent).whereNull('o.id').count<{ n: string }[]>({ n: '*' });
    expect(Number(orphans[0].n)).toBe(0);
  });

  test('leaves none of its index tables behind', async () => {
    const left = await t.ctx.db('pg_tables').where('tablename', 'like', 'seed_city_%').select('tablename');
    expect(left).toEqual([]);
  });
});
