import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent, createListing, createVideo } from '../../testing/fixtures';
import { createSearchService } from './service';
import { parseQueryText } from './query-text';
import { highlightedHtml, MARK_END, MARK_START } from './snippet';

// Site search: full text over five kinds of thing with ranking, stemming, phrases and prefix
// matches, typo tolerance on names, escaped snippets, and input that can do no harm.

type Result = { category: string; id: number; title: string; snippet: string; highlighted_title: string; date_published: string; share_url: string };

describe('GET /api/search/', () => {
  let t: TestContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    ids.pizzaTitle = await createArticle(db, { name: 'The best pizza in Toronto', excerpt: 'Slices worth crossing the city for.', date_published: new Date('2026-01-10T12:00:00Z') });
    ids.pizzaBody = await createArticle(db, { name: 'Where to eat this weekend', excerpt: 'Brunch, dumplings and one pizza place.', date_published: new Date('2026-02-10T12:00:00Z') });
    ids.restaurants = await createArticle(db, { name: 'New restaurants opening in March', excerpt: 'A dozen restaurant openings.', type_slug: 'food', date_published: new Date('2026-03-01T12:00:00Z') });
    ids.markup = await createArticle(db, { name: 'Toronto <b>bold</b> & "quoted" tacos', excerpt: 'Tacos <script>alert(1)</script> & more tacos.', date_published: new Date('2026-01-05T12:00:00Z') });
    ids.draft = await createArticle(db, { name: 'Secret pizza draft', status: 'draft' });
    ids.listing = await createListing(db, { name: 'Pizzeria Libretto', description: 'Neapolitan pizza on Ossington.' });
    ids.event = await createEvent(db, { title: 'Pizza Festival', schedule: { schedule_type: 'single_day', start_date: '2026-12-05', start_time: '12:00' } });
    ids.video = await createVideo(db, { title: 'How a pizza oven works', date_published: new Date('2025-06-01T12:00:00Z') });
    ids.contest = await createContest(db, { title: 'Win pizza for a year', date_published: new Date('2025-01-01T12:00:00Z') });
  });
  afterAll(() => t.close());

  const search = async (qs: string) => request(t.app).get(`/api/search/?serialize_for=web&${qs}`);
  const results = (res: request.Response) => res.body.results as Result[];

  test('searches all five categories by default and counts each', async () => {
    const res = await search('q=pizza');
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ articles: 2, listings: 1, events: 1, videos: 1, contests: 1 });
    expect(res.body.count).toBe(6);
    expect(new Set(results(res).map((r) => r.category))).toEqual(new Set(['articles', 'listings', 'events', 'videos', 'contests']));
    expect(results(res).map((r) => r.id)).not.toContain(ids.draft);
    expect(res.body.match).toBe('fulltext');
  });

  test('relevancy puts a title match above a passing mention', async () => {
    const list = results(await search('q=pizza&categories=articles'));
    expect(list.map((r) => r.id)).toEqual([ids.pizzaTitle, ids.pizzaBody]);
  });

  test('-date_published orders newest first across categories', async () => {
    const list = results(await search('q=pizza&ordering=-date_published'));
    const dates = list.map((r) => r.date_published);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test('categories take a comma list, singular or plural; unknown is a 400', async () => {
    const res = await search('q=pizza&categories=video,contests');
    expect(results(res).map((r) => r.category).sort()).toEqual(['contests', 'videos']);
    expect(res.body.counts.articles).toBe(0);
    const bad = await search('q=pizza&categories=articles,people');
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('categories');
  });

  test('words are stemmed, and the last word matches as a prefix', async () => {
    expect(results(await search('q=restaurant&categories=articles')).map((r) => r.id)).toEqual([ids.restaurants]);
    expect(results(await search('q=piz&categories=articles')).map((r) => r.id).sort()).toEqual([ids.pizzaBody, ids.pizzaTitle].sort());
    expect(results(await search('q=best%20piz&categories=articles')).map((r) => r.id)).toEqual([ids.pizzaTitle]);
  });

  test('phrases and exclusions follow web search syntax', async () => {
    expect(results(await search(`q=${encodeURIComponent('"best pizza"')}&categories=articles`)).map((r) => r.id)).toEqual([ids.pizzaTitle]);
    expect(results(await search(`q=${encodeURIComponent('pizza -brunch')}&categories=articles`)).map((r) => r.id)).toEqual([ids.pizzaTitle]);
  });

  test('a misspelt name is still found (typo tolerance)', async () => {
    const res = await search('q=pizzaria%20libreto');
    expect(res.status).toBe(200);
    expect(res.body.match).toBe('similar');
    expect(results(res)[0]).toMatchObject({ category: 'listings', id: ids.listing });
    const festival = await search('q=festivle&categories=events');
    expect(results(festival).map((r) => r.id)).toEqual([ids.event]);
  });

  test('snippets and titles highlight matches with <mark> and escape everything else', async () => {
    const [hit] = results(await search('q=tacos&categories=articles'));
    expect(hit.id).toBe(ids.markup);
    expect(hit.snippet).toContain('<mark>Tacos</mark>');
    // ts_headline drops tags from the text; whatever is left is escaped.
    expect(hit.snippet).not.toContain('<script>');
    expect(hit.snippet).toContain('&amp; more <mark>tacos</mark>');
    expect(hit.snippet).not.toMatch(/<(?!\/?mark>)/);
    expect(hit.highlighted_title).toBe('Toronto &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; <mark>tacos</mark>');
    expect(hit.title).toBe('Toronto <b>bold</b> & "quoted" tacos');
  });

  test.each([
    "'; drop table articles; --",
    "pizza' OR 1=1 --",
    '<script>alert(1)</script>',
    '<mark>pizza</mark>',
    `pizza ${MARK_START}x${MARK_END}`,
    '!!!:*&|()',
    'a:* & b',
    '""""',
    '-',
    'or',
    '\\',
    '%_%',
    'x'.repeat(400),
  ])('hostile q %p answers 200 and a safe result', async (q) => {
    const res = await search(`q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    for (const r of results(res)) expect(r.snippet).not.toMatch(/<(?!\/?mark>)/);
    expect((await search('q=pizza')).body.count).toBe(6);
  });

  test('empty q answers an empty result; page sizes default to 18 (relevancy) and 20', async () => {
    expect((await search('q=')).body).toMatchObject({ count: 0, results: [] });
    expect((await search('')).body).toMatchObject({ count: 0, results: [] });
    const rel = await search('q=pizza&limit=2');
    expect(rel.body.results).toHaveLength(2);
    expect(new URL(rel.body.next).searchParams.get('offset')).toBe('2');
    const first = results(await search('q=pizza&limit=3'));
    const second = results(await search('q=pizza&limit=3&offset=3'));
    expect(new Set([...first, ...second].map((r) => `${r.category}:${r.id}`)).size).toBe(6);
  });

  test.each([
    ['q=pizza&ordering=best', 'ordering'],
    ['q=pizza&limit=10000', 'limit'],
    ['q=pizza&offset=-1', 'offset'],
    ['q[]=pizza', 'q'],
    ['q=piz%00za', 'q'],
  ])('bad input %s is a 400 naming %s', async (qs, field) => {
    const res = await search(qs);
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty(field);
  });

  test('a 2,000-character q searches its first 200 characters', async () => {
    const res = await search(`q=${encodeURIComponent(`pizza${' '.repeat(195)}zzzunmatched${'x'.repeat(1788)}`)}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(6);
  });

  test('a section switched off is not searched', async () => {
    const app = t.rebuild({ FEATURE_LISTINGS: 'false', FEATURE_EVENTS: 'false' });
    const res = await request(app).get('/api/search/?q=pizza');
    expect(res.body.count).toBe(4);
    expect(results(res).map((r) => r.category)).not.toContain('listings');
  });

  test('searchSite is callable by the search page', async () => {
    const page = await createSearchService().searchSite(t.ctx.db, { q: 'pizza', categories: ['articles'], ordering: 'relevancy', offset: 0, limit: 18 }, 'https://example.test');
    expect(page.count).toBe(2);
    expect(page.results[0].share_url).toMatch(/^https:\/\/example\.test\//);
  });
});

describe('query text', () => {
  test('the last word is a prefix unless quoted, excluded or "or"', () => {
    expect(parseQueryText('best piz')).toMatchObject({ web: 'best', prefix: 'piz' });
    expect(parseQueryText('"best piz')).toMatchObject({ prefix: null });
    expect(parseQueryText('pizza -chain')).toMatchObject({ prefix: null });
    expect(parseQueryText('pizza or')).toMatchObject({ prefix: null });
    expect(parseQueryText("x'; drop")).toMatchObject({ prefix: 'drop' });
  });

  test('only the markers become markup', () => {
    expect(highlightedHtml(`a <b> ${MARK_START}c${MARK_END} & ${MARK_START}`)).toBe('a &lt;b&gt; <mark>c</mark> &amp; ');
  });
});
