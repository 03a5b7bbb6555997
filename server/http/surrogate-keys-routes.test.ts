import type { Response as TestResponse } from 'supertest';
import type { ContentChange } from '../cache/change-notices';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../testing/test-app';
import { createEvent, createListing, createListingType, createNeighbourhood, createPhoto } from '../testing/fixtures';
import sharp from 'sharp';
import { bestOfListKeys, EDGE_KEPT_SECONDS, eventKeys, placeKeys, SITE_SEARCH_EDGE_SECONDS, surrogateKeys } from './surrogate-keys';

// The edge's keys in the real app (surrogate-keys.ts, docs/edge.md): each shareable answer about
// places, photos, events and Best of lists names what it shows; a private answer names nothing;
// and each change to them announces the keys of what it touched, so the edge drops those.

const keysOf = (res: TestResponse): string[] => {
  const header = res.headers['surrogate-key'];
  return typeof header === 'string' && header ? header.split(' ') : [];
};

describe('Surrogate-Key on places, photos, events and Best of lists', () => {
  let t: TestContext;
  let guest: Agent;
  let member: Agent;
  let staff: Agent;
  let neighbourhoodId: number;
  let placeId: number;
  let otherPlaceId: number;
  let photoId: number;
  let eventId: number;
  let listId: number;
  const placePath = () => `/cafes/pilot-coffee-${placeId}/`;
  /** Changes announced while `during` runs. */
  const announced = async (during: () => Promise<unknown>): Promise<ContentChange[]> => {
    const seen: ContentChange[] = [];
    const stop = t.ctx.changes.subscribe((c) => seen.push(c));
    try {
      await during();
    } finally {
      stop();
    }
    return seen;
  };

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    neighbourhoodId = await createNeighbourhood(db, { name: 'Kensington Market' });
    const typeId = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    placeId = await createListing(db, { name: 'Pilot Coffee', type_id: typeId, neighbourhood_id: neighbourhoodId });
    otherPlaceId = await createListing(db, { name: 'Quiet Cafe', type_id: typeId });
    photoId = await createPhoto(db, { listing_id: placeId, title: 'Latte' });
    eventId = await createEvent(db, { title: 'Jazz Night', status: 'approved' });
    const [row] = await db('best_of_lists').insert({ title: 'The best coffee', slug: 'best-coffee', intro: 'Our picks.' }).returning('id');
    listId = Number(row.id ?? row);
    await db('best_of_list_items').insert({ list_id: listId, listing_id: placeId, position: 1 });
    guest = guestAgent(t.app);
    member = await memberAgent(t, await createMember(t.ctx));
    staff = await memberAgent(t, await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' }));
  });
  afterAll(() => t.close());

  test('each shareable page and read API answer names what it shows', async () => {
    const expected: Array<[string, string[]]> = [
      ['/places/', [surrogateKeys.places]],
      ['/cafes/', [surrogateKeys.hub('cafes')]],
      [`/cafes/n/${neighbourhoodId}/kensington-market/`, [surrogateKeys.neighbourhood(neighbourhoodId)]],
      ['/neighbourhoods/kensington-market/', [surrogateKeys.neighbourhood(neighbourhoodId)]],
      [placePath(), [surrogateKeys.place(placeId)]],
      [`${placePath()}photos/`, [surrogateKeys.place(placeId)]],
      [`${placePath()}photos/${photoId}/`, [surrogateKeys.place(placeId)]],
      ['/events/', [surrogateKeys.events]],
      [`/events/jazz-night-${eventId}/`, [surrogateKeys.event(eventId)]],
      ['/best-of/', [surrogateKeys.section('best-of')]],
      ['/best-of/best-coffee/', [surrogateKeys.list(listId), surrogateKeys.place(placeId)]],
      ['/best-of/best-coffee/changes/', [surrogateKeys.list(listId)]],
      ['/api/v2/listings/?type=cafes', [surrogateKeys.places]],
      [`/api/v2/listings/${placeId}/`, [surrogateKeys.place(placeId)]],
      [`/api/v2/listings/${placeId}/accessibility/`, [surrogateKeys.place(placeId)]],
      ['/api/v2/photos/', [surrogateKeys.photos]],
      [`/api/v2/photos/?listing=${placeId}`, [surrogateKeys.photos, surrogateKeys.place(placeId)]],
      ['/api/v2/events/', [surrogateKeys.events]],
      ['/rss.xml', [surrogateKeys.feeds]],
      ['/sitemap.xml', [surrogateKeys.feeds, surrogateKeys.places, surrogateKeys.events]],
      ['/sitemaps/pages.xml', [surrogateKeys.feeds, surrogateKeys.places, surrogateKeys.events]],
      ['/best-of/best-coffee/changes/rss.xml', [surrogateKeys.list(listId)]],
    ];
    for (const [path, keys] of expected) {
      const res = await guest.get(path);
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 200, expect.stringMatching(/^public/)]);
      expect([path, keysOf(res)]).toEqual([path, keys]);
      // Purged by key, so the edge may keep it longer than browsers do.
      expect([path, res.headers['surrogate-control']]).toEqual([path, `max-age=${EDGE_KEPT_SECONDS}`]);
      // A second request (the process's own page cache may answer it) names the same keys.
      expect([path, keysOf(await guest.get(path))]).toEqual([path, keys]);
    }
    // Another place's page does not name this one: its change leaves that page at the edge.
    expect(keysOf(await guest.get(`/cafes/quiet-cafe-${otherPlaceId}/`))).toEqual([surrogateKeys.place(otherPlaceId)]);
  });

  test('site search names the results it shows, and is kept at the edge a minute at most (a new match is found within it)', async () => {
    for (const path of ['/search?q=coffee', '/api/search/?q=coffee']) {
      const res = await guest.get(path);
      expect([path, res.status, keysOf(res), res.headers['surrogate-control']]).toEqual([path, 200, [surrogateKeys.place(placeId)], `max-age=${SITE_SEARCH_EDGE_SECONDS}`]);
    }
  });

  test('a place page showing its open state is kept at the edge no longer than the state holds: the clock changes it, no change announces it', async () => {
    await t.ctx.db('listings').where({ id: otherPlaceId }).update({ hours: JSON.stringify({ mon: '9:00-17:00', tue: '9:00-17:00' }) });
    const realNow = t.ctx.now;
    const edgeSecondsAt = async (isoInToronto: string) => {
      t.ctx.now = () => new Date(isoInToronto);
      const res = await guest.get(`/cafes/quiet-cafe-${otherPlaceId}/`);
      expect([res.status, keysOf(res)]).toEqual([200, [surrogateKeys.place(otherPlaceId)]]);
      return res.headers['surrogate-control'];
    };
    try {
      // Monday 2 pm: open until 5 pm, so the edge's own 10 minutes.
      expect(await edgeSecondsAt('2026-11-30T14:00:00-05:00')).toBe(`max-age=${EDGE_KEPT_SECONDS}`);
      // Monday 4:55 pm: "Closes at 5 pm" holds five minutes more.
      expect(await edgeSecondsAt('2026-11-30T16:55:00-05:00')).toBe('max-age=300');
      // Tuesday 11:58 pm: closed until Monday, but "Opens Mon …" may read otherwise after midnight.
      expect(await edgeSecondsAt('2026-12-01T23:58:00-05:00')).toBe('max-age=120');
    } finally {
      t.ctx.now = realNow;
    }
  });

  test("a private answer names nothing: a member's read API answers and the uploader's page", async () => {
    for (const path of ['/api/search/?q=coffee', `/api/v2/listings/${placeId}/`, '/api/v2/listings/?type=cafes', `/api/v2/listings/${placeId}/accessibility/`, `/api/v2/photos/?listing=${placeId}`, '/api/v2/events/', `${placePath()}photos/?upload=1`]) {
      const res = await member.get(path);
      expect([path, res.status, res.headers['cache-control']]).toEqual([path, 200, expect.stringMatching(/^private/)]);
      expect([path, res.headers['surrogate-key'], res.headers['surrogate-control']]).toEqual([path, undefined, undefined]);
    }
  });

  test("a staff photo removal announces the photos' key and the place's own key", async () => {
    const doomed = await createPhoto(t.ctx.db, { listing_id: placeId, title: 'Blurry' });
    const changes = await announced(async () => {
      const res = await staff.post(`/staff/photos/${doomed}/remove/`).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, confirm: 'yes', note: 'Not this place' });
      expect(res.status).toBe(303);
    });
    expect(changes.map((c) => c.keys)).toEqual([[surrogateKeys.photos, surrogateKeys.place(placeId)]]);
  });

  test("a member's upload announces the photos' key and the place's own key, read with the new photo's row (no query of its own)", async () => {
    const image = (await sharp({ create: { width: 60, height: 40, channels: 3, background: '#a0522d' } }).jpeg().toBuffer()).toString('base64');
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql);
    t.ctx.db.on('query', onQuery);
    const changes = await announced(async () => {
      const res = await member.post('/api/v2/photos/').set('X-CSRFToken', member.csrfToken).send({ image, listing: placeId });
      expect(res.status).toBe(201);
    });
    t.ctx.db.removeListener('query', onQuery);
    expect(changes.map((c) => c.keys)).toEqual([[surrogateKeys.photos, surrogateKeys.place(placeId)]]);
    // The place is checked once (listingExists) and read once with the photo (findPhoto).
    expect(sql.filter((s) => /\blistings\b/.test(s))).toHaveLength(2);
  });

  test("a staff accessibility decision announces the place's keys", async () => {
    const changes = await announced(async () => {
      const res = await staff.post('/staff/accessibility/decide/').type('form').send({ csrfmiddlewaretoken: staff.csrfToken, listing: String(placeId), attribute: 'step_free_entrance', decision: 'yes' });
      expect(res.status).toBe(303);
    });
    expect(changes.map((c) => c.keys)).toEqual([placeKeys({ id: placeId, typeSlug: 'cafes', neighbourhoodId })]);
  });

  test("an approved event announces the events' keys; a rejected one announces nothing", async () => {
    const submitter = await createMember(t.ctx);
    const approved = await createEvent(t.ctx.db, { title: 'Street Fair', status: 'pending', submitted_by: submitter.id });
    const rejected = await createEvent(t.ctx.db, { title: 'Elsewhere Fair', status: 'pending', submitted_by: submitter.id });
    const decide = (id: number, decision: string, note = '') => staff.post(`/staff/events/${id}/moderate/`).type('form').send({ csrfmiddlewaretoken: staff.csrfToken, decision, note });
    const changes = await announced(async () => {
      expect((await decide(approved, 'approved')).status).toBe(303);
      expect((await decide(rejected, 'rejected', 'Not in Toronto')).status).toBe(303);
    });
    expect(changes.map((c) => c.keys)).toEqual([eventKeys([approved])]);
  });

  test("a Best of list's edit announces the list's keys", async () => {
    const changes = await announced(async () => {
      const res = await staff.post('/staff/best-of/best-coffee/criteria/').type('form').send({ csrfmiddlewaretoken: staff.csrfToken, criteria: 'Espresso only.', reason: 'We say what we mean.' });
      expect(res.status).toBe(303);
    });
    expect(changes.map((c) => c.keys)).toEqual([bestOfListKeys(listId)]);
  });
});
