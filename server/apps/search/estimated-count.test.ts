import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createArticleType } from '../../testing/fixtures';
import { EXACT_COUNT_LIMIT } from './service';
import { insertFerryArticles } from './test-articles';

// A word found in more than EXACT_COUNT_LIMIT rows of a category is not counted row by row:
// the count is the planner's estimate and the answer says so. Rarer words are counted exactly.
describe('search counts above the exact limit', () => {
  let t: TestContext;
  const many = EXACT_COUNT_LIMIT + 150;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createArticleType(db, 'news', 'News');
    await insertFerryArticles(db, typeId, many, ['Boats.']);
    for (const name of ['Island picnic spots', 'A picnic by the lake', 'Picnic tables return']) await createArticle(db, { name });
    await db.raw('analyze articles');
  });
  afterAll(() => t.close());

  test('a very common word answers an estimated count, flagged, and the first page of results', async () => {
    const res = await request(t.app).get('/api/search/?serialize_for=web&q=ferry');
    expect(res.status).toBe(200);
    expect(res.body.count_estimated).toBe(true);
    expect(res.body.count).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(res.body.count).toBeLessThan(many * 2);
    expect(res.body.results.length).toBe(18); // a page by relevancy
    expect(res.body.results[0].title).toMatch(/^Ferry schedule/);
    expect(res.body.next).toContain('offset=18');
  });

  test('a rarer word is counted exactly', async () => {
    const res = await request(t.app).get('/api/search/?serialize_for=web&q=picnic');
    expect(res.body).toMatchObject({ count: 3, count_estimated: false });
  });

  test('the search page says the count is approximate', async () => {
    const page = await request(t.app).get('/search?q=ferry');
    expect(page.text).toMatch(/About [\d,]+ results/);
    const exact = await request(t.app).get('/search?q=picnic');
    expect(exact.text).toContain('>3 results');
  });
});
