import request from 'supertest';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { mainOf } from '../../server/testing/html-test-helpers';
import { seedDemo } from './demo';
import { STAFF_EMAIL } from './members';

// The demo's Best of histories (best-of-history.ts): every list has criteria and visits, and
// its change log is one an editor could have written: dated between publication and now,
// each reason given, and consistent with today's order when undone step by step.

const NOW = new Date('2026-11-22T15:00:00Z');

describe('seeded Best of history', () => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestContext();
    await seedDemo(t.ctx, { now: NOW, members: 30, articlesPerType: 5, listingLimit: 3000 });
  }, 150_000);
  afterAll(() => t?.close());

  test('every list has criteria, ranks 1..n and last visits in the past', async () => {
    const db = t.ctx.db;
    const lists = await db('best_of_lists').select('id', 'criteria');
    expect(lists.length).toBeGreaterThanOrEqual(20);
    for (const l of lists) {
      expect(l.criteria).toMatch(/no chains/);
      const items = await db('best_of_list_items').where({ list_id: l.id }).orderBy('position').select('position', 'last_visited_on');
      expect(items.map((i) => i.position)).toEqual(items.map((_, k) => k + 1));
      for (const i of items) if (i.last_visited_on) expect(i.last_visited_on < '2026-11-22').toBe(true);
      expect(items.filter((i) => i.last_visited_on).length).toBeGreaterThan(items.length / 2);
    }
  });

  test('each change log undoes, newest first, to a valid first edition, with dates and reasons in order', async () => {
    const db = t.ctx.db;
    const lists = await db('best_of_lists').select('id', 'date_published');
    let total = 0;
    for (const l of lists) {
      const today: number[] = (await db('best_of_list_items').where({ list_id: l.id }).orderBy('position').pluck('listing_id')).map(Number);
      const changes = await db('best_of_list_changes').where({ list_id: l.id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).select('*');
      total += changes.length;
      const state = [...today];
      for (const c of changes) {
        expect(c.reason.trim().length).toBeGreaterThan(10);
        expect(new Date(c.created_at).getTime()).toBeGreaterThan(new Date(l.date_published).getTime());
        expect(new Date(c.created_at).getTime()).toBeLessThan(NOW.getTime());
        const id = c.listing_id === null ? null : Number(c.listing_id);
        if (c.kind === 'added') {
          expect([c.kind, state[state.length - 1], c.to_position]).toEqual([c.kind, id, state.length]);
          state.pop();
        } else if (c.kind === 'moved_up' || c.kind === 'moved_down') {
          expect([c.kind, state[c.to_position - 1]]).toEqual([c.kind, id]);
          expect(Math.abs(c.from_position - c.to_position)).toBe(1);
          const [moved] = state.splice(c.to_position - 1, 1);
          state.splice(c.from_position - 1, 0, moved);
        } else if (c.kind === 'removed') {
          expect(state).not.toContain(id);
          expect(c.from_position).toBeLessThanOrEqual(state.length + 1);
          state.splice(c.from_position - 1, 0, id!);
        }
      }
      expect(new Set(state).size).toBe(state.length);
    }
    expect(total).toBeGreaterThan(lists.length * 2);
    const audit = await db('staff_audit_log').where({ subject_type: 'best_of_list', staff_email: STAFF_EMAIL }).count<{ n: number | string }[]>({ n: '*' }).first();
    expect(Number(audit?.n)).toBe(total);
  });

  test('a seeded list page shows its method and its latest changes', async () => {
    const list = await t.ctx.db('best_of_lists as b').whereExists(t.ctx.db('best_of_list_changes as c').whereRaw('c.list_id = b.id')).first('slug');
    const html = mainOf((await request(t.app).get(`/best-of/${list.slug}/`).expect(200)).text);
    expect(html).toContain('How we chose');
    expect(html).toContain('class="change-log__reason"');
    expect(html).not.toContain('No changes since the list was published.');
  });
});
