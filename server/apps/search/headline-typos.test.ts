import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';
import { TYPO_LIMIT } from './service';
import { queryWords } from './typo-queries';

// Typo tolerance for article headlines (issue 12): a misspelt headline word is corrected
// against the words headlines use, and the headlines with the corrected words are found,
// beside the places whose names are similar. Runs on PGlite and, with TEST_DATABASE_URL, on
// PostgreSQL.

type Result = { category: string; id: number; highlighted_title: string };

describe('site search: misspelt headline words', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    ids.pizza = await createArticle(db, { name: 'The best pizza in Toronto', date_published: new Date('2026-01-10T12:00:00Z') });
    ids.pizzaNewer = await createArticle(db, { name: 'Pizza by the slice: five new spots', date_published: new Date('2026-02-10T12:00:00Z') });
    ids.restaurants = await createArticle(db, { name: 'New restaurant openings this spring', date_published: new Date('2026-03-01T12:00:00Z') });
    ids.bodyOnly = await createArticle(db, { name: 'Weekend plans', excerpt: 'Includes a pizza stop.', date_published: new Date('2026-03-02T12:00:00Z') });
    ids.draft = await createArticle(db, { name: 'Pizza draft', status: 'draft' });
    ids.listing = await createListing(db, { name: 'Pizzaa Place', type_id: await createListingType(db) });
    ids.prefixListing = await createListing(db, { name: 'Pizaaiolo', type_id: await createListingType(db) });
  });
  afterAll(() => t.close());

  const search = (qs: string) => request(t.app).get(`/api/search/?serialize_for=web&${qs}`);
  const results = (res: request.Response) => res.body.results as Result[];

  test('"pizaa" finds the pizza headlines, newest first', async () => {
    const res = await search('q=pizaa&categories=articles,events');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ match: 'similar', corrected: 'pizza' });
    expect(res.body.counts).toMatchObject({ articles: 2, events: 0 });
    const articles = results(res).filter((r) => r.category === 'articles');
    // Headlines only (not the passing mention in an excerpt), published only, newest first.
    expect(articles.map((r) => r.id)).toEqual([ids.pizzaNewer, ids.pizza]);
    expect(articles[0].highlighted_title).toContain('<mark>Pizza</mark>');
  });

  test('a misspelt place name is still matched by name similarity beside the headlines', async () => {
    const res = await search('q=pizzaa%20plase&categories=articles,listings');
    expect(res.body.match).toBe('similar');
    expect(results(res).some((r) => r.category === 'listings' && r.id === ids.listing)).toBe(true);
  });

  test('"pizaa" everywhere: full text finds the place whose name starts so, and the headlines come too', async () => {
    const res = await search('q=pizaa');
    expect(res.body).toMatchObject({ match: 'fulltext', corrected: 'pizza' });
    expect(res.body.counts).toMatchObject({ articles: 2, listings: 1 });
    expect(results(res).map((r) => `${r.category}:${r.id}`).sort()).toEqual([`articles:${ids.pizza}`, `articles:${ids.pizzaNewer}`, `listings:${ids.prefixListing}`].sort());
    const place = results(res).find((r) => r.category === 'listings')!;
    expect(place.highlighted_title).toContain('<mark>');
  });

  test('a dropped letter in a longer word and a swap of two letters are corrected', async () => {
    const dropped = await search('q=resturant&categories=articles');
    expect(results(dropped).map((r) => r.id)).toEqual([ids.restaurants]);
    expect(dropped.body.corrected).toBe('restaurant');
    const swapped = await search('q=tornoto%20pizza&categories=articles');
    expect(swapped.body.corrected).toBe('toronto pizza');
    expect(results(swapped).map((r) => r.id)).toEqual([ids.pizza]);
  });

  test('a word too far from every headline word finds no headline', async () => {
    const res = await search('q=pqzzzt&categories=articles');
    expect(res.body).toMatchObject({ count: 0, match: 'none', results: [] });
    // Every word must be found: one unknown word and the whole query finds nothing.
    const mixed = await search('q=pizaa%20qwxyz&categories=articles');
    expect(mixed.body.count).toBe(0);
  });

  test('a headline added or renamed later is corrected to as well', async () => {
    const id = await createArticle(t.ctx.db, { name: 'Dumpling crawl downtown', date_published: new Date('2026-03-03T12:00:00Z') });
    const res = await search('q=dumplimg&categories=articles');
    expect(results(res).map((r) => r.id)).toEqual([id]);
    await t.ctx.db('articles').where({ id }).update({ name: 'Bibimbap crawl downtown' });
    const later = await search('q=bibimbop&categories=articles');
    expect(results(later).map((r) => r.id)).toEqual([id]);
  });

  test('full-text matches still win over corrections', async () => {
    const res = await search('q=pizza&categories=articles');
    expect(res.body).toMatchObject({ match: 'fulltext', corrected: null, count: 3 });
  });

  test('the headline part of the answer is capped like the names are', async () => {
    for (let i = 0; i < TYPO_LIMIT + 5; i += 1) await createArticle(t.ctx.db, { name: `Patio season ${i}` });
    const res = await search('q=pattio&categories=articles');
    expect(res.body.count).toBe(TYPO_LIMIT);
  });
});

/** Optimal string alignment distance, the whole table: what search_edit_distance must answer. */
function alignmentDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('typo helpers', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  /** search_edit_distance (migrations/20261202000100_search_similar_rows.ts) of each pair. */
  async function distances(pairs: Array<[string, string, number]>): Promise<number[]> {
    const { rows } = (await t.ctx.db.raw(`select search_edit_distance(a, b, m) as d from unnest(?::text[], ?::text[], ?::int[]) with ordinality as p(a, b, m, i) order by i`, [
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
      pairs.map((p) => p[2]),
    ])) as { rows: Array<{ d: number }> };
    return rows.map((r) => Number(r.d));
  }

  test('edit distance counts a swap of neighbours as one edit and stops past the limit', async () => {
    expect(
      await distances([
        ['pizaa', 'pizza', 1],
        ['tornoto', 'toronto', 2],
        ['resturant', 'restaurant', 2],
        ['kitten', 'sitting', 5],
        ['abcdef', 'uvwxyz', 2],
        ['ca', 'abc', 5],
      ]),
    ).toEqual([1, 1, 1, 3, 3, 3]);
  });

  test('edit distance agrees with the whole table on many words (common prefixes and suffixes dropped first)', async () => {
    // Short words of three letters: every kind of overlap, swap and repeat occurs.
    let seed = 7;
    const letter = () => 'abc'[(seed = (seed * 1103515245 + 12345) % 2147483648) % 3];
    const word = () => Array.from({ length: 1 + (seed % 7) }, letter).join('');
    const pairs: Array<[string, string, number]> = Array.from({ length: 3000 }, (_, i) => [word(), word(), 1 + (i % 3)]);
    const got = await distances(pairs);
    const want = pairs.map(([a, b, max]) => Math.min(alignmentDistance(a, b), max + 1));
    expect(got).toEqual(want);
  });

  test('query words: letters and digits, three or more, each once', () => {
    expect(queryWords('best pizaa in to-ronto pizaa 2026')).toEqual(['best', 'pizaa', 'ronto', '2026']);
  });
});
