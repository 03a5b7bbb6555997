import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';
import { TYPO_LIMIT } from './service';

// The typo fallback answers a short list: the TYPO_LIMIT most similar names per category, of
// places, events, videos and contests (headlines go by corrected words: headline-typos.test.ts),
// with a count that says so and pages that stop where the list does.

describe('site search typo fallback limits', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const type_id = await createListingType(db);
    for (let i = 0; i < TYPO_LIMIT + 10; i += 1) await createListing(db, { name: `Sunrise Bakery ${i}`, type_id });
    for (const name of ['The Rex', 'The Drake', 'The Then']) await createListing(db, { name, type_id });
    await createArticle(db, { name: 'Sunrise bakery opens a second shop' });
  });
  afterAll(() => t.close());

  const search = (qs: string) => request(t.app).get(`/api/search/?serialize_for=web&${qs}`);

  test('counts at most TYPO_LIMIT similar names per category', async () => {
    const res = await search(`q=${encodeURIComponent('sunrize bakery')}&categories=listings`);
    expect(res.status).toBe(200);
    expect(res.body.match).toBe('similar');
    expect(res.body.counts).toMatchObject({ listings: TYPO_LIMIT, articles: 0 });
    expect(res.body.count).toBe(TYPO_LIMIT);
    expect(res.body.results.every((r: { category: string }) => r.category === 'listings')).toBe(true);
    // Everywhere: the headline with the corrected words too.
    const all = await search(`q=${encodeURIComponent('sunrize bakery')}`);
    expect(all.body.counts).toMatchObject({ listings: TYPO_LIMIT, articles: 1 });
  });

  test('pages stop at the count', async () => {
    const last = await search(`q=${encodeURIComponent('sunrize bakery')}&categories=listings&offset=${TYPO_LIMIT - 10}&limit=20`);
    expect(last.body.results).toHaveLength(10);
    const beyond = await search(`q=${encodeURIComponent('sunrize bakery')}&categories=listings&offset=${TYPO_LIMIT}&limit=20`);
    expect(beyond.body).toMatchObject({ count: TYPO_LIMIT, results: [] });
  });

  test('a query of stop words only is not matched by similar names; a misspelt word beside one still is', async () => {
    // 'then' shares most of its trigrams with every "The ...": it would answer them all.
    const stop = await search('q=then&categories=listings');
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ count: 0, match: 'none', results: [] });
    const typo = await search(`q=${encodeURIComponent('the drakke')}&categories=listings`);
    expect(typo.body.match).toBe('similar');
    expect((typo.body.results as Array<{ title: string }>)[0].title).toBe('The Drake');
  });

  test('full-text matches in headlines are still found', async () => {
    const res = await search('q=sunrise&categories=articles');
    expect(res.body.match).toBe('fulltext');
    expect(res.body.count).toBe(1);
  });
});
