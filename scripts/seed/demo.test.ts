import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { verifyPassword } from '../../server/apps/accounts/passwords';
import { ARTICLE_TYPES } from '../../shared/constants';
import { DEMO_PHASES, seedDemo, seedDemoIfEmpty, type DemoSummary } from './demo';
import { DEMO_PASSWORD, STAFF_EMAIL, STAFF_PASSWORD } from './members';
import { isChain } from './chains';

// The whole demo pipeline once, end to end (fewer members and articles than npm start seeds,
// and the first 3,000 listings, to keep the file fast): every section has content that links
// up the way the pages expect.

const NOW = new Date('2026-11-22T15:00:00Z');

describe('seedDemo', () => {
  let t: TestContext;
  let summary: DemoSummary;
  const progress: string[] = [];

  beforeAll(async () => {
    t = await createTestContext();
    summary = await seedDemo(t.ctx, { now: NOW, members: 60, articlesPerType: 20, listingLimit: 3000, progress: (line) => progress.push(line) });
  }, 150_000); // generous: the machine is shared, quiet runs take about 10 s

  afterAll(async () => {
    await t?.close();
  });

  test('seeds every section', () => {
    expect(summary).toMatchObject({ neighbourhoods: 158, stations: 70, listings: 3000, members: 61, contests: 25, videos: 150 });
    expect(summary.events).toBeGreaterThan(1727);
    expect(summary.bestOfLists).toBeGreaterThanOrEqual(20);
    expect(summary.photos).toBeGreaterThan(100);
  });

  test('announces each phase as it starts, numbered out of the true total', () => {
    expect(summary.timings).toHaveLength(DEMO_PHASES);
    expect(progress).toHaveLength(DEMO_PHASES);
    expect(progress[0]).toBe(`  [1/${DEMO_PHASES}] placeholder images…`);
    expect(progress[DEMO_PHASES - 1]).toBe(`  [${DEMO_PHASES}/${DEMO_PHASES}] vacuum analyze…`);
  });

  test('the Patio Guide and Photo Challenges have something to show', async () => {
    const db = t.ctx.db;
    const patioStories = await db('articles').whereRaw(`search @@ to_tsquery('english', 'patio:A')`).where('date_published', '>=', new Date('2026-04-01T04:00:00Z'));
    expect(patioStories.length).toBeGreaterThanOrEqual(3);
    expect(summary.photoChallenges).toBeGreaterThanOrEqual(8);
    const open = await db('photo_challenges').where('start_date', '<=', NOW).where('end_date', '>', NOW);
    expect(open.length).toBeGreaterThanOrEqual(1);
    const entries = await db('photos').whereIn('challenge_id', open.map((c) => c.id)).count<{ n: string }[]>({ n: '*' });
    expect(Number(entries[0].n)).toBeGreaterThan(0);
  });

  test('articles of every type with unique /{type}/{yyyy}/{mm}/{slug}/ paths', async () => {
    const rows = await t.ctx.db('articles as a').join('article_types as t', 't.id', 'a.type_id').select('a.path', 'a.slug', 't.slug as type', 'a.body', 'a.date_published', 'a.image_key');
    const types = new Set(rows.map((r) => r.type));
    for (const type of ARTICLE_TYPES) expect(types).toContain(type.slug);
    for (const r of rows) {
      expect(r.path).toMatch(new RegExp(`^/${r.type}/\\d{4}/\\d{2}/${r.slug}/$`));
      expect(r.body.split('\n\n').length).toBeGreaterThanOrEqual(3);
      expect(new Date(r.date_published).getTime()).toBeLessThanOrEqual(NOW.getTime());
      expect(new Date(r.date_published).getUTCFullYear()).toBeGreaterThanOrEqual(2004);
    }
    expect(new Set(rows.map((r) => r.path)).size).toBe(rows.length);
    // The placeholder images were rendered and stored.
    const image = await t.ctx.storage.get(rows[0].image_key);
    expect(image?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  test('Best Of lists name 8 to 15 real listings, each with its Best Of article', async () => {
    const lists = await t.ctx.db('best_of_lists as b').join('articles as a', 'a.id', 'b.article_id').join('article_types as t', 't.id', 'a.type_id').select('b.id', 'b.title', 'a.name', 't.slug as type');
    for (const l of lists) {
      expect(l.type).toBe('best-of');
      expect(l.name).toBe(l.title);
      const items = await t.ctx.db('best_of_list_items').where({ list_id: l.id }).count<{ n: number }[]>({ n: '*' }).first();
      expect(Number(items?.n)).toBeGreaterThanOrEqual(5);
      expect(Number(items?.n)).toBeLessThanOrEqual(15);
    }
    const flagged = await t.ctx.db('listings').where({ appears_in_best_of_lists: true }).pluck('id');
    const named = await t.ctx.db('best_of_list_items').distinct('listing_id').pluck('listing_id');
    expect(flagged.sort()).toEqual(named.sort());
  });

  test('Best Of lists are independent places, and the RATING order starts with places many people rated', async () => {
    const names = await t.ctx.db('best_of_list_items as i').join('listings as l', 'l.id', 'i.listing_id').distinct('l.name').pluck('l.name');
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((n: string) => isChain(n))).toEqual([]);
    expect(names.filter((n: string) => /tim hortons|mcdonald|pizza pizza|subway|starbucks|kfc|popeyes/i.test(n))).toEqual([]);
    const top = await t.ctx.db('listings').orderByRaw('rating_rank desc nulls last, id').limit(10).select('name', 'rating_count');
    for (const l of top) expect({ name: l.name, votes: l.rating_count >= 3 }).toEqual({ name: l.name, votes: true });
  });

  test('events never hot-link a picture: the source is kept for the copy and the credit', async () => {
    const hotLinked = await t.ctx.db('events').whereNotNull('image_url').count<{ n: number }[]>({ n: '*' }).first();
    expect(Number(hotLinked?.n)).toBe(0);
    const sourced = await t.ctx.db('events').whereNotNull('image_source_url').first('image_key', 'image_credit');
    expect(sourced.image_key).toMatch(/^seed\/events-\d+\.jpg$/);
    expect(sourced.image_credit).toMatch(/City of Toronto Festivals & Events$/);
  });

  test('contests: about a third have ended', async () => {
    const ended = await t.ctx.db('contests').where('end_date', '<', NOW).count<{ n: number }[]>({ n: '*' }).first();
    expect(Number(ended?.n)).toBe(8);
  });

  test('contests with a prize ask a skill-testing question whose answer is its arithmetic, and have valid entries', async () => {
    const contests: Array<{ id: number; prize: string; skill_question: string | null; skill_answer: number | null }> = await t.ctx.db('contests').select('id', 'prize', 'skill_question', 'skill_answer');
    for (const c of contests.filter((x) => x.prize)) {
      const [, a, b, add] = /^(\d+) × (\d+) \+ (\d+) = \?$/.exec(c.skill_question ?? '') ?? [];
      expect([c.id, Number(a) * Number(b) + Number(add)]).toEqual([c.id, c.skill_answer]);
    }
    const entries = await t.ctx.db('contest_entries as e').join('contests as c', 'c.id', 'e.contest_id').select('e.skill_answer as given', 'c.skill_answer as expected', 'e.created_at', 'c.start_date');
    expect(entries.length).toBeGreaterThan(50);
    for (const e of entries) {
      expect(e.given).toBe(e.expected);
      expect(new Date(e.created_at).getTime()).toBeGreaterThanOrEqual(new Date(e.start_date).getTime());
    }
  });

  test('demo accounts sign in with the logged passwords', async () => {
    const staff = await t.ctx.db('profiles').where({ email: STAFF_EMAIL }).first();
    expect(staff.is_staff).toBe(true);
    expect(await verifyPassword(staff.password_hash, STAFF_PASSWORD)).toBe(true);
    const member = await t.ctx.db('profiles').where({ is_staff: false }).orderBy('id').first();
    expect(member.email).toMatch(/^[a-z]+\.[a-z]+\d*@example\.com$/);
    expect(await verifyPassword(member.password_hash, DEMO_PASSWORD)).toBe(true);
  });

  test('members have saves of every kind', async () => {
    for (const table of ['ratings', 'favourites', 'todos', 'article_bookmarks', 'video_bookmarks', 'event_bookmarks', 'photos']) {
      const row = await t.ctx.db(table).count<{ n: number }[]>({ n: '*' }).first();
      expect({ table, some: Number(row?.n) > 0 }).toEqual({ table, some: true });
    }
  });

  test('seedDemoIfEmpty leaves a seeded database alone', async () => {
    await seedDemoIfEmpty(t.ctx);
    const row = await t.ctx.db('neighbourhoods').count<{ n: number }[]>({ n: '*' }).first();
    expect(Number(row?.n)).toBe(158);
    const listings = await t.ctx.db('listings').count<{ n: number }[]>({ n: '*' }).first();
    expect(Number(listings?.n)).toBe(3000);
  });
});
