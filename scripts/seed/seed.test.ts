import moment from 'moment-timezone';
import { createTestContext, type TestContext } from '../../server/testing/test-app';
import { readEstablishments, readFestivalEvents } from './data-files';
import { Rng } from './random';
import { seedNeighbourhoods } from './neighbourhoods';
import { seedSubwayStops } from './stations';
import { seedListingTaxonomy, seedListings, type ListingRef } from './listings';
import { seedMembers } from './members';
import { ratingRank, smartReviewScore } from '../../server/apps/listings/smart-review';
import { recomputeListingStats, seedListingEngagement } from './engagement';
import { cityEventDrafts, generatedEventDrafts, insertEvents, scheduleFromInstants, UPCOMING_WINDOW_DAYS } from './events';
import { classifyEstablishment, kindPhrase } from './listing-taxonomy';
import { titleCaseAddress, titleCaseName } from './text-case';
import type { ImagePool } from './images';

// The real importers on the real files: every neighbourhood and station, the first listings
// and City events, generated events around a fixed date. Two databases seeded the same way
// must hold the same rows.

const TZ = 'Canada/Eastern';
const NOW = new Date('2026-11-22T15:00:00Z');
const LISTING_LIMIT = 400;
const EVENT_LIMIT = 200;
// The importers only need storage keys; rendering real images is tested by the demo run.
const IMAGES: ImagePool = { events: ['seed/events-1.jpg'], restaurants: ['seed/restaurants-1.jpg'], bars: ['seed/bars-1.jpg'], neighbourhoods: ['seed/neighbourhoods-1.jpg'] };

async function seedSubset(t: TestContext, seed = 2004): Promise<{ listings: ListingRef[] }> {
  const db = t.ctx.db;
  const rng = new Rng(seed);
  const neighbourhoods = await seedNeighbourhoods(db, { images: IMAGES.neighbourhoods });
  const stations = await seedSubwayStops(db);
  const taxonomy = await seedListingTaxonomy(db);
  const listings = await seedListings(db, { rng: rng.fork('listings'), now: NOW, timeZone: TZ, taxonomy, neighbourhoods, stations, images: IMAGES, limit: LISTING_LIMIT });
  const { members } = await seedMembers(db, { rng: rng.fork('members'), now: NOW, count: 25 });
  await seedListingEngagement(db, { rng: rng.fork('engagement'), now: NOW, listings, members, knownCount: 150 });
  await recomputeListingStats(db, NOW);
  const drafts = [
    ...cityEventDrafts({ rng: rng.fork('city-events'), now: NOW, timeZone: TZ, images: IMAGES, limit: EVENT_LIMIT }),
    ...generatedEventDrafts({ rng: rng.fork('generated-events'), now: NOW, timeZone: TZ, listings, members, images: IMAGES }),
  ];
  await insertEvents(db, drafts, TZ);
  return { listings };
}

const TABLES_TO_COMPARE: Array<[string, string]> = [
  ['neighbourhoods', 'id'],
  ['subway_stops', 'id'],
  ['listings', 'id'],
  ['listing_features', 'listing_id, feature_id'],
  ['listing_services', 'listing_id, service_id'],
  ['profiles', 'id'],
  ['ratings', 'id'],
  ['favourites', 'id'],
  ['events', 'id'],
  ['event_occurrences', 'id'],
];

describe('seed importers on the real data', () => {
  let a: TestContext;
  let b: TestContext;
  let listings: ListingRef[];

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestContext(), createTestContext()]);
    ({ listings } = await seedSubset(a));
    await seedSubset(b);
  }, 120_000); // generous: the machine is shared, quiet runs take about 5 s

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  test('all 158 neighbourhoods with boundaries, label points inside their box, and census facts', async () => {
    const rows = await a.ctx.db('neighbourhoods').select('*').orderBy('id');
    expect(rows).toHaveLength(158);
    for (const n of rows) {
      expect(n.boundaries.type).toBe('MultiPolygon');
      expect(n.label_latitude).toBeGreaterThanOrEqual(n.min_latitude);
      expect(n.label_latitude).toBeLessThanOrEqual(n.max_latitude);
      expect(n.label_longitude).toBeGreaterThanOrEqual(n.min_longitude);
      expect(n.label_longitude).toBeLessThanOrEqual(n.max_longitude);
      expect(n.blurb).toContain(n.name);
    }
    const first = rows[0];
    expect(first).toMatchObject({ id: 1, name: 'West Humber-Clairville', slug: 'west-humber-clairville' });
    expect(first.census.population_2021).toBe(33300);
    expect(first.blurb).toContain('33,300 people');
  });

  test('all 70 subway stations, slugged by their station id', async () => {
    const rows = await a.ctx.db('subway_stops').select('*');
    expect(rows).toHaveLength(70);
    const bloorYonge = rows.find((s) => s.slug === 'bloor-yonge');
    expect(bloorYonge).toMatchObject({ name: 'Bloor-Yonge', lines: '1;2' });
    // The two Vaughan stations are outside every Toronto neighbourhood.
    expect(rows.filter((s) => s.neighbourhood_id == null).map((s) => s.slug).sort()).toEqual(['highway-407', 'vaughan-metropolitan-centre']);
  });

  test('listings carry the DineSafe id, neighbourhood and nearest station of the CSV', async () => {
    const csv = readEstablishments().slice(0, LISTING_LIMIT);
    const rows = await a.ctx.db('listings as l').leftJoin('subway_stops as s', 's.id', 'l.nearest_subway_stop_id').select('l.*', 's.slug as station_slug').orderBy('l.id');
    expect(rows).toHaveLength(LISTING_LIMIT);
    rows.forEach((row, i) => {
      const e = csv[i];
      expect(Number(row.dinesafe_establishment_id)).toBe(e.establishment_id);
      expect(row.neighbourhood_id).toBe(e.neighbourhood_id);
      expect(row.station_slug).toBe(e.nearest_station_id);
      expect(row.nearest_subway_stop_distance_m).toBe(e.nearest_station_distance_m);
      expect(row.latitude).toBe(e.latitude);
      expect(row.longitude).toBe(e.longitude);
    });
    const first = rows[0];
    expect(first).toMatchObject({ name: '# Hashtag India Restaurant', address: "1871 O'Connor Dr", neighbourhood_id: 43, station_slug: 'warden' });
    const slugs = rows.map((r) => r.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(listings.map((l) => l.id)).toEqual(rows.map((r) => r.id));
  });

  test('listing ratings and the smart review score follow the documented formula', async () => {
    const db = a.ctx.db;
    const ratings = await db('ratings').select('listing_id', 'rating', 'date_created');
    expect(ratings.length).toBeGreaterThan(50);
    const rated = await db('listings').where('rating_count', '>', 0).select('id', 'rating', 'rating_count', 'rating_rank', 'smart_review_score');
    const yearAgo = NOW.getTime() - 365 * 86_400_000;
    for (const l of rated) {
      const mine = ratings.filter((r) => r.listing_id === l.id);
      const sum = mine.reduce((s, r) => s + r.rating, 0);
      const recent = mine.filter((r) => new Date(r.date_created).getTime() > yearAgo).length;
      expect(l.rating_count).toBe(mine.length);
      expect(Number(l.rating)).toBeCloseTo(sum / mine.length, 2);
      // The server's formula (rating_rank with the fixed prior m = 3.5) gives the same numbers.
      expect(l.rating_rank).toBeCloseTo(ratingRank({ n: mine.length, sum })!, 6);
      expect(l.smart_review_score).toBeCloseTo(smartReviewScore({ n: mine.length, sum, recent }), 6);
    }
    const favourites = await db('favourites').count<{ n: number }[]>({ n: '*' }).first();
    const favouriteSum = await db('listings').sum<{ s: number }[]>({ s: 'favourite_count' }).first();
    expect(Number(favouriteSum?.s)).toBe(Number(favourites?.n));
  });

  test('a City event keeps its Canada/Eastern local date and time', async () => {
    const [source] = readFestivalEvents();
    expect(source.start).toBe('2024-05-09T02:00:00.000Z'); // 10 pm on May 8 in Toronto (EDT)
    const event = await a.ctx.db('events').where({ source: 'city_of_toronto' }).orderBy('id').first();
    expect(event).toMatchObject({ title: source.name, schedule_type: 'single_day', start_date: '2024-05-08', start_time: '22:00:00', end_time: '23:50:00', is_free: false, venue_name: 'BACKROOM COMEDY CLUB' });
    expect(Number(event.price_cad)).toBe(15);
    const [occurrence] = await a.ctx.db('event_occurrences').where({ event_id: event.id });
    expect(occurrence.local_date).toBe('2024-05-08');
    expect(new Date(occurrence.starts_at).toISOString()).toBe('2024-05-09T02:00:00.000Z');
    expect(await a.ctx.db('events').where({ source: 'city_of_toronto' }).count<{ n: number }[]>({ n: '*' }).first()).toEqual({ n: EVENT_LIMIT });
  });

  test('the coming 60 days have events of all four schedule types', async () => {
    const today = moment(NOW).tz(TZ).format('YYYY-MM-DD');
    const last = moment(NOW).tz(TZ).add(UPCOMING_WINDOW_DAYS - 1, 'days').format('YYYY-MM-DD');
    const rows = await a.ctx.db('event_occurrences as o')
      .join('events as e', 'e.id', 'o.event_id')
      .where('e.status', 'approved')
      .whereBetween('o.local_date', [today, last])
      .groupBy('e.schedule_type')
      .select('e.schedule_type', a.ctx.db.raw('count(distinct e.id)::int as n'));
    const byType = Object.fromEntries(rows.map((r) => [r.schedule_type, r.n]));
    for (const type of ['single_day', 'day_range', 'weekly', 'irregular']) expect(byType[type]).toBeGreaterThan(0);
    // Weekly events keep their weekdays (0 = Sunday) and only occur on them.
    const weekly = await a.ctx.db('events').where({ schedule_type: 'weekly' }).first();
    const days = await a.ctx.db('event_occurrences').where({ event_id: weekly.id }).pluck('local_date');
    expect(days.length).toBeGreaterThan(4);
    for (const d of days) expect(weekly.weekdays).toContain(moment(d, 'YYYY-MM-DD').day());
  });

  test('two runs with the same seed give identical rows', async () => {
    for (const [table, order] of TABLES_TO_COMPARE) {
      const [left, right] = await Promise.all([a.ctx.db.raw(`SELECT * FROM ${table} ORDER BY ${order}`), b.ctx.db.raw(`SELECT * FROM ${table} ORDER BY ${order}`)]);
      expect(left.rows.length).toBeGreaterThan(0);
      // Password hashes are salted, so they differ by design; everything else must not.
      const comparable = (rows: Array<Record<string, unknown>>) => JSON.stringify(rows.map(({ password_hash: _hash, ...rest }) => rest));
      expect({ table, rows: comparable(right.rows) }).toEqual({ table, rows: comparable(left.rows) });
    }
  });
});

describe('seed helpers', () => {
  test('title case keeps acronyms, possessives and Mc/O\' names', () => {
    expect(titleCaseName("MCDONALD'S")).toBe("McDonald's");
    expect(titleCaseName("1 HOTEL TORONTO - HARRIET'S")).toBe("1 Hotel Toronto - Harriet's");
    expect(titleCaseName('KFC EXPRESS')).toBe('KFC Express');
    expect(titleCaseName('13 SUNS ETHIOPIAN VEGAN CUISINE INC')).toBe('13 Suns Ethiopian Vegan Cuisine');
    expect(titleCaseName('PIZZA PIZZA (Emporium)')).toBe('Pizza Pizza (Emporium)');
    expect(titleCaseAddress('65 FRONT ST W, Unit-442')).toBe('65 Front St W, Unit-442');
    expect(titleCaseAddress('2950 BIRCHMOUNT RD, Unit-5D')).toBe('2950 Birchmount Rd, Unit-5D');
  });

  test('types follow the DineSafe licence, sub-types what the name announces', () => {
    expect(classifyEstablishment({ name: 'BANGKOK GARDEN', category: 'restaurant', dinesafe_type: 'Restaurant' })).toEqual({ type: 'restaurants', subType: 'thai' });
    expect(classifyEstablishment({ name: 'STARBUCKS', category: 'restaurant', dinesafe_type: 'Restaurant' })).toEqual({ type: 'cafes', subType: 'coffee' });
    expect(classifyEstablishment({ name: 'BELLWOODS BREWERY', category: 'restaurant', dinesafe_type: 'Restaurant' })).toEqual({ type: 'bars', subType: 'breweries' });
    expect(classifyEstablishment({ name: 'ABBEY MEAT MARKET', category: 'specialty_food_shop', dinesafe_type: 'Butcher Shop' })).toEqual({ type: 'food-shops', subType: 'butchers' });
    expect(classifyEstablishment({ name: 'SOMEWHERE', category: 'takeout', dinesafe_type: 'Food Take Out' })).toEqual({ type: 'take-out', subType: null });
    expect(kindPhrase('bakeries', 'ice-cream')).toBe('an ice cream shop');
    expect(kindPhrase('restaurants', 'ramen-noodles')).toBe('a ramen and noodle restaurant');
  });

  test('City event schedules: overnight shows are single days, long runs are day ranges', () => {
    expect(scheduleFromInstants('2025-06-01T21:00:00-04:00', '2025-06-02T01:00:00-04:00', TZ)).toMatchObject({ schedule_type: 'single_day', start_date: '2025-06-01', start_time: '21:00:00', end_time: '01:00:00' });
    expect(scheduleFromInstants('2025-06-01T14:00:00Z', '2025-06-20T21:00:00Z', TZ)).toMatchObject({ schedule_type: 'day_range', start_date: '2025-06-01', end_date: '2025-06-20', start_time: '10:00:00', end_time: '17:00:00' });
    expect(scheduleFromInstants('2025-12-01T00:00:00-05:00', '2025-12-03T00:00:00-05:00', TZ)).toMatchObject({ schedule_type: 'day_range', end_date: '2025-12-02', all_day: true });
  });

  test('the PRNG is deterministic and forks are independent of draw order', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    expect(Array.from({ length: 5 }, () => a.float())).toEqual(Array.from({ length: 5 }, () => b.float()));
    expect(new Rng(7).fork('x').int(0, 1e9)).toBe(b.fork('x').int(0, 1e9));
    expect(new Rng(7).fork('x').int(0, 1e9)).not.toBe(new Rng(7).fork('y').int(0, 1e9));
  });
});
