import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { applyBestOfEdit } from './edit-queries';

// Best of lists that show their work, in the real app: staff edit a list at /staff/best-of/
// (add, remove, move, criteria, last visit), each with a reason; the list, its change log and
// the staff audit log change together or not at all; readers see the method, the evidence and
// the change log on the list page, the changes page and the RSS feed.

describe('Best of lists: method, change log and staff editing', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let editor: Agent;
  let typeId: number;
  let n = 0;

  beforeAll(async () => {
    t = await createTestContext();
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    editor = await memberAgent(t, staff);
    typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
  });
  afterAll(() => t.close());

  /** A list of three places, A, B, C in that order, on a fresh slug. */
  async function listOfThree(extra: { criteria?: string } = {}) {
    n += 1;
    const db = t.ctx.db;
    const slug = `best-pizza-${n}`;
    const [row] = await db('best_of_lists').insert({ title: `The best pizza ${n}`, slug, intro: 'Our picks.', ...extra }).returning('id');
    const listId = Number(row.id ?? row);
    const ids: number[] = [];
    for (const [i, name] of ['Pizzeria Libretto', 'Bitondo', 'Descendant'].entries()) {
      const id = await createListing(db, { name: `${name} ${n}`, type_id: typeId, appears_in_best_of_lists: true });
      await db('best_of_list_items').insert({ list_id: listId, listing_id: id, position: i + 1 });
      ids.push(id);
    }
    return { listId, slug, ids };
  }

  const order = async (listId: number) => t.ctx.db('best_of_list_items').where({ list_id: listId }).orderBy('position').select('listing_id', 'position');
  const changesOf = (listId: number) => t.ctx.db('best_of_list_changes').where({ list_id: listId }).orderBy('id').select('kind', 'listing_id', 'from_position', 'to_position', 'reason');
  const auditOf = (listId: number) => recentStaffActions(t.ctx.db, { subjectType: 'best_of_list', subjectId: listId });
  const post = (path: string, fields: Record<string, string>) => editor.post(path).type('form').send({ csrfmiddlewaretoken: editor.csrfToken, ...fields });

  test('the list page shows how we chose: the criteria, and each pick\'s rating, inspection and last visit', async () => {
    const db = t.ctx.db;
    const { listId, slug, ids } = await listOfThree({ criteria: 'We ate the margherita at every place twice.' });
    await db('listings').where({ id: ids[0] }).update({ rating: 4.5, rating_count: 132, dinesafe_establishment_id: 10_700_001 });
    await db('listings').where({ id: ids[1] }).update({ dinesafe_establishment_id: 10_700_002 });
    await db('dinesafe_inspections').insert([
      { establishment_id: 10_700_001, inspected_on: '2025-02-03', status: 'Conditional Pass' },
      { establishment_id: 10_700_001, inspected_on: '2025-09-18', status: 'Pass' },
    ]);
    await db('best_of_list_items').where({ list_id: listId, listing_id: ids[0] }).update({ last_visited_on: '2026-01-14' });

    const res = await request(t.app).get(`/best-of/${slug}/`).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const html = mainOf(res.text);
    expect(html).toContain('How we chose');
    expect(html).toContain('We ate the margherita at every place twice.');
    const evidence = html.slice(html.indexOf('best-of-evidence'));
    const first = evidence.slice(0, evidence.indexOf('</li>'));
    expect(first).toContain('Pizzeria Libretto');
    expect(first).toContain('4.50 from 132 ratings');
    // The latest inspection, not the earlier one.
    expect(first).toContain('DineSafe Pass, <time datetime="2025-09-18">September 18, 2025</time>');
    expect(first).toContain('<time datetime="2026-01-14">January 14, 2026</time>');
    // In DineSafe with no result on file: a link to DineSafe; not in DineSafe: no food-safety line.
    const second = evidence.slice(evidence.indexOf('</li>') + 5);
    expect(second.slice(0, second.indexOf('</li>'))).toContain('No DineSafe result on file here');
    const third = second.slice(second.indexOf('</li>') + 5);
    expect(third.slice(0, third.indexOf('</li>'))).not.toContain('Food safety');
    expect(third.slice(0, third.indexOf('</li>'))).toContain('Not rated yet');
    expect(res.text).toContain(`<link rel="alternate" type="application/rss+xml" title="Changes to The best pizza ${n} | `);
    expect(res.text).toContain(`href="/best-of/${slug}/changes/rss.xml"`);
    expect(html).toContain('No changes since the list was published.');
  });

  test('adding a place writes the list, the change log and the audit log; readers see it with the reason', async () => {
    const { listId, slug, ids } = await listOfThree();
    const added = await createListing(t.ctx.db, { name: `Pizza Wine ${n}`, type_id: typeId });
    const res = await post(`/staff/best-of/${slug}/add/`, { listing: `/restaurants/pizza-wine-${n}-${added}/`, reason: 'Three visits, three perfect pies.' });
    expect([res.status, res.headers.location]).toEqual([303, `/staff/best-of/${slug}/?done=added#changes`]);
    expect(await order(listId)).toEqual([...ids, added].map((id, i) => ({ listing_id: id, position: i + 1 })));
    expect(await changesOf(listId)).toEqual([{ kind: 'added', listing_id: added, from_position: null, to_position: 4, reason: 'Three visits, three perfect pies.' }]);
    const [entry] = await auditOf(listId);
    expect(entry).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'best_of.added', note: 'Three visits, three perfect pies.', detail: { listing_id: added, to_position: 4, list: slug } });
    expect((await t.ctx.db('listings').where({ id: added }).first('appears_in_best_of_lists')).appears_in_best_of_lists).toBe(true);

    const page = mainOf((await request(t.app).get(`/best-of/${slug}/`).expect(200)).text);
    expect(page).toContain(`Added Pizza Wine ${n} at No. 4`);
    expect(page).toContain('Three visits, three perfect pies.');
    const changes = mainOf((await request(t.app).get(`/best-of/${slug}/changes/`).expect(200)).text);
    expect(changes).toContain(`Added Pizza Wine ${n} at No. 4`);

    // Already there: refused, nothing written.
    const again = await post(`/staff/best-of/${slug}/add/`, { listing: String(added), reason: 'Twice?' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('data-field-error="listing"');
    expect(await changesOf(listId)).toHaveLength(1);
  });

  test('moving swaps a pick with its neighbour and renumbers 1..n; past either end is a 400 on direction', async () => {
    const { listId, slug, ids } = await listOfThree();
    const [a, b, c] = ids;
    expect((await post(`/staff/best-of/${slug}/move/`, { listing: String(c), direction: 'up', reason: 'The new oven changed everything.' })).status).toBe(303);
    expect((await order(listId)).map((r) => r.listing_id)).toEqual([a, c, b]);
    expect((await post(`/staff/best-of/${slug}/move/`, { listing: String(a), direction: 'down', reason: 'Slipped on our last two visits.' })).status).toBe(303);
    expect(await order(listId)).toEqual([c, a, b].map((id, i) => ({ listing_id: id, position: i + 1 })));
    expect(await changesOf(listId)).toEqual([
      { kind: 'moved_up', listing_id: c, from_position: 3, to_position: 2, reason: 'The new oven changed everything.' },
      { kind: 'moved_down', listing_id: a, from_position: 1, to_position: 2, reason: 'Slipped on our last two visits.' },
    ]);
    const top = await post(`/staff/best-of/${slug}/move/`, { listing: String(c), direction: 'up', reason: 'Higher still' });
    expect(top.status).toBe(400);
    expect(top.text).toContain('data-field-error="direction"');
    expect(top.text).toContain('It is already first on the list.');
    const bottom = await post(`/staff/best-of/${slug}/move/`, { listing: String(b), direction: 'down', reason: 'Lower' });
    expect(bottom.status).toBe(400);
    expect((await order(listId)).map((r) => r.listing_id)).toEqual([c, a, b]);
    expect(await changesOf(listId)).toHaveLength(2);
    expect(await auditOf(listId)).toHaveLength(2);
  });

  test('removing closes the gap and clears the place\'s Best of flag; criteria and visits are logged too', async () => {
    const { listId, slug, ids } = await listOfThree();
    expect((await post(`/staff/best-of/${slug}/remove/`, { listing: String(ids[1]), reason: 'Closed for good in March.' })).status).toBe(303);
    expect(await order(listId)).toEqual([ids[0], ids[2]].map((id, i) => ({ listing_id: id, position: i + 1 })));
    expect((await t.ctx.db('listings').where({ id: ids[1] }).first('appears_in_best_of_lists')).appears_in_best_of_lists).toBe(false);
    expect((await post(`/staff/best-of/${slug}/criteria/`, { criteria: 'Wood-fired only.', reason: 'We say what we mean by pizza.' })).status).toBe(303);
    expect((await t.ctx.db('best_of_lists').where({ id: listId }).first('criteria')).criteria).toBe('Wood-fired only.');
    expect((await post(`/staff/best-of/${slug}/visited/`, { listing: String(ids[2]), visited_on: '2026-01-10', reason: 'Still the best crust.' })).status).toBe(303);
    expect((await t.ctx.db('best_of_list_items').where({ list_id: listId, listing_id: ids[2] }).first('last_visited_on')).last_visited_on).toBe('2026-01-10');
    expect((await changesOf(listId)).map((c) => [c.kind, c.from_position])).toEqual([['removed', 2], ['criteria', null], ['visited', 2]]);
    expect((await auditOf(listId)).map((e) => e.action)).toEqual(['best_of.visited', 'best_of.criteria', 'best_of.removed']);

    const page = mainOf((await request(t.app).get(`/best-of/${slug}/changes/`).expect(200)).text);
    expect(page).toContain(`Removed Bitondo ${n} (was No. 2)`);
    expect(page).toContain('Closed for good in March.');
  });

  test('bad input is a 400 naming the field and writes nothing; an unknown list is a 404', async () => {
    const { listId, slug, ids } = await listOfThree();
    const cases: Array<[string, Record<string, string>, string]> = [
      ['move', { listing: String(ids[1]), direction: 'up' }, 'reason'],
      ['move', { listing: String(ids[1]), direction: 'up', reason: '   ' }, 'reason'],
      ['move', { listing: String(ids[1]), direction: 'sideways', reason: 'x' }, 'direction'],
      ['add', { listing: '999999999', reason: 'A new favourite' }, 'listing'],
      ['add', { listing: 'pizza please', reason: 'A new favourite' }, 'listing'],
      ['remove', { listing: '999999', reason: 'Gone' }, 'listing'],
      ['criteria', { criteria: '', reason: 'Clearer' }, 'criteria'],
      ['visited', { listing: String(ids[0]), visited_on: '2026-02-30', reason: 'Lunch' }, 'visited_on'],
      ['visited', { listing: String(ids[0]), visited_on: '2999-01-01', reason: 'Lunch' }, 'visited_on'],
    ];
    for (const [action, fields, field] of cases) {
      const res = await post(`/staff/best-of/${slug}/${action}/`, fields);
      // Named in the summary at the top (a pick that is not on the list has no form to show it beside).
      expect([action, JSON.stringify(fields), res.status, res.text.includes(`<li data-field="${field}">`)]).toEqual([action, JSON.stringify(fields), 400, true]);
    }
    expect(await changesOf(listId)).toEqual([]);
    expect(await auditOf(listId)).toEqual([]);
    expect((await order(listId)).map((r) => r.listing_id)).toEqual(ids);

    expect((await post('/staff/best-of/no-such-list/move/', { listing: String(ids[0]), direction: 'down', reason: 'x' })).status).toBe(404);
    expect((await editor.get('/staff/best-of/no-such-list/')).status).toBe(404);
    expect((await request(t.app).get('/best-of/no-such-list/changes/')).status).toBe(404);
    expect((await request(t.app).get('/best-of/no-such-list/changes/rss.xml')).status).toBe(404);
  });

  test('an edit that fails part-way leaves neither the change nor either log', async () => {
    const { listId, ids } = await listOfThree();
    // The audit log's email column holds 254 characters: the move and its change-log row are
    // written first, then the audit insert fails, and the transaction must take all back.
    const tooLong = { id: staff.id, email: `${'x'.repeat(260)}@example.com` };
    await expect(applyBestOfEdit(t.ctx.db, { actor: tooLong, now: t.ctx.now(), timeZone: 'America/Toronto' }, listId, { kind: 'move', listing: ids[2], direction: 'up', reason: 'Better now' })).rejects.toThrow();
    expect((await order(listId)).map((r) => r.listing_id)).toEqual(ids);
    expect(await changesOf(listId)).toEqual([]);
    expect(await auditOf(listId)).toEqual([]);
  });

  test('the change feed lists each change with its reason, newest first, and is linked from the changes page', async () => {
    const { slug, ids } = await listOfThree();
    await post(`/staff/best-of/${slug}/move/`, { listing: String(ids[1]), direction: 'up', reason: 'Crust & sauce <both> better' });
    await post(`/staff/best-of/${slug}/remove/`, { listing: String(ids[2]), reason: 'Closed.' });
    const feed = await request(t.app).get(`/best-of/${slug}/changes/rss.xml`).expect(200);
    expect(feed.type).toBe('application/rss+xml');
    expect(feed.headers['cache-control']).toBe('public, max-age=60');
    expect(feed.text).toContain('<rss version="2.0"');
    expect(feed.text).toContain(`<atom:link href="http://localhost:3000/best-of/${slug}/changes/rss.xml" rel="self" type="application/rss+xml"/>`);
    const items = [...feed.text.matchAll(/<item><title>([^<]*)<\/title><link>([^<]*)<\/link>.*?<description>([^<]*)<\/description><\/item>/g)].map((m) => [m[1], m[3]]);
    expect(items).toEqual([
      [`Removed Descendant ${n} (was No. 3)`, 'Closed.'],
      [`Moved Bitondo ${n} up from No. 2 to No. 1`, 'Crust &amp; sauce &lt;both&gt; better'],
    ]);
    const page = (await request(t.app).get(`/best-of/${slug}/changes/`).expect(200)).text;
    expect(page).toContain(`<link rel="alternate" type="application/rss+xml" title="Changes to The best pizza ${n} | `);
  });

  test('guests are sent to sign in and members refused; neither changes anything', async () => {
    const { listId, slug, ids } = await listOfThree();
    const guest = guestAgent(t.app);
    const g = await guest.post(`/staff/best-of/${slug}/move/`).type('form').send({ csrfmiddlewaretoken: guest.csrfToken, listing: String(ids[1]), direction: 'up', reason: 'x' });
    expect(g.status).toBe(302);
    const member = await memberAgent(t, await createMember(t.ctx));
    const m = await member.post(`/staff/best-of/${slug}/move/`).type('form').send({ csrfmiddlewaretoken: member.csrfToken, listing: String(ids[1]), direction: 'up', reason: 'x' });
    expect(m.status).toBe(403);
    // Without the CSRF token even staff are refused.
    expect((await editor.post(`/staff/best-of/${slug}/move/`).type('form').send({ listing: String(ids[1]), direction: 'up', reason: 'x' })).status).toBe(403);
    expect(await changesOf(listId)).toEqual([]);
    const index = await editor.get('/staff/best-of/').expect(200);
    expect(index.text).toContain(`href="/staff/best-of/${slug}/"`);
  });
});
