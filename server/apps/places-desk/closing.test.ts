import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType, createNeighbourhood } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { placeRevisions } from './revision-queries';
import { closePlace, reopenPlace } from './closing-queries';
import { closingChange } from './closing';
import { closingBadge, placeDay } from '../../../shared/place-closing';
import { PLACE_TIME_ZONE } from '../../../shared/place-hours';

// Closing a place (issue 39): the place is marked closed with a day and a note, leaves every
// Best of list it was on with a change-log entry saying why, gets a revision and an audit
// entry, all in one transaction; the hub, its API and the maps leave it out, its page and its
// cards say "Closed". Reopening clears the closing.

const NOW = new Date('2026-11-29T17:00:00Z'); // noon in Toronto
const TZ = 'America/Toronto';

describe('closing a place', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let editor: Agent;
  let typeId: number;
  let n = 0;
  const actorOf = () => ({ actor: { id: staff.id, email: staff.email }, now: NOW, timeZone: TZ });

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => NOW;
    t.app = t.rebuild();
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    editor = await memberAgent(t, staff);
    typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
  });
  afterAll(() => t.close());

  /** A place on two Best of lists (second on one, first on the other), and a neighbour on the first. */
  async function placeOnTwoLists() {
    n += 1;
    const db = t.ctx.db;
    const place = await createListing(db, { name: `Closing Diner ${n}`, type_id: typeId, appears_in_best_of_lists: true });
    const other = await createListing(db, { name: `Staying Diner ${n}`, type_id: typeId, appears_in_best_of_lists: true });
    const lists: Array<{ id: number; slug: string }> = [];
    for (const [i, members] of [[other, place], [place]].entries()) {
      const slug = `best-diners-${n}-${i}`;
      const [row] = await db('best_of_lists').insert({ title: `Best diners ${n}.${i}`, slug, intro: 'Our picks.' }).returning('id');
      const listId = Number(row.id ?? row);
      for (const [j, id] of members.entries()) await db('best_of_list_items').insert({ list_id: listId, listing_id: id, position: j + 1 });
      lists.push({ id: listId, slug });
    }
    return { place, other, lists };
  }

  const placeRow = (id: number) => t.ctx.db('listings').where({ id }).first('closed_on', 'closed_note', 'date_modified', 'appears_in_best_of_lists');
  const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === null ? null : String(v).slice(0, 10));

  test('closing marks the place, takes it off every Best of list with a change-log entry saying why, and writes a revision and the audit', async () => {
    const db = t.ctx.db;
    const { place, other, lists } = await placeOnTwoLists();
    const done = await closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: 'The owners retired.' });

    expect(done.closedOn).toBe('2026-11-20');
    expect(done.lists.map((l) => l.slug).sort()).toEqual(lists.map((l) => l.slug).sort());
    const row = await placeRow(place);
    expect(day(row.closed_on)).toBe('2026-11-20');
    expect(row.closed_note).toBe('The owners retired.');
    expect(new Date(row.date_modified).toISOString()).toBe(NOW.toISOString());
    expect(row.appears_in_best_of_lists).toBe(false);

    // Off both lists; the place left behind moves up to No. 1 on the first.
    expect(await db('best_of_list_items').where({ listing_id: place }).count('* as n').first()).toEqual({ n: 0 });
    expect(await db('best_of_list_items').where({ list_id: lists[0].id }).select('listing_id', 'position')).toEqual([{ listing_id: other, position: 1 }]);
    for (const [i, list] of lists.entries()) {
      const changes = await db('best_of_list_changes').where({ list_id: list.id }).select('kind', 'listing_id', 'from_position', 'reason');
      expect(changes).toEqual([{ kind: 'removed', listing_id: place, from_position: i === 0 ? 2 : 1, reason: 'Closed on Nov 20, 2026: The owners retired.' }]);
      const listAudit = await recentStaffActions(db, { subjectType: 'best_of_list', subjectId: list.id });
      expect(listAudit.map((a) => a.action)).toEqual(['best_of.removed']);
    }

    const [revision] = await placeRevisions(db, place, { limit: 5, offset: 0 });
    expect(revision).toMatchObject({
      kind: 'close',
      staff_id: staff.id,
      summary: 'closed on Nov 20, 2026: The owners retired.',
      changes: { closed_on: { from: null, to: '2026-11-20' }, closed_note: { from: '', to: 'The owners retired.' } },
    });
    const audit = await recentStaffActions(db, { subjectType: 'listing', subjectId: place });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'place.close', note: 'The owners retired.', staff_id: staff.id });
    expect(audit[0].detail).toMatchObject({ closed_on: '2026-11-20', previously_closed_on: null });

    // What is purged: the place's page and keys (its hub, every list of places), and each list's pages and keys.
    const change = closingChange(done);
    expect(change.keys).toEqual(expect.arrayContaining([`place-${place}`, 'hub-restaurants', 'places', `list-${lists[0].id}`, `list-${lists[1].id}`, 'section-best-of']));
    expect(change.paths).toEqual(expect.arrayContaining([`/best-of/${lists[0].slug}/`, `/best-of/${lists[0].slug}/changes/`, '/best-of/']));
  });

  test('a closing dated ahead is allowed: the lists say "Closing on …"', async () => {
    const { place, lists } = await placeOnTwoLists();
    await closePlace(t.ctx.db, actorOf(), place, { closedOn: '2026-12-31', note: '' });
    const reasons = await t.ctx.db('best_of_list_changes').whereIn('list_id', lists.map((l) => l.id)).pluck('reason');
    expect(reasons).toEqual(['Closing on Dec 31, 2026', 'Closing on Dec 31, 2026']);
    const [revision] = await placeRevisions(t.ctx.db, place, { limit: 1, offset: 0 });
    expect(revision.summary).toBe('closing on Dec 31, 2026');
  });

  test('bad input is refused naming the field, and nothing is saved', async () => {
    const db = t.ctx.db;
    const { place, lists } = await placeOnTwoLists();
    await expect(closePlace(db, actorOf(), place, { closedOn: '', note: '' })).rejects.toMatchObject({ fields: { closed_on: expect.any(Array) } });
    await expect(closePlace(db, actorOf(), place, { closedOn: '2026-02-30', note: '' })).rejects.toMatchObject({ fields: { closed_on: ['Not a real day: give it as YYYY-MM-DD.'] } });
    await expect(closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: 'x'.repeat(401) })).rejects.toMatchObject({ fields: { note: [expect.stringMatching(/400 characters/)] } });
    await expect(closePlace(db, actorOf(), 999_999, { closedOn: '2026-11-20', note: '' })).rejects.toMatchObject({ status: 404 });
    await expect(reopenPlace(db, actorOf(), place)).rejects.toMatchObject({ fields: { closed_on: ['This place is not marked closed.'] } });
    expect(day((await placeRow(place)).closed_on)).toBeNull();
    expect(await db('best_of_list_items').where({ listing_id: place }).count('* as n').first()).toEqual({ n: 2 });
    expect(await db('best_of_list_changes').whereIn('list_id', lists.map((l) => l.id)).count('* as n').first()).toEqual({ n: 0 });
    expect(await placeRevisions(db, place, { limit: 5, offset: 0 })).toEqual([]);
  });

  test('a failure part way (the second list) rolls everything back: the first list keeps the place', async () => {
    const db = t.ctx.db;
    const { place, lists } = await placeOnTwoLists();
    // A trigger that refuses the second list's change-log entry, after the first list was changed.
    await db.raw(`create or replace function closing_test_refuse() returns trigger as $$ begin if new.list_id = ${lists[1].id} then raise exception 'refused'; end if; return new; end $$ language plpgsql`);
    await db.raw('create trigger closing_test_refuse before insert on best_of_list_changes for each row execute function closing_test_refuse()');
    try {
      await expect(closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: 'Gone.' })).rejects.toThrow(/refused/);
    } finally {
      await db.raw('drop trigger closing_test_refuse on best_of_list_changes');
    }
    expect(day((await placeRow(place)).closed_on)).toBeNull();
    expect(await db('best_of_list_items').where({ listing_id: place }).count('* as n').first()).toEqual({ n: 2 });
    expect(await db('best_of_list_changes').whereIn('list_id', lists.map((l) => l.id)).count('* as n').first()).toEqual({ n: 0 });
    expect(await recentStaffActions(db, { subjectType: 'listing', subjectId: place })).toEqual([]);
    expect(await placeRevisions(db, place, { limit: 5, offset: 0 })).toEqual([]);
  });

  test('a place is closed from its day in Toronto: the zone the cards use is the hours\' zone', () => {
    // 00:30 on the 21st in Toronto is 05:30 UTC; 23:30 on the 20th is 04:30 UTC.
    const justAfterMidnight = new Date('2026-11-21T05:30:00Z');
    expect(placeDay(justAfterMidnight)).toBe('2026-11-21');
    expect(placeDay(justAfterMidnight)).toBe(placeDay(justAfterMidnight, PLACE_TIME_ZONE));
    expect(placeDay(new Date('2026-11-21T04:30:00Z'))).toBe('2026-11-20');
    expect(closingBadge('2026-11-21', new Date('2026-11-21T04:30:00Z'))).toBe('Closing Nov 21');
    expect(closingBadge('2026-11-21', justAfterMidnight)).toBe('Closed');
    expect(closingBadge(null, justAfterMidnight)).toBe('');
  });

  test('reopening clears the closing and does not put the place back on its lists', async () => {
    const db = t.ctx.db;
    const { place } = await placeOnTwoLists();
    await closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: 'Fire.' });
    const done = await reopenPlace(db, actorOf(), place);
    expect(done.closedOn).toBeNull();
    const row = await placeRow(place);
    expect(day(row.closed_on)).toBeNull();
    expect(row.closed_note).toBe('');
    expect(await db('best_of_list_items').where({ listing_id: place }).count('* as n').first()).toEqual({ n: 0 });
    const [revision] = await placeRevisions(db, place, { limit: 1, offset: 0 });
    expect(revision).toMatchObject({ kind: 'reopen', summary: 'reopened (had closed on Nov 20, 2026)', changes: { closed_on: { from: '2026-11-20', to: null } } });
    expect((await recentStaffActions(db, { subjectType: 'listing', subjectId: place })).map((a) => a.action)).toEqual(['place.reopen', 'place.close']);
  });

  describe('on the staff pages and the public side', () => {
    const post = (path: string, fields: Record<string, string>) => editor.post(path).type('form').send({ csrfmiddlewaretoken: editor.csrfToken, ...fields });

    test('staff close a place from its desk page: the list drops it with the reason in its change log, the place page says "Closed since …"', async () => {
      const { place, lists } = await placeOnTwoLists();
      const desk = await editor.get(`/staff/places/${place}/`).expect(200);
      expect(desk.text).toContain(`action="/staff/places/${place}/close/"`);
      expect(desk.text).toContain(`It will leave Best diners ${n}.0, Best diners ${n}.1`);

      const res = await post(`/staff/places/${place}/close/`, { closed_on: '2026-11-20', note: 'The owners retired.' }).expect(303);
      expect(res.headers.location).toBe(`/staff/places/${place}/?closing=closed#closing`);
      const after = await editor.get(`/staff/places/${place}/?closing=closed`).expect(200);
      expect(after.text).toContain('Closed. It left the Best of lists it was on');
      expect(after.text).toContain('<p data-closing-state><strong>Closed since Nov 20, 2026</strong>: The owners retired.</p>');
      expect(after.text).toContain(`action="/staff/places/${place}/reopen/"`);

      const list = await request(t.app).get(`/best-of/${lists[0].slug}/`).expect(200);
      expect(list.text).not.toContain(`Closing Diner ${n}<`);
      expect(list.text).toContain(`Staying Diner ${n}`);
      const changes = await request(t.app).get(`/best-of/${lists[0].slug}/changes/`).expect(200);
      expect(changes.text).toContain(`Closing Diner ${n}`);
      expect(changes.text).toContain('Closed on Nov 20, 2026: The owners retired.');

      const pageRes = await request(t.app).get(`/restaurants/closing-diner-${n}-${place}/`).expect(200);
      expect(pageRes.text).toContain('<span class="closed-badge" data-closed>Closed since Nov 20, 2026</span>');
      expect(pageRes.text).toContain('data-open-state="closed-for-good"');
      expect(pageRes.text).not.toContain('Open now');
      // No longer on a list: the page's own badges have no Best of sticker.
      expect(/<p class="listing__badges">[\s\S]*?<\/p>/.exec(pageRes.text)?.[0]).not.toContain('best-of-sticker');
    });

    test('a refused closing comes back 400 with the message beside its field and what was typed; nothing is saved', async () => {
      const { place, lists } = await placeOnTwoLists();
      for (const [fields, field, message] of [
        [{ closed_on: '', note: 'Gone' }, 'closed_on', 'Give the day it closed, as YYYY-MM-DD.'],
        [{ closed_on: '2026-13-01', note: 'Gone' }, 'closed_on', 'Not a real day: give it as YYYY-MM-DD.'],
        [{ closed_on: '2026-11-20', note: 'y'.repeat(401) }, 'note', 'Ensure this field has no more than 400 characters.'],
      ] as const) {
        const res = await post(`/staff/places/${place}/close/`, fields).expect(400);
        expect(res.text).toContain(`<p id="close-${field}-error" class="field-error" data-field-error="${field}">${message}</p>`);
        expect(res.text).toContain(`value="${fields.closed_on}"`);
        expect(res.text).toContain(`value="${fields.note}"`);
      }
      expect(day((await placeRow(place)).closed_on)).toBeNull();
      expect(await t.ctx.db('best_of_list_changes').whereIn('list_id', lists.map((l) => l.id)).count('* as n').first()).toEqual({ n: 0 });
      // Reopening a place that is open is refused the same way.
      const reopen = await post(`/staff/places/${place}/reopen/`, {}).expect(400);
      expect(reopen.text).toContain('This place is not marked closed.');
      await post('/staff/places/999999/close/', { closed_on: '2026-11-20', note: '' }).expect(404);
    });

    test('only staff close a place', async () => {
      const { place } = await placeOnTwoLists();
      const member = await memberAgent(t, await createMember(t.ctx));
      const asMember = await member.post(`/staff/places/${place}/close/`).type('form').send({ csrfmiddlewaretoken: member.csrfToken, closed_on: '2026-11-20' });
      expect([302, 403]).toContain(asMember.status);
      const guest = guestAgent(t.app);
      const asGuest = await guest.post(`/staff/places/${place}/close/`).type('form').send({ csrfmiddlewaretoken: guest.csrfToken, closed_on: '2026-11-20' });
      expect([302, 403]).toContain(asGuest.status);
      expect(day((await placeRow(place)).closed_on)).toBeNull();
    });

    test('the hub, its API and the nearby map leave a closed place out; closed=include and site search still find it, with "Closed"', async () => {
      const db = t.ctx.db;
      const hubType = await createListingType(db, { name: 'Bakeries', slug: 'bakeries' });
      const closed = await createListing(db, { name: 'Crumb Closed Bakery', type_id: hubType, latitude: 43.65, longitude: -79.4 });
      const open = await createListing(db, { name: 'Crumb Open Bakery', type_id: hubType, latitude: 43.6501, longitude: -79.4001 });
      const ahead = await createListing(db, { name: 'Crumb Closing Bakery', type_id: hubType, latitude: 43.6502, longitude: -79.4002 });
      await closePlace(db, actorOf(), closed, { closedOn: '2026-11-20', note: '' });
      await closePlace(db, actorOf(), ahead, { closedOn: '2027-01-15', note: '' });

      const hub = await request(t.app).get('/bakeries/').expect(200);
      expect(hub.text).toContain('Crumb Open Bakery');
      expect(hub.text).not.toContain('Crumb Closed Bakery');
      // Closing ahead: still open until its day, and its card says so.
      expect(hub.text).toContain('Crumb Closing Bakery');
      expect(hub.text).toContain('<span class="closed-badge" data-closed>Closing Jan 15</span>');

      const api = await request(t.app).get('/api/v2/listings/?type=bakeries').expect(200);
      expect(api.body.results.map((r: { name: string }) => r.name).sort()).toEqual(['Crumb Closing Bakery', 'Crumb Open Bakery']);
      const all = await request(t.app).get('/api/v2/listings/?type=bakeries&closed=include').expect(200);
      expect(all.body.results.find((r: { id: number }) => r.id === closed)).toMatchObject({ name: 'Crumb Closed Bakery', closed_on: '2026-11-20' });
      expect(all.body.results.find((r: { id: number }) => r.id === open).closed_on).toBeNull();
      const bad = await request(t.app).get('/api/v2/listings/?closed=maybe').expect(400);
      expect(JSON.stringify(bad.body)).toContain('closed');

      // The open place's page: the map of places nearby leaves the closed one out.
      const openPage = await request(t.app).get(`/bakeries/crumb-open-bakery-${open}/`).expect(200);
      expect(openPage.text).toContain('Crumb Closing Bakery');
      expect(openPage.text).not.toContain('Crumb Closed Bakery');

      const search = await request(t.app).get('/search?q=crumb').expect(200);
      expect(search.text).toContain('Crumb Closed Bakery');
      expect(search.text).toMatch(/closed-badge" data-closed>Closed<\/span>/);
    });

    test('its neighbourhood page keeps its card, which says "Closed"', async () => {
      const db = t.ctx.db;
      const hood = await createNeighbourhood(db, { name: 'Leslieville Closing' });
      const place = await createListing(db, { name: 'Hood Diner', type_id: typeId, neighbourhood_id: hood });
      await closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: '' });
      const res = await request(t.app).get('/neighbourhoods/leslieville-closing/').expect(200);
      const card = /<li class="place-card">(?:(?!<\/li>)[\s\S])*Hood Diner[\s\S]*?<\/li>/.exec(res.text)?.[0];
      expect(card).toContain('<span class="closed-badge" data-closed>Closed</span>');
    });

    test('a story\'s slides naming the place say "Closed", and the story page carries the place\'s key so the closing drops it', async () => {
      const db = t.ctx.db;
      const place = await createListing(db, { name: 'Slide Diner', type_id: typeId });
      const showId = await createArticle(db, { name: 'Diners we love', type_slug: 'food', is_slideshow: true });
      const storyPath = (await db('articles').where({ id: showId }).first('path')).path;
      await db('article_slides').insert({ article_id: showId, position: 1, title: 'Slide Diner', caption: 'Pancakes.', listing_id: place });
      const before = await request(t.app).get(storyPath).expect(200);
      expect(before.headers['surrogate-key']).toContain(`place-${place}`);
      // A live card in a story's body names its place's key too.
      const cardPlace = await createListing(db, { name: 'Card Diner', type_id: typeId });
      const storyId = await createArticle(db, { name: 'Where to eat' });
      await db('articles').where({ id: storyId }).update({ body_html: `<p>Go here.</p><!--live-card:place:${cardPlace}-->` });
      const story = await request(t.app).get((await db('articles').where({ id: storyId }).first('path')).path).expect(200);
      expect(story.headers['surrogate-key']).toContain(`place-${cardPlace}`);
      expect(mainOf(before.text)).not.toContain('closed-badge');
      await closePlace(db, actorOf(), place, { closedOn: '2026-11-20', note: '' });
      await t.ctx.changes.announce(closingChange({ place: { id: place, name: 'Slide Diner', slug: 'slide-diner', typeSlug: 'restaurants', neighbourhoodId: null }, closedOn: '2026-11-20', lists: [] }));
      expect(mainOf((await request(t.app).get(storyPath).expect(200)).text)).toContain('<span class="closed-badge" data-closed>Closed</span></h3>');
      expect((await request(t.app).get(`${storyPath}slideshow/`).expect(200)).text).toContain('<span class="closed-badge" data-closed>Closed</span></h2>');
    });

    test('reopening from the desk page puts it back in the hub, not on its lists', async () => {
      const { place } = await placeOnTwoLists();
      await post(`/staff/places/${place}/close/`, { closed_on: '2026-11-20', note: '' }).expect(303);
      expect((await request(t.app).get('/restaurants/').expect(200)).text).not.toContain(`Closing Diner ${n}<`);
      const res = await post(`/staff/places/${place}/reopen/`, {}).expect(303);
      expect(res.headers.location).toBe(`/staff/places/${place}/?closing=reopened#closing`);
      expect((await request(t.app).get('/restaurants/').expect(200)).text).toContain(`Closing Diner ${n}<`);
      expect(await t.ctx.db('best_of_list_items').where({ listing_id: place }).count('* as n').first()).toEqual({ n: 0 });
    });
  });
});
