import request from 'supertest';
import { createMember, createTestContext, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent, createListing, createListingType, createPhoto, createVideo } from '../../testing/fixtures';
import { jpegImage } from './test-images';

// Every image URL our own pages and feeds print must be one the image endpoint serves: the
// endpoint refuses sizes outside IMAGE_SIZES, so a template asking for another size would show
// broken images. Real pages, real renditions.
jest.setTimeout(120_000);

describe('image URLs printed by the pages', () => {
  let t: TestContext;
  const pages: string[] = [];
  const eventPages: string[] = [];

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const key = 'test/everywhere.jpg';
    await t.ctx.storage.put(key, await jpegImage(1600, 1200));
    const articlePath = await createArticle(db, { name: 'Patios open', image_key: key, is_featured: true }).then((id) => db('articles').where({ id }).first('path'));
    const typeId = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    const listingId = await createListing(db, { name: 'Pilot Coffee', type_id: typeId, image_key: key });
    const member = await createMember(t.ctx);
    await db('profiles').where({ id: member.id }).update({ avatar: key });
    const photoId = await createPhoto(db, { listing_id: listingId, profile_id: member.id, image_key: key });
    const contestId = await createContest(db, { title: 'Win a bike' });
    await db('contests').where({ id: contestId }).update({ image_key: key });
    const contest = await db('contests').where({ id: contestId }).first('name');
    await createVideo(db, { title: 'Tour' });
    // Within the home page's week, so its events section shows it too.
    const soon = new Date(Date.now() + 2 * 86400_000).toLocaleDateString('en-CA', { timeZone: 'Canada/Eastern' });
    const eventId = await createEvent(db, { title: 'Night market', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '18:00' } });
    await db('events').where({ id: eventId }).update({ image_key: key });
    eventPages.push('/', '/events/', `/events/night-market-${eventId}/`);
    pages.push(
      '/',
      articlePath.path,
      '/rss.xml',
      '/cafes/',
      `/cafes/pilot-coffee-${listingId}/`,
      `/cafes/pilot-coffee-${listingId}/photos/`,
      `/cafes/pilot-coffee-${listingId}/photos/${photoId}/`,
      '/contests/',
      `/contests/${contest.name}/`,
      `/api/v2/photos/?listing=${listingId}`,
      ...eventPages,
    );
  });
  afterAll(() => t.close());

  test('every /media/ URL in them is served (200), and they ask for several sizes', async () => {
    const urls = new Set<string>();
    for (const page of pages) {
      const res = await request(t.app).get(page);
      expect([page, res.status]).toEqual([page, 200]);
      // HTML attributes escape & as &amp;, JSON (structured data, island state) as \u0026.
      const text = res.text.replace(/&amp;/g, '&').replace(/\\u0026/g, '&');
      for (const m of text.matchAll(/\/media\/[^"'\s<>)\\]+/g)) urls.add(m[0]);
    }
    const sized = [...urls].filter((u) => u.includes('?'));
    // Cards, hero, photo grid, photo viewer, avatar, listing card: the test would prove nothing
    // if the pages printed no sized URLs at all.
    expect(new Set(sized.map((u) => u.split('?')[1])).size).toBeGreaterThanOrEqual(5);
    for (const url of urls) {
      const res = await request(t.app).get(url);
      expect([url, res.status]).toEqual([url, 200]);
    }
  });

  test('events are drawn at 600x400 wherever the spec draws them (home, hub, event page)', async () => {
    const eventImage = /\/media\/test\/everywhere\.jpg\?w=600&(?:amp;)?h=400&(?:amp;)?cmd=crop/;
    for (const page of eventPages) {
      const res = await request(t.app).get(page);
      expect([page, eventImage.test(res.text)]).toEqual([page, true]);
    }
  });
});
