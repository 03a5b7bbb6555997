import request from 'supertest';
import { createMember, createTestContext, memberSessionCookie, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent, createListing, createListingType, createPhoto, createVideo } from '../../testing/fixtures';
import { jpegImage } from './test-images';

// An operator's first look is often at another name than SITE_URL (http://127.0.0.1:3000 with
// the default http://localhost:3000). The pages' pictures must load there too: the CSP's
// img-src and the media's Cross-Origin-Resource-Policy: same-origin refuse our own pictures
// named by SITE_URL's origin. So HTML names our media and assets by path (/media/...), while
// what is read elsewhere (Open Graph, JSON-LD, feeds) keeps absolute URLs as the specs want.
jest.setTimeout(120_000);

const SITE = 'http://localhost:3000';

/** Every URL a browser would fetch as a picture or preload from the HTML, with where it was. */
export function pictureUrls(html: string): Array<{ where: string; url: string }> {
  const found: Array<{ where: string; url: string }> = [];
  const unescape = (s: string) => s.replace(/&amp;/g, '&').replace(/&#39;|&#x27;/g, "'").replace(/&quot;/g, '"');
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  const srcsetUrls = (value: string) => value.split(',').map((c) => c.trim().split(/\s+/)[0]).filter(Boolean);
  for (const [tag, name] of html.matchAll(/<(img|source|link|image|video|input)\b[^>]*>/gi)) {
    const el = name.toLowerCase();
    if (el === 'link') {
      const rel = attr(tag, 'rel');
      if (!rel || !/\b(preload|icon|apple-touch-icon|stylesheet|modulepreload)\b/i.test(rel[2] ?? rel[3])) continue;
    }
    for (const a of ['src', 'href', 'poster', 'data-fallback']) {
      const m = attr(tag, a);
      if (m) found.push({ where: `<${el} ${a}>`, url: unescape(m[2] ?? m[3]) });
    }
    for (const a of ['srcset', 'imagesrcset']) {
      const m = attr(tag, a);
      if (m) for (const u of srcsetUrls(unescape(m[2] ?? m[3]))) found.push({ where: `<${el} ${a}>`, url: u });
    }
  }
  // Inline styles and <style> blocks: background images.
  const styles = [...html.matchAll(/\sstyle\s*=\s*("([^"]*)"|'([^']*)')/gi)].map((m) => unescape(m[2] ?? m[3]));
  styles.push(...[...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]));
  for (const css of styles) {
    for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/gi)) found.push({ where: 'style url()', url: m[2] });
  }
  return found;
}

/** The ones that name our own origin (SITE_URL's) rather than the page's. */
function absoluteOwn(html: string): Array<{ where: string; url: string }> {
  return pictureUrls(html).filter(({ url }) => /^(https?:)?\/\//i.test(url) && new URL(url, SITE).origin === SITE);
}

describe('pages name their own pictures by path, not by SITE_URL', () => {
  let t: TestContext;
  const pages: string[] = [];
  let articlePath = '';
  let eventPath = '';
  let cookie = '';

  beforeAll(async () => {
    t = await createTestContext({ SITE_URL: SITE });
    const db = t.ctx.db;
    const key = 'test/origin.jpg';
    await t.ctx.storage.put(key, await jpegImage(1600, 1200));
    articlePath = (await createArticle(db, { name: 'Patios open', image_key: key, is_featured: true }).then((id) => db('articles').where({ id }).first('path'))).path;
    await createArticle(db, { name: 'Second story', image_key: key, type_slug: 'eat-drink' });
    const typeId = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    const listingId = await createListing(db, { name: 'Pilot Coffee', type_id: typeId, image_key: key });
    const member = await createMember(t.ctx);
    await db('profiles').where({ id: member.id }).update({ avatar: key });
    const photoId = await createPhoto(db, { listing_id: listingId, profile_id: member.id, image_key: key });
    const contestId = await createContest(db, { title: 'Win a bike' });
    await db('contests').where({ id: contestId }).update({ image_key: key });
    const videoId = await createVideo(db, { title: 'Tour' });
    await db('videos').where({ id: videoId }).update({ image_key: key });
    const soon = new Date(Date.now() + 2 * 86400_000).toLocaleDateString('en-CA', { timeZone: 'Canada/Eastern' });
    const eventId = await createEvent(db, { title: 'Night market', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '18:00' } });
    await db('events').where({ id: eventId }).update({ image_key: key });
    eventPath = `/events/night-market-${eventId}/`;
    cookie = await memberSessionCookie(t, member);
    pages.push(
      '/',
      '/cafes/',
      '/events/',
      '/news/',
      articlePath,
      `/cafes/pilot-coffee-${listingId}/`,
      `/cafes/pilot-coffee-${listingId}/photos/`,
      `/cafes/pilot-coffee-${listingId}/photos/${photoId}/`,
      eventPath,
      '/contests/',
      '/videos/',
      '/search?q=Pilot',
    );
  });
  afterAll(() => t.close());

  test('the pages print pictures (the test would prove nothing otherwise)', async () => {
    for (const page of pages) {
      const res = await request(t.app).get(page);
      expect([page, res.status]).toEqual([page, 200]);
      const media = pictureUrls(res.text).filter(({ url }) => url.includes('/media/'));
      expect([page, media.length > 0]).toEqual([page, true]);
    }
  });

  test('no <img src>, srcset, <source srcset>, preload or style url() names SITE_URL’s origin', async () => {
    const offending: string[] = [];
    for (const page of pages) {
      const res = await request(t.app).get(page);
      for (const { where, url } of absoluteOwn(res.text)) offending.push(`${page} ${where} ${url}`);
    }
    expect(offending).toEqual([]);
  });

  test('the dashboard page too', async () => {
    const res = await request(t.app).get('/accounts/dashboard/').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(absoluteOwn(res.text)).toEqual([]);
  });

  test('Open Graph, JSON-LD and the feed keep absolute URLs', async () => {
    const article = await request(t.app).get(articlePath);
    expect(article.text).toMatch(new RegExp(`<meta property="og:image" content="${SITE}/media/test/origin\\.jpg`));
    const ld = [...article.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
    expect(ld).toContain(`${SITE}/media/test/origin.jpg`);
    const event = await request(t.app).get(eventPath);
    expect(event.text).toMatch(new RegExp(`<meta property="og:image" content="${SITE}/media/`));
    const rss = await request(t.app).get('/rss.xml');
    expect(rss.text).toContain(`url="${SITE}/media/test/origin.jpg`);
  });

  test('the API keeps absolute image_url and share_url', async () => {
    const res = await request(t.app).get('/api/v2/articles/');
    const withImage = res.body.results.find((a: { image_url: string | null }) => a.image_url);
    expect(withImage.image_url).toMatch(new RegExp(`^${SITE}/media/`));
    expect(withImage.share_url).toMatch(new RegExp(`^${SITE}/`));
  });
});
