import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createArticleType, createListing } from '../../testing/fixtures';
import { EXACT_COUNT_LIMIT } from './service';
import { insertFerryArticles } from './test-articles';

// A search no cache answers is one statement to the database (issue 41): the counts (the
// planner's estimate for a very common word), the relevancy pool, the page and its snippets.
// Every search here asks for other words or another page, so neither the answer cache nor the
// ranking cache can answer it; what is counted is every query knex sends while it is answered.
describe('an uncached search is one round trip', () => {
  let t: TestContext;
  const many = EXACT_COUNT_LIMIT + 150;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createArticleType(db, 'news', 'News');
    // One body in seven says "ferry" more often: the pool's scores differ.
    await insertFerryArticles(db, typeId, many, ['Boats, ferry after ferry, and a harbour.', ...Array<string>(6).fill('Boats and a harbour.')]);
    for (const name of ['Island picnic spots', 'A picnic by the lake', 'Picnic tables return']) await createArticle(db, { name });
    await createListing(db, { name: 'Harbour Ferry Dock', description: 'Ferries to the island and a picnic lawn.' });
    // Its name starts with a misspelling of a headline word: full text finds it, and no headline.
    await createListing(db, { name: 'Picnikka Cafe', description: 'Sandwiches.' });
    await db.raw('analyze articles');
    await db.raw('analyze listings');
    // Once per process: what the statements' shapes are made of (search tables), kept after.
    await request(t.app).get('/api/search/?serialize_for=web&q=warmup');
  });
  afterAll(() => t.close());

  /** The search's answer and the SQL of every query sent while it was answered. */
  async function searched(qs: string) {
    const sent: string[] = [];
    const listen = (q: { sql: string }) => sent.push(q.sql);
    const dbs = [...new Set([t.ctx.db, t.ctx.dbRead])];
    for (const db of dbs) db.on('query', listen);
    try {
      const res = await request(t.app).get(`/api/search/?serialize_for=web&${qs}`);
      expect(res.status).toBe(200);
      type Body = { count: number; counts: Record<string, number>; count_estimated: boolean; match: string; corrected: string | null; results: Array<{ title: string; snippet: string; highlighted_title: string }> };
      return { body: res.body as Body, sent };
    } finally {
      for (const db of dbs) db.removeListener('query', listen);
    }
  }

  test.each([
    ['a very common word, by relevancy', 'q=ferry'],
    ['a very common word, by date', 'q=island&ordering=-date_published'],
    ['a very common word, its second page', 'q=harbour&offset=18'],
    ['a very common word typed as a prefix', 'q=schedul'],
    ['articles only', 'q=boats&categories=articles'],
  ])('%s: counted by estimate, ranked, and the page with its snippets, in one statement', async (_, qs) => {
    const { body, sent } = await searched(qs);
    expect(body.count_estimated).toBe(true);
    expect(body.count).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((r) => r.snippet.length > 0)).toBe(true);
    expect(sent).toHaveLength(1);
  });

  test('a rarer word, counted exactly, in one statement', async () => {
    const { body, sent } = await searched('q=picnic');
    expect(body).toMatchObject({ count: 4, count_estimated: false });
    expect(body.results.map((r) => r.title)).toContain('Harbour Ferry Dock');
    expect(sent).toHaveLength(1);
  });

  // The typo paths (ranking-queries.ts): similar names and corrected headlines, chosen and
  // found in the same statement as the full-text search that found nothing, or no headline.
  test('a misspelt query full text does not find: similar names and corrected headlines, in one statement', async () => {
    const { body, sent } = await searched('q=picnik%20spotz');
    expect(body).toMatchObject({ match: 'similar', corrected: 'picnic spots' });
    expect(body.counts.articles).toBe(1);
    const headline = body.results.find((r) => r.title === 'Island picnic spots');
    expect(headline?.highlighted_title).toContain('<mark>');
    expect(sent).toHaveLength(1);
  });

  test('a misspelt place name, by similar names alone, in one statement', async () => {
    const { body, sent } = await searched('q=harbour%20fery%20dok');
    expect(body).toMatchObject({ match: 'similar', corrected: null });
    expect(body.results.map((r) => r.title)).toContain('Harbour Ferry Dock');
    expect(sent).toHaveLength(1);
  });

  test('full text finds other things and no headline: the corrected headlines come in the same statement', async () => {
    const { body, sent } = await searched('q=picnik');
    expect(body).toMatchObject({ match: 'fulltext', corrected: 'picnic' });
    expect(body.counts).toMatchObject({ articles: 3, listings: 1 });
    const titles = body.results.map((r) => r.title);
    expect(titles).toEqual(expect.arrayContaining(['Picnikka Cafe', 'Island picnic spots', 'A picnic by the lake', 'Picnic tables return']));
    expect(body.results.every((r) => r.highlighted_title.includes('<mark>'))).toBe(true);
    expect(sent).toHaveLength(1);
  });
});
