import { createTestContext, type TestContext } from '../../testing/test-app';
import { createNeighbourhood, createSubwayStop } from '../../testing/fixtures';
import { insertTorontoNeighbourhoods } from '../../testing/toronto-neighbourhoods';
import { boundaryContains } from './boundary';
import { locatePlace } from './location-queries';

// Where a place is, from its point alone: the neighbourhood whose boundary holds it (not merely
// its bounding box) and the nearest station with its distance; outside every boundary, nothing.

describe('boundaryContains', () => {
  // A 2×2 square with a 1×1 hole in its middle, and a separate square far east.
  const donut = {
    type: 'MultiPolygon' as const,
    coordinates: [
      [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]], [[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5], [0.5, 0.5]]],
      [[[10, 0], [11, 0], [11, 1], [10, 1], [10, 0]]],
    ],
  };

  test('inside the outer ring, in a hole, in the second polygon, outside', () => {
    expect(boundaryContains(donut, 0.25, 0.25)).toBe(true);
    expect(boundaryContains(donut, 1, 1)).toBe(false);
    expect(boundaryContains(donut, 0.5, 10.5)).toBe(true);
    expect(boundaryContains(donut, 0.5, 5)).toBe(false);
  });

  test('a plain Polygon is read too', () => {
    const triangle = { type: 'Polygon' as const, coordinates: [[[0, 0], [4, 0], [0, 4], [0, 0]]] };
    expect(boundaryContains(triangle, 1, 1)).toBe(true);
    expect(boundaryContains(triangle, 3, 3)).toBe(false);
  });
});

describe('locatePlace', () => {
  let t: TestContext;
  let hoodId: number;
  let near: number;

  beforeAll(async () => {
    t = await createTestContext();
    // The fixture's square: latitude 43.64–43.66, longitude -79.40 – -79.38.
    hoodId = await createNeighbourhood(t.ctx.db, { name: 'Queen West Test' });
    // A triangle whose bounding box covers the square's east half but whose shape does not
    // reach its north-west: a point there is in the box, not the neighbourhood.
    await t.ctx.db('neighbourhoods').insert({
      id: 990, name: 'Triangle Test', slug: 'triangle-test',
      boundaries: JSON.stringify({ type: 'MultiPolygon', coordinates: [[[[-79.38, 43.64], [-79.36, 43.64], [-79.36, 43.66], [-79.38, 43.64]]]] }),
      label_latitude: 43.645, label_longitude: -79.365,
      min_latitude: 43.64, min_longitude: -79.38, max_latitude: 43.66, max_longitude: -79.36,
    });
    near = await createSubwayStop(t.ctx.db, { name: 'Osgoode Test', latitude: 43.6507, longitude: -79.3868 });
    await createSubwayStop(t.ctx.db, { name: 'Far Test', latitude: 43.7, longitude: -79.5 });
  });
  afterAll(() => t.close());

  test('a point in the neighbourhood: its name and the nearest station in metres', async () => {
    const where = await locatePlace(t.ctx.db, { latitude: 43.6507, longitude: -79.39 });
    expect(where.neighbourhood).toEqual({ id: hoodId, name: 'Queen West Test' });
    // 0.0032° of longitude at 43.65° N is about 257 m.
    expect(where.station).toEqual({ id: near, name: 'Osgoode Test', distanceM: expect.any(Number) });
    expect(where.station!.distanceM).toBeGreaterThan(245);
    expect(where.station!.distanceM).toBeLessThan(270);
  });

  test('the shape decides, not the bounding box', async () => {
    // South-east corner of the triangle's box: inside the triangle.
    expect((await locatePlace(t.ctx.db, { latitude: 43.641, longitude: -79.362 })).neighbourhood?.name).toBe('Triangle Test');
    // North-west corner of its box: in the box, outside the triangle and east of the square.
    expect(await locatePlace(t.ctx.db, { latitude: 43.659, longitude: -79.378 })).toEqual({ neighbourhood: null, station: null });
  });

  test('outside Toronto: neither a neighbourhood nor a station', async () => {
    expect(await locatePlace(t.ctx.db, { latitude: 45.5017, longitude: -73.5673 })).toEqual({ neighbourhood: null, station: null });
  });
});

describe('locatePlace with the City of Toronto boundaries', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await insertTorontoNeighbourhoods(t.ctx.db);
    await createSubwayStop(t.ctx.db, { name: 'Osgoode', latitude: 43.6507, longitude: -79.3868 });
  });
  afterAll(() => t.close());

  test('Queen St W is the line between Kensington-Chinatown and Wellington Place', async () => {
    const north = await locatePlace(t.ctx.db, { latitude: 43.651, longitude: -79.389 });
    const south = await locatePlace(t.ctx.db, { latitude: 43.65, longitude: -79.388 });
    expect([north.neighbourhood?.name, south.neighbourhood?.name]).toEqual(['Kensington-Chinatown', 'Wellington Place']);
    expect(south.station).toMatchObject({ name: 'Osgoode' });
    // Lake Ontario, south of the Toronto Islands: in the city's box, in no neighbourhood.
    expect(await locatePlace(t.ctx.db, { latitude: 43.58, longitude: -79.4 })).toEqual({ neighbourhood: null, station: null });
  });
});
