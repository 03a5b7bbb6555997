import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticleType } from '../../testing/fixtures';
import { parseQueryText } from './query-text';
import { tsQuerySql } from './queries';
import { EXACT_COUNT_LIMIT, RELEVANCY_POOL, bestMatches, poolFromMatches, poolPath, searchTables } from './ranking-queries';

// Relevancy ranks the RELEVANCY_POOL most recent matches. For a category with more than
// EXACT_COUNT_LIMIT matches the pool is found one of three ways (poolPath): from all the
// matches, by a walk down the date index, or (PostgreSQL with the rum extension) by the RUM
// index. All must rank the same pool the same way.
describe('relevancy pool of a very common word', () => {
  let t: TestContext;
  const many = EXACT_COUNT_LIMIT + 150;
  // Schedules i = 1..many, published a minute apart: the pool is the most recent ones.
  const firstInPool = many - RELEVANCY_POOL + 1;

  beforeAll(async () => {
    t = await createTestContext();
    const typeId = await createArticleType(t.ctx.db, 'news', 'News');
    // Every seventh schedule says "ferry" three times (ranked higher); every fifth of the older
    // ones, outside the pool, says it six times and must still not be found by relevancy.
    await t.ctx.db.raw(
      `insert into articles (name, slug, path, type_id, excerpt, body, date_published)
       select 'Schedule ' || i, 'schedule-' || i, '/news/2026/01/schedule-' || i || '/', ?, 'Island times.',
              case when i < ? and i % 5 = 0 then 'Ferry ferry ferry ferry ferry ferry.' when i % 7 = 0 then 'Ferry ferry ferry.' else 'Ferry.' end,
              timestamptz '2026-01-01' + i * interval '1 minute'
       from generate_series(1, ?) as i`,
      [typeId, firstInPool, many],
    );
    await t.ctx.db.raw('analyze articles');
  });
  afterAll(() => t.close());

  const numberOf = (name: string) => Number(/\d+$/.exec(name)![0]);

  test('from the matches or by a walk by date, the same candidates in the same order', async () => {
    const db = t.ctx.db;
    const tsq = tsQuerySql(db, parseQueryText('ferry'))!;
    const now = new Date('2026-06-01T00:00:00Z');
    const walked = (await bestMatches(db, tsq, 'articles', 'relevancy', now, 30, 'walk')) as Array<{ id: number; score: number }>;
    const fromMatches = (await bestMatches(db, tsq, 'articles', 'relevancy', now, 30, 'matches')) as Array<{ id: number; score: number }>;
    expect(walked.length).toBe(30);
    expect(fromMatches).toEqual(walked);
    const names = await db('articles').whereIn('id', walked.map((r) => r.id)).pluck('name');
    for (const name of names) expect(numberOf(name)).toBeGreaterThanOrEqual(firstInPool);
  });

  test('the RUM index, where the database has the extension, finds the same pool, and the query reads it', async () => {
    const db = t.ctx.db;
    const available = Number((await db.raw(`select count(*) as n from pg_available_extensions where name = 'rum'`)).rows[0].n) > 0;
    const tables = await searchTables(db);
    // The migration made the index wherever the extension can be installed (never on PGlite).
    expect(tables.articles.rum).toBe(available);
    if (!tables.articles.rum) return;
    const tsq = tsQuerySql(db, parseQueryText('ferry'))!;
    const now = new Date('2026-06-01T00:00:00Z');
    const walked = await bestMatches(db, tsq, 'articles', 'relevancy', now, 30, 'walk');
    const byRum = bestMatches(db, tsq, 'articles', 'relevancy', now, 30, 'rum');
    const { sql, bindings } = byRum.toSQL();
    const plan = JSON.stringify((await db.raw(`explain (format json) ${sql}`, bindings as never)).rows);
    expect(plan).toContain('articles_search_rum');
    expect(await byRum).toEqual(walked);
  });

  test('the search API ranks the pool: the schedules that say it more, most recent first, none older than the pool', async () => {
    const res = await request(t.app).get('/api/search/?serialize_for=web&q=ferry&categories=articles');
    expect(res.status).toBe(200);
    expect(res.body.count_estimated).toBe(true);
    const numbers = (res.body.results as Array<{ title: string }>).map((r) => numberOf(r.title));
    const expected: number[] = [];
    for (let i = many; i >= firstInPool && expected.length < 18; i--) if (i % 7 === 0) expected.push(i);
    expect(numbers).toEqual(expected);
  });

  test('the pool comes from the matches while they are few beside the table, else from the walk', () => {
    // 100,000 articles: 'yonge' (about 3,900 matches) from its matches, 'patio' (6,300) by the walk.
    expect(poolFromMatches(3_900, 100_000)).toBe(true);
    expect(poolFromMatches(6_300, 100_000)).toBe(false);
    // A table never analyzed (no row count): the walk, as before.
    expect(poolFromMatches(EXACT_COUNT_LIMIT + 1, 0)).toBe(false);
    // With a RUM index: the index up to about 11,800 matches in 100,000 rows ('toronto',
    // 10,400), the walk past it ('park', 17,900); never all the matches.
    const rum = { rows: 100_000, rum: true };
    expect(poolPath(3_900, rum)).toBe('rum');
    expect(poolPath(10_400, rum)).toBe('rum');
    expect(poolPath(17_900, rum)).toBe('walk');
    expect(poolPath(3_900, { rows: 100_000, rum: false })).toBe('matches');
    expect(poolPath(EXACT_COUNT_LIMIT + 1, { rows: 0, rum: true })).toBe('walk');
  });
});
