import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';

describe('/search page', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await createArticle(t.ctx.db, { name: 'Best ramen in Toronto', excerpt: 'Noodles and broth.' });
    await createArticle(t.ctx.db, { name: 'Ramen shop opens on Queen', excerpt: 'More noodles.' });
  });
  afterAll(() => t.close());

  test('renders the first results on the server with sort tabs and the island’s initial state', async () => {
    const res = await request(t.app).get('/search?q=ramen');
    expect(res.status).toBe(200);
    const main = mainOf(res.text);
    expect(main).toContain('Search results for “ramen”');
    expect(main).toContain('2 results');
    expect(main).toMatch(/<mark>Ramen<\/mark>|<mark>ramen<\/mark>/i);
    expect(main).toContain('>RELEVANCY</a>');
    expect(main).toContain('href="/search?q=ramen&amp;ordering=-date_published"');
    expect(main).toContain('data-island="search"');
    expect(res.text).toContain('"search":{"params":{"q":"ramen"');
    expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
  });

  test('the island’s state carries the fields of each result it shows, not the object behind it', async () => {
    const res = await request(t.app).get('/search?q=ramen');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1]);
    const results = state.search.result.results as Record<string, unknown>[];
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(['category', 'date_published', 'highlighted_title', 'id', 'image_url', 'share_url', 'snippet', 'title']);
      expect(r.highlighted_title).toMatch(/<mark>ramen<\/mark>/i);
    }
  });

  test('no results says so, for a category or anywhere, and escapes the query', async () => {
    const res = await request(t.app).get('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('Sorry there are no results for “&lt;script&gt;alert(1)&lt;/script&gt;” anywhere on the site.');
    expect(res.text).toContain('Please edit your search above.');
    expect(res.text).toContain('\\u003cscript\\u003e');
    const inEvents = await request(t.app).get('/search?q=ramen&categories=events');
    expect(inEvents.text).toContain('Sorry there are no results for “ramen” in Events.');
  });

  test('an empty query shows just the form', async () => {
    const res = await request(t.app).get('/search');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<label for="search-q">Search for</label>');
    expect(res.text).not.toContain('Sorry there are no results');
  });

  test('bad parameters are a 400 naming them', async () => {
    const res = await request(t.app).get('/search?q=ramen&ordering=sideways');
    expect(res.status).toBe(400);
    expect(res.text).toContain('ordering');
    expect((await request(t.app).get('/search?q=ramen&offset=-1')).status).toBe(400);
  });

  test('a 2,000-character search is a search of its first 200 characters, not an error page', async () => {
    // Past the 200th character a word no article has: searched as a whole, nothing would match.
    const q = `ramen ${' '.repeat(194)}zzzunmatched ${'x'.repeat(1787)}`;
    expect(q).toHaveLength(2000);
    const res = await request(t.app).get(`/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(mainOf(res.text)).toContain('2 results');
    expect(res.text).toContain('<title>Search results for “ramen” |');
  });

  test('a NUL in the search is a 400 page naming q, never a server error', async () => {
    const res = await request(t.app).get('/search?q=ram%00en');
    expect(res.status).toBe(400);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('q: Null characters are not allowed.');
  });
});
