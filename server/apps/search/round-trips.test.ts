import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createArticleType, createListing } from '../../testing/fixtures';
import { EXACT_COUNT_LIMIT } from './service';

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
    await db.raw(
      `insert into articles (name, slug, path, type_id, excerpt, body, date_published)
       select 'Ferry schedule ' || i, 'ferry-schedule-' || i, '/news/2026/01/ferry-schedule-' || i || '/', ?, 'Island ferry times.',
              case when i % 7 = 0 then 'Boats, ferry after ferry, and a harbour.' else 'Boats and a harbour.' end,
              timestamptz '2026-01-01' + i * interval '1 minute'
       from generate_series(1, ?) as i`,
      [typeId, many],
    );
    for (const name of ['Island picnic spots', 'A picnic by the lake', 'Picnic tables return']) await createArticle(db, { name });
    await createListing(db, { name: 'Harbour Ferry Dock', description: 'Ferries to the island and a picnic lawn.' });
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
      return { body: res.body as { count: number; count_estimated: boolean; results: Array<{ title: string; snippet: string }> }, sent };
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
});
