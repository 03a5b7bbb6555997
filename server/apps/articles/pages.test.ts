import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';

describe('article pages', () => {
  let t: TestContext;
  let articlePath: string;
  let slideshowPath: string;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    for (let i = 0; i < 17; i += 1) await createArticle(db, { name: `Food story ${i}`, type_slug: 'food', date_published: new Date(Date.UTC(2026, 0, 1 + i)) });
    const id = await createArticle(db, { name: 'City council <script>alert(1)</script> votes', body: 'Para one.\n\nPara <two>.', excerpt: 'What happened at City Hall.', image_key: 'articles/council.jpg' });
    articlePath = (await db('articles').where({ id }).first('path')).path;
    await createArticle(db, { name: 'An older news story', date_published: new Date(Date.UTC(2025, 5, 1)) });
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    const listingId = await createListing(db, { name: 'Pizza Palace', type_id: typeId });
    const showId = await createArticle(db, { name: 'The best pizza in Toronto', type_slug: 'best-of', is_slideshow: true, is_featured: true });
    slideshowPath = (await db('articles').where({ id: showId }).first('path')).path;
    await db('article_slides').insert([
      { article_id: showId, position: 1, title: 'Pizza Palace', caption: 'Thin crust.', listing_id: listingId },
      { article_id: showId, position: 2, title: 'Slice Shop', caption: 'By the slice.' },
    ]);
    const [list] = await db('best_of_lists').insert({ title: 'Best pizza & slices', slug: 'best-pizza', intro: 'Our picks.', popularity: 5, date_published: new Date('2026-02-01') }).returning('id');
    await db('best_of_lists').insert([
      { title: 'Aardvark bars', slug: 'aardvark-bars', popularity: 1, date_published: new Date('2025-01-01') },
      { title: 'Zesty brunch', slug: 'zesty-brunch', popularity: 99, date_published: new Date('2024-01-01') },
    ]);
    await db('best_of_list_items').insert({ list_id: list.id ?? list, listing_id: listingId, position: 1, blurb: 'The classic.' });
  });
  afterAll(() => t.close());

  describe('hubs', () => {
    test('a hub lists its type, 15 to a page, newest first, with numbered pages', async () => {
      const res = await request(t.app).get('/food/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h1 class="page-header__title">Food');
      expect(res.text).toContain('Food story 16');
      expect(res.text).not.toContain('Food story 1<');
      expect(res.text).toContain('href="/food/?page=2"');
      expect(res.text).toContain('<link rel="canonical" href="http://localhost:3000/food/">');
      const page2 = await request(t.app).get('/food/?page=2');
      expect(page2.status).toBe(200);
      expect(page2.text).toContain('Food story 0');
      expect(page2.text).toContain('<link rel="canonical" href="http://localhost:3000/food/?page=2">');
      expect(page2.text).toContain('aria-current="page"><span class="visually-hidden">Page </span>2');
    });

    test('every hub of the menu answers, even before its type has articles', async () => {
      for (const path of ['/news/', '/culture/', '/food/', '/real-estate/', '/sports/', '/tech/', '/travel/']) {
        const res = await request(t.app).get(path);
        expect([path, res.status]).toEqual([path, 200]);
      }
    });

    test('a page past the last goes to the first page and a bad page number is a 400 naming page', async () => {
      const past = await request(t.app).get('/food/?page=3');
      expect([past.status, past.headers.location]).toEqual([302, '/food/']);
      const bad = await request(t.app).get('/food/?page=abc');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('page');
    });

    describe('lead, article list and recommended stories (spec 1 §9, spec 2 §9)', () => {
      // The titles of the cards in the section labelled by `id`, or null without that section.
      const sectionTitles = (html: string, id: string): string[] | null => {
        const m = new RegExp(`<section aria-labelledby="${id}"[\\s\\S]*?</section>`).exec(html);
        return m ? [...m[0].matchAll(/<h3 class="card__title[^"]*">([^<]*)</g)].map((x) => x[1]) : null;
      };
      beforeAll(async () => {
        const day = (d: number) => new Date(Date.UTC(2026, 1, d));
        for (let i = 1; i <= 7; i += 1) await createArticle(t.ctx.db, { name: `Trip ${i}`, type_slug: 'travel', date_published: day(i) });
        for (let i = 1; i <= 8; i += 1) await createArticle(t.ctx.db, { name: `Gadget ${i}`, type_slug: 'tech', date_published: day(i) });
        for (let i = 1; i <= 20; i += 1) {
          await createArticle(t.ctx.db, { name: `Match ${i}`, type_slug: 'sports', date_published: day(i), is_featured: i === 20 || i === 2 });
        }
      });

      test('with 7 stories the hub shows the lead and no article list', async () => {
        const res = await request(t.app).get('/travel/');
        expect(sectionTitles(res.text, 'hub-lead-title')).toEqual(['Trip 7', 'Trip 6', 'Trip 5', 'Trip 4', 'Trip 3', 'Trip 2', 'Trip 1']);
        expect(sectionTitles(res.text, 'hub-stories-title')).toBeNull();
        expect(sectionTitles(res.text, 'hub-recommended-title')).toBeNull();
      });

      test('with 8 the article list appears under the lead with the eighth', async () => {
        const res = await request(t.app).get('/tech/');
        expect(sectionTitles(res.text, 'hub-lead-title')).toHaveLength(7);
        expect(sectionTitles(res.text, 'hub-stories-title')).toEqual(['Gadget 1']);
      });

      test('page one recommends nothing; page two (offset 15) recommends the featured stories it does not list', async () => {
        const one = await request(t.app).get('/sports/');
        expect(sectionTitles(one.text, 'hub-recommended-title')).toBeNull();
        expect(sectionTitles(one.text, 'hub-stories-title')).toHaveLength(8);
        const two = await request(t.app).get('/sports/?page=2');
        // Match 2 is featured too, but page two lists it already.
        expect(sectionTitles(two.text, 'hub-recommended-title')).toEqual(['Match 20']);
        expect(sectionTitles(two.text, 'hub-stories-title')).toEqual(['Match 5', 'Match 4', 'Match 3', 'Match 2', 'Match 1']);
        expect(sectionTitles(two.text, 'hub-lead-title')).toBeNull();
      });
    });

    test('the path without its trailing slash redirects to the canonical one', async () => {
      const res = await request(t.app).get('/food?page=2');
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe('/food/?page=2');
    });
  });

  describe('article detail', () => {
    test('shows the article with escaped text, NewsArticle JSON-LD, OpenGraph and related stories', async () => {
      const res = await request(t.app).get(articlePath);
      expect(res.status).toBe(200);
      expect(res.text).toContain('City council &lt;script&gt;alert(1)&lt;/script&gt; votes');
      expect(res.text).not.toContain('<script>alert(1)</script>');
      expect(res.text).toContain('<p>Para &lt;two&gt;.</p>');
      expect(res.text).toContain('"@type":"NewsArticle"');
      expect(res.text).toContain('\\u003cscript\\u003e');
      expect(res.text).toContain('property="og:type" content="article"');
      expect(res.text).toContain(`<link rel="canonical" href="http://localhost:3000${articlePath}">`);
      expect(res.text).toContain('An older news story');
      expect(res.text).toContain('width="1200" height="800"');
      expect(res.text.match(/<h1[\s>]/g)).toHaveLength(1);
      expect(res.text).toContain('aria-label="Breadcrumb"');
    });

    test('unknown articles are 404s, and paths of another shape are left to other apps', async () => {
      expect((await request(t.app).get('/news/2026/01/no-such-story/')).status).toBe(404);
      expect((await request(t.app).get('/news/2026/13/bad-month/')).status).toBe(404);
    });

    test('a draft is not public', async () => {
      const id = await createArticle(t.ctx.db, { name: 'Draft story', status: 'draft' });
      const { path } = await t.ctx.db('articles').where({ id }).first('path');
      expect((await request(t.app).get(path)).status).toBe(404);
    });
  });

  describe('slideshows', () => {
    test('the article lists its slides and links each place to its listing page', async () => {
      const res = await request(t.app).get(slideshowPath);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`href="${slideshowPath}slideshow/"`);
      expect(res.text).toMatch(/href="\/restaurants\/pizza-palace-\d+\/"/);
    });

    test('the slideshow shows one slide at a time with N of M and next/previous links', async () => {
      const first = await request(t.app).get(`${slideshowPath}slideshow/`);
      expect(first.status).toBe(200);
      expect(first.text).toContain('1 of 2');
      expect(first.text).toContain(`href="${slideshowPath}slideshow/?slide=2"`);
      const second = await request(t.app).get(`${slideshowPath}slideshow/?slide=2`);
      expect(second.text).toContain('2 of 2');
      expect(second.text).toContain('Slice Shop');
      expect((await request(t.app).get(`${slideshowPath}slideshow/?slide=3`)).status).toBe(404);
      expect((await request(t.app).get(`${articlePath}slideshow/`)).status).toBe(404);
    });
  });

  describe('Best of', () => {
    test('the Best of page has latest and featured grids and the lists with sort tabs as links', async () => {
      const res = await request(t.app).get('/best-of/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('All from Best of Toronto');
      expect(res.text).toContain('The best pizza in Toronto');
      for (const label of ['A–Z', 'POPULARITY', 'MOST RECENT']) expect(res.text).toContain(`>${label}</a>`);
      expect(res.text).toContain('href="/best-of/?ordering=name#all-best-of"');
      expect(res.text).toMatch(/href="\/best-of\/#all-best-of" aria-current="true">MOST RECENT/);
      // Most recent first by default.
      expect(res.text.indexOf('Best pizza &amp; slices')).toBeLessThan(res.text.indexOf('Zesty brunch'));
    });

    test('the tabs reorder the lists', async () => {
      const az = await request(t.app).get('/best-of/?ordering=name');
      expect(az.text.indexOf('Aardvark bars')).toBeLessThan(az.text.indexOf('Best pizza &amp; slices'));
      const popular = await request(t.app).get('/best-of/?ordering=-popularity');
      expect(popular.text.indexOf('Zesty brunch')).toBeLessThan(popular.text.indexOf('Best pizza &amp; slices'));
      const bad = await request(t.app).get('/best-of/?ordering=%3Cscript%3E');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('ordering');
      expect(bad.text).not.toContain('<script>');
    });

    test('a list page names its places and links them to their listing pages', async () => {
      const res = await request(t.app).get('/best-of/best-pizza/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Best pizza &amp; slices');
      expect(res.text).toMatch(/<a href="\/restaurants\/pizza-palace-\d+\/">Pizza Palace<\/a>/);
      expect(res.text).toContain('The classic.');
      expect(res.text).toContain('"@type":"ItemList"');
      expect((await request(t.app).get('/best-of/no-such-list/')).status).toBe(404);
    });

    test('Best of pages are 404s when the feature is off', async () => {
      const app = t.rebuild({ FEATURE_BEST_OF: 'false' });
      expect((await request(app).get('/best-of/')).status).toBe(404);
      expect((await request(app).get('/best-of/best-pizza/')).status).toBe(404);
    });
  });
});
