import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR, DATA_FILES, parseCsv } from '../seed/data-files';
import type { ContextCollection } from '../../shared/map-context';
import { streetLabel } from './street-name';
import { buildStreets, STREETS, type AddressPoint } from './streets';

// The streets every map draws are traced through our food premises' addresses. These tests hold
// the shipped geometry (static/map/toronto-context.json) to what a Torontonian knows, and the
// method to its promises: outliers dropped, gaps never bridged.

const CONTEXT = path.resolve(__dirname, '..', '..', 'static', 'map', 'toronto-context.json');
const shipped = JSON.parse(fs.readFileSync(CONTEXT, 'utf8')) as ContextCollection;
const streets = shipped.features.filter((f) => f.properties.layer === 'street');
const linesOf = (name: string) => streets.filter((f) => f.properties.name === name).map((f) => f.geometry.coordinates as number[][]);

const stations = new Map(parseCsv(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.stations), 'utf8')).map((r) => [r.station_name, [Number(r.longitude), Number(r.latitude)]]));
const station = (name: string) => {
  const at = stations.get(name);
  if (!at) throw new Error(`no station ${name}`);
  return at;
};

// Local metres east and north, enough for distances across the city.
const M_LAT = 111_132;
const M_LNG = 111_320 * Math.cos((43.7 * Math.PI) / 180);
type XY = [number, number];
const xy = (c: number[]): XY => [c[0] * M_LNG, c[1] * M_LAT];

function distToSegment(p: XY, a: XY, b: XY): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}
const distToLines = (p: number[], lines: number[][][]) =>
  Math.min(...lines.flatMap((l) => l.slice(1).map((c, i) => distToSegment(xy(p), xy(l[i]), xy(c)))));

/** Where segment ab crosses segment cd, if it does. */
function crossing(a: XY, b: XY, c: XY, d: XY): XY | null {
  const den = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0]);
  if (!den) return null;
  const t = ((c[0] - a[0]) * (d[1] - c[1]) - (c[1] - a[1]) * (d[0] - c[0])) / den;
  const u = ((c[0] - a[0]) * (b[1] - a[1]) - (c[1] - a[1]) * (b[0] - a[0])) / den;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])] : null;
}

describe('street names', () => {
  // Addresses are parsed by the geocoder's parser (its cases: server/apps/geocoder/normalise.test.ts).
  test('labels read as street signs do, from the street as the data writes it', () => {
    expect(['ST CLAIR AVE W', 'MCCAUL ST', "o'connor dr", 'the queensway'].map(streetLabel)).toEqual(['St Clair Ave W', 'McCaul St', "O'Connor Dr", 'The Queensway']);
  });

  test('one line per street however its addresses write it, labelled as most write it', () => {
    const written = ['ST', 'ST', 'Street'];
    const points = [0, 2, 4, 6, 8, 10].map((n, i) => ({ address: `${n + 2} Test ${written[i % 3]}, Toronto`, longitude: -79.379 + (n * 10) / M_LNG, latitude: 43.652 }));
    expect(buildStreets(points).map((l) => [l.name, l.street, l.addresses])).toEqual([['Test St', 'test st', 6]]);
  });
});

describe('the method', () => {
  // A straight street running east from Yonge at Queen, one address every 20 m.
  const at = (n: number, northM = 0, eastM = (n / 2) * 20): AddressPoint => ({
    address: `${n} TEST ST`,
    longitude: -79.379 + eastM / M_LNG,
    latitude: 43.652 + northM / M_LAT,
  });

  test('a point far off the street is left out, and the line stays on the street', () => {
    const points = [...Array.from({ length: 30 }, (_, i) => at(i * 2)), at(31, 300)];
    const [line] = buildStreets(points);
    expect(line.addresses).toBe(30);
    const worst = Math.max(...line.coordinates.map((c) => Math.abs(xy(c)[1] - xy([-79.379, 43.652])[1])));
    expect(worst).toBeLessThan(5);
  });

  test('a street splits where its addresses stop for GAP_M, and two places of one name are never joined', () => {
    const west = Array.from({ length: 10 }, (_, i) => at(i * 2));
    const east = Array.from({ length: 10 }, (_, i) => at(100 + i * 2, 0, 180 + STREETS.GAP_M + i * 20));
    const lines = buildStreets([...west, ...east]);
    expect(lines).toHaveLength(2);
    const [a, b] = lines.map((l) => l.coordinates.map(xy)).sort((p, q) => p[0][0] - q[0][0]);
    expect(b[0][0] - a[a.length - 1][0]).toBeGreaterThanOrEqual(STREETS.GAP_M - 2); // coordinates are rounded to 1 m
  });

  test('odd and even numbers across the street trace its middle; a run too short or too thin is not drawn', () => {
    const twoSides = Array.from({ length: 20 }, (_, i) => at(i, i % 2 ? 15 : -15));
    const [line] = buildStreets(twoSides);
    expect(Math.max(...line.coordinates.map((c) => Math.abs(xy(c)[1] - xy([-79.379, 43.652])[1])))).toBeLessThanOrEqual(15);
    expect(buildStreets([at(2), at(4)])).toEqual([]);
  });
});

describe('the shipped streets, against what a Torontonian knows', () => {
  test('the context file holds the streets this build makes (rebuild with npx tsx scripts/build-map-context.ts)', () => {
    const rows = parseCsv(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.establishments), 'utf8'));
    const built = buildStreets(rows.map((r) => ({ address: r.address, longitude: Number(r.longitude), latitude: Number(r.latitude) })));
    expect(streets.map((f) => [f.properties.name, f.geometry.coordinates])).toEqual(built.map((s) => [s.name, s.coordinates]));
    // Arterials first, and labelled.
    expect(streets.slice(0, 3).map((f) => f.properties.name)).toContain('Yonge St');
    expect(streets.every((f) => f.properties.name && f.properties.rank && f.properties.class)).toBe(true);
  });

  test('Yonge Street north of Bloor runs within 150 m of Line 1 stations: Rosedale, Summerhill, St Clair, Davisville, Eglinton', () => {
    const yonge = linesOf('Yonge St');
    const metres = Object.fromEntries(['Rosedale', 'Summerhill', 'St Clair', 'Davisville', 'Eglinton'].map((s) => [s, Math.round(distToLines(station(s), yonge))]));
    for (const [name, m] of Object.entries(metres)) expect([name, m <= 150]).toEqual([name, true]);
  });

  test('Queen Street West between Spadina and Yonge lies on a straight east-west line within 60 m', () => {
    const [spadinaLng, yongeLng] = [-79.3957, -79.379];
    const queen = linesOf('Queen St W');
    // The line clipped to the stretch between the two longitudes.
    const clipped = queen.map((l) => {
      const out: XY[] = [];
      l.forEach((c, i) => {
        const prev = l[i - 1];
        for (const edge of [spadinaLng, yongeLng]) {
          if (prev && (prev[0] - edge) * (c[0] - edge) < 0) {
            const t = (edge - prev[0]) / (c[0] - prev[0]);
            out.push(xy([edge, prev[1] + t * (c[1] - prev[1])]));
          }
        }
        if (c[0] >= spadinaLng && c[0] <= yongeLng) out.push(xy(c));
      });
      return out;
    }).filter((l) => l.length);
    // No gap along it: the stretch is one line, from Spadina to within 300 m of Yonge (the
    // last food premises is at Osgoode, 65 Queen St W; Queen St E begins across Yonge).
    expect(clipped).toHaveLength(1);
    const stretch = clipped[0].sort((a, b) => a[0] - b[0]);
    expect(stretch[0][0]).toBeCloseTo(xy([spadinaLng, 0])[0], 0);
    expect(xy([yongeLng, 0])[0] - stretch[stretch.length - 1][0]).toBeLessThan(300);
    // Least squares: y = a + b x; every vertex within 60 m of it, and the line east-west in
    // Toronto's grid (which is turned about 17 degrees from true east).
    const n = stretch.length;
    const mx = stretch.reduce((s, p) => s + p[0], 0) / n;
    const my = stretch.reduce((s, p) => s + p[1], 0) / n;
    const b = stretch.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / stretch.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
    const off = Math.max(...stretch.map((p) => Math.abs(p[1] - (my + b * (p[0] - mx))) / Math.hypot(1, b)));
    expect(off).toBeLessThanOrEqual(60);
    expect(Math.abs((Math.atan(b) * 180) / Math.PI)).toBeLessThan(25);
    // And it is where Queen St W is: the City's Kensington-Chinatown / Wellington Place border
    // runs along it, and every vertex of that border between Spadina and University is within 60 m.
    const border = borderOf('Kensington-Chinatown', 'Wellington Place').filter((c) => c[0] >= spadinaLng && c[0] <= -79.3875);
    expect(border.length).toBeGreaterThan(5);
    expect(Math.max(...border.map((c) => distToLines(c, queen)))).toBeLessThanOrEqual(60);
  });

  test('Bloor Street crosses Yonge by Bloor-Yonge station, at the corner the City draws', () => {
    const bloor = [...linesOf('Bloor St W'), ...linesOf('Bloor St E')];
    const yonge = linesOf('Yonge St');
    const crossings: XY[] = [];
    for (const bl of bloor) {
      for (const yl of yonge) {
        for (let i = 1; i < bl.length; i++) {
          for (let j = 1; j < yl.length; j++) {
            const c = crossing(xy(bl[i - 1]), xy(bl[i]), xy(yl[j - 1]), xy(yl[j]));
            if (c) crossings.push(c);
          }
        }
      }
    }
    expect(crossings).toHaveLength(1);
    const [at] = crossings;
    // The City's neighbourhoods meet four at a time at Yonge and Bloor (Annex, Bay-Cloverhill,
    // Church-Wellesley, Rosedale-Moore Park): the corner as surveyed.
    const corner = xy(cornerOf(['Annex', 'Bay-Cloverhill', 'Church-Wellesley', 'Rosedale-Moore Park']));
    expect(Math.hypot(at[0] - corner[0], at[1] - corner[1])).toBeLessThanOrEqual(25);
    // The station's point in our data is its address, 35 Bloor St E, itself 101 m east of that
    // corner: a line through the corner cannot be within 100 m of it, so that fact is held to 110 m.
    const s = xy(station('Bloor-Yonge'));
    expect(Math.hypot(corner[0] - s[0], corner[1] - s[1])).toBeGreaterThan(95);
    expect(Math.hypot(at[0] - s[0], at[1] - s[1])).toBeLessThanOrEqual(110);
  });

  test.each([
    ['Yonge St', 'Downtown Yonge East', 'Yonge-Bay Corridor'],
    ['Yonge St', 'Church-Wellesley', 'Bay-Cloverhill'],
    ['Yonge St', 'Rosedale-Moore Park', 'Annex'],
    ['Queen St W', 'Kensington-Chinatown', 'Wellington Place'],
    ['Bloor St E', 'Church-Wellesley', 'Rosedale-Moore Park'],
    ['Bloor St W', 'Bay-Cloverhill', 'Annex'],
  ])('%s runs where the City draws the border of %s and %s along it: every vertex within 35 m', (street, a, b) => {
    const border = borderOf(a, b);
    expect(border.length).toBeGreaterThan(5);
    expect(Math.max(...border.map((c) => distToLines(c, linesOf(street))))).toBeLessThanOrEqual(35);
  });
});

/** The vertices two neighbourhoods share: their common border. */
function borderOf(a: string, b: string): number[][] {
  const [va, vb] = [vertexSet(a), vertexSet(b)];
  return [...va].filter((k) => vb.has(k)).map((k) => k.split(',').map(Number));
}

let hoods: Array<{ properties: { AREA_NAME: string }; geometry: { coordinates: number[][][][] } }> | null = null;
function vertexSet(name: string): Set<string> {
  hoods ??= (JSON.parse(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.neighbourhoods), 'utf8')) as { features: NonNullable<typeof hoods> }).features;
  const f = hoods.find((g) => g.properties.AREA_NAME === name);
  if (!f) throw new Error(`no neighbourhood ${name}`);
  return new Set(f.geometry.coordinates.flat(2).map((c) => c.join(',')));
}

/** The boundary vertex the named neighbourhoods all share. */
function cornerOf(names: string[]): number[] {
  const sets = names.map(vertexSet);
  const shared = [...sets[0]].filter((k) => sets.every((v) => v.has(k)));
  if (shared.length !== 1) throw new Error(`${names.join(', ')} share ${shared.length} vertices`);
  return shared[0].split(',').map(Number);
}
