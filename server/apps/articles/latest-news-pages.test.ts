import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticleType } from '../../testing/fixtures';

// The latest news (/news/) pages by 48 (spec 1 §9) while the other hubs keep 15, and every
// numbered pagination shows 1 margin page and a 4-page range (shared/pagination.ts).

const numbers = (html: string) =>
  [...html.matchAll(/<li(?: class="pagination__gap")?[^>]*>(?:<a class="pagination__link" href="[^"]*"( aria-current="page")?><span class="visually-hidden">Page <\/span>(\d+)<\/a>|…)<\/li>/g)]
    .map((m) => (m[2] ? (m[1] ? `[${m[2]}]` : m[2]) : '…'))
    .join(' ');

/** The story titles of the page's card grid (the navbar's menus name recent stories too). */
const cards = (html: string, type: string) => [...html.matchAll(new RegExp(`card__title[^>]*>(${type} story \\d+)<`, 'g'))].map((m) => m[1]);

describe('latest news pages and numbered pagination', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const seed = async (typeSlug: string, typeName: string, count: number) => {
      const typeId = await createArticleType(db, typeSlug, typeName);
      const rows = Array.from({ length: count }, (_, i) => {
        const published = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000);
        return { type_id: typeId, name: `${typeName} story ${i}`, slug: `${typeSlug}-story-${i}`, path: `/${typeSlug}/2026/01/${typeSlug}-story-${i}/`, excerpt: '', body: 'Text.', date_published: published };
      });
      await db.batchInsert('articles', rows, 200);
    };
    await seed('news', 'News', 50);
    await seed('food', 'Food', 15 * 12);
  });
  afterAll(() => t.close());

  test('/news/ shows the 48 newest stories, the rest on page 2', async () => {
    const res = await request(t.app).get('/news/');
    expect(res.status).toBe(200);
    const titles = cards(res.text, 'News');
    expect(titles).toHaveLength(48);
    expect(titles[0]).toBe('News story 49');
    expect(titles[47]).toBe('News story 2');
    expect(numbers(res.text)).toBe('[1] 2');
    const page2 = await request(t.app).get('/news/?page=2');
    expect(cards(page2.text, 'News')).toEqual(['News story 1', 'News story 0']);
    // An old link past the end lands on the first page (spec 2 §4).
    const past = await request(t.app).get('/news/?page=99');
    expect([past.status, past.headers.location]).toEqual([302, '/news/']);
  });

  test('other hubs keep 15 to a page', async () => {
    const res = await request(t.app).get('/food/');
    expect(cards(res.text, 'Food')).toHaveLength(15);
  });

  test('pagination: the first page, a window of 4 and the last page, with gaps', async () => {
    expect(numbers((await request(t.app).get('/food/')).text)).toBe('[1] 2 3 4 … 12');
    expect(numbers((await request(t.app).get('/food/?page=6')).text)).toBe('1 … 5 [6] 7 8 … 12');
    expect(numbers((await request(t.app).get('/food/?page=12')).text)).toBe('1 … 9 10 11 [12]');
    const middle = (await request(t.app).get('/food/?page=6')).text;
    expect(middle).toContain('<a class="pagination__link" rel="prev" href="/food/?page=5">');
    expect(middle).toContain('<a class="pagination__link" rel="next" href="/food/?page=7">');
  });
});
