import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createListing, createListingType, createVideo } from '../../testing/fixtures';

// The save controls the public pages print for the saves island (templates/partials/
// save-controls.njk) and the island's state (./page-island.ts): the same for everybody (a
// working login link without JavaScript, which the island replaces; it learns the member from
// /profiles/hi/); the state names only the maps the page needs.

const stateOf = (html: string) => JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]);
const placeholder = (type: string, id: number) => new RegExp(`<div data-island="saves" class="save-control save-control--${type}" data-save="${type}" data-object-id="${id}"[^>]*>`);

describe('save controls on the public pages', () => {
  let t: TestContext;
  let listingId: number;
  let nearbyId: number;
  let listingPath: string;
  let articlePath: string;
  let articleId: number;
  let videoId: number;
  let videoPath: string;
  let eventId: number;
  let eventPath: string;
  let member: { id: number; email: string };

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createListingType(db, { name: 'Restaurants', slug: 'restaurants' });
    listingId = await createListing(db, { name: 'Pizzeria Libretto', type_id: typeId, latitude: 43.6505, longitude: -79.3902 });
    nearbyId = await createListing(db, { name: 'Bar Raval', type_id: typeId, latitude: 43.6508, longitude: -79.3905 });
    listingPath = `/restaurants/${(await db('listings').where({ id: listingId }).first('slug')).slug}-${listingId}/`;
    articleId = await createArticle(db, { name: 'A story' });
    articlePath = (await db('articles').where({ id: articleId }).first('path')).path;
    videoId = await createVideo(db, { title: 'A video' });
    videoPath = `/videos/${(await db('videos').where({ id: videoId }).first('slug')).slug}/`;
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    eventId = await createEvent(db, { title: 'Jazz night', schedule: { schedule_type: 'single_day', start_date: soon, start_time: '19:00', end_time: '21:00' } });
    eventPath = `/events/jazz-night-${eventId}/`;
    member = await createMember(t.ctx, { email: 'saver@example.com' });
  });
  afterAll(() => t?.close());

  test('login links that come back to the page, and a state that names nobody', async () => {
    const res = await request(t.app).get(listingPath);
    expect(res.status).toBe(200);
    const own = res.text.match(placeholder('listing', listingId))![0];
    expect(own).not.toContain('hidden');
    expect(res.text).toContain(`href="/accounts/login?next=${encodeURIComponent(listingPath)}" rel="nofollow">Log in to save or rate <span class="visually-hidden">Pizzeria Libretto</span></a>`);
    expect(res.text).toMatch(placeholder('listing-compact', nearbyId));
    expect(stateOf(res.text).saves).toEqual({ kinds: ['favourites', 'todos', 'ratings'], calendarEnabled: false });
  });

  test('a member gets the very same controls and state; their calendar preference comes from /profiles/hi/', async () => {
    await t.ctx.db('profiles').where({ id: member.id }).update({ sync_bookmarked_events_to_google_calendar: true });
    const agent = await memberAgent(t, member);
    const guest = await request(t.app).get(listingPath);
    const res = await agent.get(listingPath);
    expect(res.text.match(placeholder('listing', listingId))![0]).not.toContain('hidden');
    expect(res.text).toContain('Log in to save or rate');
    expect(stateOf(res.text).saves).toEqual(stateOf(guest.text).saves);
    expect((await agent.get('/api/v2/profiles/hi/')).body).toMatchObject({ id: member.id, email: 'saver@example.com', calendar_sync: true });
  });

  test('the places landing and a hub put the controls on their cards', async () => {
    for (const path of ['/places/', '/restaurants/']) {
      const res = await request(t.app).get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.text).toMatch(placeholder('listing-compact', listingId));
      expect(stateOf(res.text).saves.kinds).toEqual(['favourites', 'todos', 'ratings']);
    }
  });

  test('article, video and event pages print their control and ask for their map only', async () => {
    const article = await request(t.app).get(articlePath);
    expect(article.text).toMatch(placeholder('article', articleId));
    expect(article.text).toContain('Log in to bookmark this article</a>');
    expect(stateOf(article.text).saves.kinds).toEqual(['articleBookmarks']);

    const video = await request(t.app).get(videoPath);
    expect(video.text).toMatch(placeholder('video', videoId));
    expect(stateOf(video.text).saves.kinds).toEqual(['videoBookmarks']);

    const event = await request(t.app).get(eventPath);
    expect(event.text).toMatch(placeholder('event', eventId));
    expect(event.text).toContain('rel="nofollow">Add to my Events</a>');
    expect(stateOf(event.text).saves.kinds).toEqual(['eventBookmarks']);
  });

  test('an event that cannot be saved gets neither the control nor the island', async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const id = await createEvent(t.ctx.db, { title: 'Private party', can_be_bookmarked: false, schedule: { schedule_type: 'single_day', start_date: soon, start_time: '19:00', end_time: '21:00' } });
    const res = await request(t.app).get(`/events/private-party-${id}/`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('data-save=');
    expect(stateOf(res.text).saves).toBeUndefined();
  });
});
