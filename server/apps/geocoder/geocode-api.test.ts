import request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { createListing, createNeighbourhood, createSubwayStop } from '../../testing/fixtures';
import { API_CACHE_CONTROL } from '../../http/api-cache-headers';
import { GEOCODE_RATE_LIMIT } from './api';
import { forgetGazetteer } from './loader';
import { placeKeys, surrogateKeys } from '../../http/surrogate-keys';
import type { GeocodeResult } from './queries';

// GET /api/v2/geocode/ against a small street of known points: the typed forms, interpolation
// on the right side of the street, the ends of the known range, names, errors and headers.

describe('GET /api/v2/geocode/', () => {
  let t: TestContext;

  // Bay St runs north–south here: odd numbers on the west side (longitude -79.3820), even on
  // the east (-79.3800); latitude rises 0.0001 per number, so a placed point is easy to check.
  const LAT0 = 43.64;
  const latOf = (n: number) => LAT0 + n * 0.0001;
  const WEST = -79.382;
  const EAST = -79.38;

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const bay: Array<[number, number]> = [[101, WEST], [121, WEST], [141, WEST], [100, EAST], [140, EAST], [180, EAST]];
    for (const [n, lng] of bay) await createListing(db, { name: `Bay Place ${n}`, address: `${n} Bay St`, latitude: latOf(n), longitude: lng });
    await createListing(db, { name: 'Dundas Diner', address: '317 Dundas St W, Unit-4', latitude: 43.6538, longitude: -79.3937 });
    await createListing(db, { name: 'Dundas East Deli', address: '317 Dundas St E', latitude: 43.6575, longitude: -79.3683 });
    await createListing(db, { name: 'Ballpark Snacks', address: '1 Blue Jays Way', latitude: 43.6417, longitude: -79.3901 });
    await createListing(db, { name: 'Harbour Cafe', address: '65 Front St W, Unit-442', latitude: 43.6453, longitude: -79.3805 });
    await createListing(db, { name: 'Pizzeria Uno', address: '7 Elm St', latitude: 43.657, longitude: -79.383 });
    await createListing(db, { name: 'Pizza Nova', address: '9 Elm St', latitude: 43.6571, longitude: -79.3831 });
    await createListing(db, { name: 'No Point Yet', address: '11 Elm St', latitude: null, longitude: null });
    // Maple Ave runs east from -79.40, 0.0001° a number; 30 is registered 9 km north, as DineSafe does now and then.
    for (const n of [10, 20, 40, 50]) await createListing(db, { name: `Maple ${n}`, address: `${n} Maple Ave`, latitude: 43.7, longitude: -79.4 + n * 0.0001 });
    await createListing(db, { name: 'Maple 30', address: '30 Maple Ave', latitude: 43.78, longitude: -79.397 });
    await createSubwayStop(db, { name: 'Bloor-Yonge', latitude: 43.670283, longitude: -79.38554 });
    await createSubwayStop(db, { name: 'Union', latitude: 43.645753, longitude: -79.379226 });
    await createNeighbourhood(db, { id: 70, name: 'South Riverdale' });
    await createNeighbourhood(db, { id: 85, name: 'Fort York-Liberty Village' });
  });
  afterAll(() => t.close());

  const geocode = async (q: string): Promise<GeocodeResult[]> => {
    const res = await request(t.app).get('/api/v2/geocode/').query({ q }).expect(200);
    return res.body.results;
  };

  test.each([
    ['401 Bay Street', '121 Bay Street'],
    ['lower case and abbreviated', '121 bay st'],
    ['capitals and a unit', '121 BAY ST, Unit-442'],
    ['a unit after #', '121 Bay St #5'],
    ['the city and postal code', '121 Bay St, Toronto, ON M5J 2R8'],
  ])('a known address, typed as %s, gives its own point', async (_how, q) => {
    expect(await geocode(q)).toEqual([{ label: '121 Bay St', kind: 'address', coordinates: { latitude: latOf(121), longitude: WEST } }]);
  });

  test('"317 Dundas St. W." is the west one, not 317 Dundas St E', async () => {
    const [first, ...rest] = await geocode('317 Dundas St. W.');
    expect(first).toEqual({ label: '317 Dundas St W', kind: 'address', coordinates: { latitude: 43.6538, longitude: -79.3937 } });
    expect(rest).toEqual([]);
  });

  test('"1 Blue Jays Way, Toronto" and a unit number in a registered address', async () => {
    expect((await geocode('1 Blue Jays Way, Toronto'))[0]).toMatchObject({ kind: 'address', coordinates: { latitude: 43.6417, longitude: -79.3901 } });
    expect((await geocode('65 front street west'))[0]).toMatchObject({ label: '65 Front St W', coordinates: { latitude: 43.6453, longitude: -79.3805 } });
  });

  test('an unknown odd number is placed between its odd neighbours, on their side of the street', async () => {
    // 131 lies between 121 and 141 (west); the even 100 and 140 are nearer by number but across the street.
    const [r] = await geocode('131 Bay St');
    expect(r.label).toBe('131 Bay St');
    expect(r.kind).toBe('address');
    expect(r.coordinates.longitude).toBeCloseTo(WEST, 6);
    expect(r.coordinates.latitude).toBeCloseTo(latOf(131), 6);
  });

  test('an unknown even number is placed between its even neighbours, on the east side', async () => {
    const [r] = await geocode('160 Bay St');
    expect(r.coordinates.longitude).toBeCloseTo(EAST, 6);
    expect(r.coordinates.latitude).toBeCloseTo(latOf(160), 6);
  });

  test('with no neighbour on its own side above it, a number is placed between neighbours of either side', async () => {
    // 151: no odd number above 141; 141 (west) and 180 (east) bracket it.
    const [r] = await geocode('151 Bay St');
    const t151 = (151 - 141) / (180 - 141);
    expect(r.coordinates.latitude).toBeCloseTo(latOf(151), 6);
    expect(r.coordinates.longitude).toBeCloseTo(WEST + t151 * (EAST - WEST), 6);
  });

  test('a number a little past the known range takes the nearest known number\'s point; far past it, none', async () => {
    expect((await geocode('220 Bay St'))[0]).toMatchObject({ label: '220 Bay St', coordinates: { latitude: latOf(180), longitude: EAST } });
    expect((await geocode('60 Bay St'))[0]).toMatchObject({ label: '60 Bay St', coordinates: { latitude: latOf(100), longitude: EAST } });
    // 999 is 819 numbers past 180: a point there would be a guess on the wrong block.
    expect((await geocode('999 Bay St')).filter((r) => r.kind === 'address')).toEqual([]);
  });

  test('a lone point far from both its neighbours is not used to place others, but answers for itself', async () => {
    const [placed] = await geocode('34 Maple Ave');
    expect(placed.coordinates.latitude).toBeCloseTo(43.7, 6);
    expect(placed.coordinates.longitude).toBeCloseTo(-79.4 + 34 * 0.0001, 6);
    expect((await geocode('30 Maple Ave'))[0].coordinates).toEqual({ latitude: 43.78, longitude: -79.397 });
  });

  test('a street typed without its type is still found', async () => {
    expect((await geocode('121 bay'))[0]).toMatchObject({ label: '121 Bay St', kind: 'address' });
  });

  test('an unknown street answers 200 with no results', async () => {
    expect(await geocode('12 Nowhere Street')).toEqual([]);
    expect(await geocode('zzzz')).toEqual([]);
  });

  test.each(['Bloor-Yonge', 'bloor yonge station', 'BLOOR YONGE'])('the station %j', async (q) => {
    expect((await geocode(q))[0]).toEqual({ label: 'Bloor-Yonge station', kind: 'station', coordinates: { latitude: 43.670283, longitude: -79.38554 } });
  });

  test('neighbourhoods by name, by part of a hyphenated name and by a common name', async () => {
    expect((await geocode('south riverdale'))[0]).toMatchObject({ label: 'South Riverdale', kind: 'neighbourhood', coordinates: { latitude: 43.65, longitude: -79.39 } });
    expect((await geocode('Liberty Village'))[0]).toMatchObject({ label: 'Fort York-Liberty Village', kind: 'neighbourhood' });
    expect((await geocode('Leslieville'))[0]).toMatchObject({ label: 'Leslieville (South Riverdale)', kind: 'neighbourhood' });
  });

  test('places by name prefix, with their address; a place without a point is left out', async () => {
    const results = await geocode('pizz');
    expect(results.map((r) => [r.kind, r.label])).toEqual([
      ['place', 'Pizza Nova, 9 Elm St'],
      ['place', 'Pizzeria Uno, 7 Elm St'],
    ]);
    expect(await geocode('No Point Yet')).toEqual([]);
  });

  test('kinds come in order: addresses, stations, neighbourhoods, places; at most ten', async () => {
    const db = t.ctx.db;
    for (let i = 0; i < 12; i++) await createListing(db, { name: `Union Bakery ${String(i).padStart(2, '0')}`, address: `${i + 1} Union St`, latitude: 43.66, longitude: -79.4 });
    // The gazetteer read at the first look-up is kept for minutes: these are read only once it is forgotten.
    forgetGazetteer(db);
    const results = await geocode('union');
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({ kind: 'station', label: 'Union station' });
    expect(new Set(results.slice(1).map((r) => r.kind))).toEqual(new Set(['place']));
    const mixed = await geocode('1 Union St');
    expect(mixed[0]).toMatchObject({ kind: 'address', label: '1 Union St' });
  });

  test("a place's other changes keep the gazetteer; a change naming place-locations (added, renamed, moved) drops it", async () => {
    const db = t.ctx.db;
    expect(await geocode('Quiet Corner')).toEqual([]); // read now, and kept
    const id = await createListing(db, { name: 'Quiet Corner Cafe', address: '13 Elm St', latitude: 43.6572, longitude: -79.3832 });
    // An hours or accessibility change names the place, its hub, every list of places, its neighbourhood.
    await t.ctx.changes.announce({ subject: `place:${id}`, paths: [], keys: placeKeys({ id, typeSlug: 'restaurants', neighbourhoodId: 70 }) });
    expect(await geocode('Quiet Corner')).toEqual([]);
    await t.ctx.changes.announce({ subject: `place:${id}`, paths: [], keys: [...placeKeys({ id, typeSlug: 'restaurants', neighbourhoodId: 70 }), surrogateKeys.placeLocations] });
    expect((await geocode('Quiet Corner'))[0]).toMatchObject({ kind: 'place', label: 'Quiet Corner Cafe, 13 Elm St' });
  });

  test('a missing, blank, over-long or NUL-holding q is a 400 naming q', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'This field is required.'],
      [{ q: '' }, 'This field may not be blank.'],
      [{ q: '   ' }, 'This field may not be blank.'],
      [{ q: `1 ${'a'.repeat(200)} St` }, 'Ensure this field has no more than 200 characters.'],
      [{ q: '401 Bay\u0000 St' }, 'Null characters are not allowed.'],
    ];
    for (const [query, message] of cases) {
      const res = await request(t.app).get('/api/v2/geocode/').query(query).expect(400);
      expect(res.body).toEqual({ q: [message] });
    }
    // Exactly 200 characters is allowed.
    await request(t.app).get('/api/v2/geocode/').query({ q: 'a'.repeat(200) }).expect(200);
    const twice = await request(t.app).get('/api/v2/geocode/?q=a&q=b').expect(400);
    expect(Object.keys(twice.body)).toEqual(['q']);
  });

  test('public and cacheable for guests, private for members, as the other read APIs', async () => {
    const guest = await request(t.app).get('/api/v2/geocode/').query({ q: '121 Bay St' }).expect(200);
    expect(guest.headers['cache-control']).toBe(API_CACHE_CONTROL.guest);
    expect(guest.headers.vary).toMatch(/Cookie/);
    expect(guest.headers['set-cookie']).toBeUndefined();
    const member = await createMember(t.ctx);
    const agent = await memberAgent(t, member);
    const res = await agent.get('/api/v2/geocode/').query({ q: '121 Bay St' }).expect(200);
    expect(res.headers['cache-control']).toBe(API_CACHE_CONTROL.member);
    expect(res.body.results[0].label).toBe('121 Bay St');
  });

  test('rate limited per address when rate limits are on', async () => {
    const app = t.rebuild({ RATE_LIMITS: 'true' });
    for (let i = 0; i < GEOCODE_RATE_LIMIT.limit; i++) await request(app).get('/api/v2/geocode/').query({ q: `${i} Bay St` }).expect(200);
    const refused = await request(app).get('/api/v2/geocode/').query({ q: '1 Bay St' }).expect(429);
    expect(refused.body).toEqual({ detail: expect.any(String) });
  });
});
