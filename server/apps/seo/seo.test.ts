import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent, createListing, createListingType, createNeighbourhood, createVideo } from '../../testing/fixtures';
import { SITEMAP_CHUNK } from './sitemap-queries';

describe('search-engine files', () => {
  let t: TestContext;
  let listingId: number;
  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    await createArticle(db, { name: 'Ampersands & <angles>', excerpt: 'Fish & chips' });
    await createArticle(db, { name: 'A food story', type_slug: 'food' });
    await createArticle(db, { name: 'Gated story', type_slug: 'cannabis' });
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    listingId = await createListing(db, { name: 'Pizza Palace', type_id: typeId });
    await createNeighbourhood(db, { name: 'The Annex' });
    await createEvent(db, { title: 'Jazz night' });
    await createEvent(db, { title: 'Pending event', status: 'pending' });
    await createContest(db, { title: 'Win tickets' });
    await createVideo(db, { title: 'A video', category: 'Food' });
    await db('best_of_lists').insert({ title: 'Best patios', slug: 'best-patios' });
  });
  afterAll(() => t.close());

  test('robots.txt allows crawling and names the sitemap', async () => {
    const res = await request(t.app).get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/plain');
    expect(res.text).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    expect(res.text).toContain('Disallow: /api/');
  });

  test('sitemap.xml is an index of the pages sitemap and one child per chunk of each section', async () => {
    const res = await request(t.app).get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/xml');
    expect(res.text).toContain('<sitemapindex');
    for (const f of ['pages', 'articles-1', 'listings-1', 'events-1', 'contests-1', 'videos-1', 'best-of-1', 'neighbourhoods-1']) {
      expect(res.text).toContain(`<loc>http://localhost:3000/sitemaps/${f}${f === 'pages' ? '' : ''}.xml</loc>`);
    }
    expect(res.headers.etag).toBeTruthy();
  });

  test('child sitemaps list every public URL, escaped, and leave out what is not public', async () => {
    const articles = await request(t.app).get('/sitemaps/articles-1.xml');
    expect(articles.text).toMatch(/<loc>http:\/\/localhost:3000\/news\/2026\/01\/ampersands-and-angles-\d+\/<\/loc><lastmod>/);
    const listings = await request(t.app).get('/sitemaps/listings-1.xml');
    expect(listings.text).toContain(`/restaurants/pizza-palace-${listingId}/</loc>`);
    const events = await request(t.app).get('/sitemaps/events-1.xml');
    expect(events.text).toContain('/events/jazz-night-');
    expect(events.text).not.toContain('pending-event');
    expect((await request(t.app).get('/sitemaps/neighbourhoods-1.xml')).text).toContain('/neighbourhoods/the-annex/');
    expect((await request(t.app).get('/sitemaps/best-of-1.xml')).text).toContain('/best-of/best-patios/');
    const pages = await request(t.app).get('/sitemaps/pages.xml');
    for (const p of ['/', '/news/', '/food/', '/best-of/', '/places/', '/restaurants/', '/events/', '/videos/category/food/']) expect(pages.text).toContain(`<loc>http://localhost:3000${p}</loc>`);
    expect(pages.text).not.toContain('/cannabis/');
  });

  test('unknown or empty sitemap pages are 404s or empty', async () => {
    expect((await request(t.app).get('/sitemaps/nothing-1.xml')).status).toBe(404);
    expect((await request(t.app).get('/sitemaps/articles-0.xml')).status).toBe(404);
    const empty = await request(t.app).get('/sitemaps/articles-2.xml');
    expect(empty.status).toBe(200);
    expect(empty.text).not.toContain('<url>');
    expect(SITEMAP_CHUNK).toBeGreaterThanOrEqual(1000);
  });

  test('sections whose feature is off have no sitemaps', async () => {
    const app = t.rebuild({ FEATURE_LISTINGS: 'false' });
    expect((await request(app).get('/sitemap.xml')).text).not.toContain('listings-1');
    expect((await request(app).get('/sitemaps/listings-1.xml')).status).toBe(404);
  });

  test('RSS 2.0 for everything and per type, escaped, without the gated section', async () => {
    const all = await request(t.app).get('/rss.xml');
    expect(all.status).toBe(200);
    expect(all.type).toBe('application/rss+xml');
    expect(all.text).toContain('<rss version="2.0"');
    expect(all.text).toContain('<title>Ampersands &amp; &lt;angles&gt;</title>');
    expect(all.text).not.toContain('Gated story');
    const news = await request(t.app).get('/news/rss.xml');
    expect(news.text).toContain('Ampersands');
    expect(news.text).not.toContain('A food story');
    const food = await request(t.app).get('/food/rss.xml');
    expect(food.text).toContain('A food story');
    expect((await request(t.app).get('/cannabis/rss.xml')).text).not.toContain('<rss');
  });
});
