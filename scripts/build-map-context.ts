import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DATA_DIR, DATA_FILES, parseCsv } from './seed/data-files';
import { SUBWAY_LINES, type ContextCollection, type ContextFeature } from '../shared/map-context';
import { buildStreets } from './map-streets/streets';
import { distToSegment, simplifyLine } from './geometry/simplify-line';

// Builds static/map/toronto-context.json, the context every map draws when no tile service is
// configured (shared/map-context.ts): from the City of Toronto's neighbourhood boundaries and
// subway station list in scripts/seed/data (sources and licences in its README).
//
//   npx tsx scripts/build-map-context.ts
//
// - Neighbourhoods: each boundary simplified (Douglas-Peucker, TOLERANCE_M) one shared border
//   at a time, so two neighbours keep the same simplified border and no gaps open between them.
// - The city's outline: the simplified borders that only one neighbourhood has.
// - The lake: the outline's shore from the Etobicoke Creek mouth to the Rouge River mouth, closed
//   through a few hand-placed points beyond the city limits (Mississauga and Pickering shores,
//   open water to the south). Only the part beyond the city is approximate.
// - Subway lines: the stations of each line joined in running order (LINE_ORDER: the TTC's
//   published station order), which is enough to read "this dot is near Spadina on Line 2".
// - Streets: centrelines traced through the DineSafe food premises' addresses, arterials first
//   (scripts/map-streets/streets.ts has the method and its limits).

const OUT = path.resolve(__dirname, '..', 'static', 'map', 'toronto-context.json');
const TOLERANCE_M = 18;
const DECIMALS = 5;

/** Station ids in running order (the TTC's line maps). Line 2 and 4 run west to east. */
const LINE_ORDER: Record<string, string[]> = {
  '1': [
    'vaughan-metropolitan-centre', 'highway-407', 'pioneer-village', 'york-university', 'finch-west', 'downsview-park', 'sheppard-west',
    'wilson', 'yorkdale', 'lawrence-west', 'glencairn', 'eglinton-west', 'st-clair-west', 'dupont', 'spadina', 'st-george', 'museum',
    'queens-park', 'st-patrick', 'osgoode', 'st-andrew', 'union', 'king', 'queen', 'dundas', 'college', 'wellesley', 'bloor-yonge',
    'rosedale', 'summerhill', 'st-clair', 'davisville', 'eglinton', 'lawrence', 'york-mills', 'sheppard-yonge', 'north-york-centre', 'finch',
  ],
  '2': [
    'kipling', 'islington', 'royal-york', 'old-mill', 'jane', 'runnymede', 'high-park', 'keele', 'dundas-west', 'lansdowne', 'dufferin',
    'ossington', 'christie', 'bathurst', 'spadina', 'st-george', 'bay', 'bloor-yonge', 'sherbourne', 'castle-frank', 'broadview', 'chester',
    'pape', 'donlands', 'greenwood', 'coxwell', 'woodbine', 'main-street', 'victoria-park', 'warden', 'kennedy',
  ],
  '4': ['sheppard-yonge', 'bayview', 'bessarion', 'leslie', 'don-mills'],
};

/** Where the city's shore begins and ends: the Etobicoke Creek and Rouge River mouths. */
const SHORE_WEST: Pt = [-79.5435, 43.5875];
const SHORE_EAST: Pt = [-79.1167, 43.7935];
/** Beyond the city limits, hand-placed (approximate): Pickering's shore east, Mississauga's west, open lake south. */
const SHORE_BEYOND_EAST: Pt[] = [[-79.09, 43.805], [-79.0, 43.825], [-78.85, 43.86], [-78.85, 43.3]];
const SHORE_BEYOND_WEST: Pt[] = [[-79.9, 43.3], [-79.9, 43.33], [-79.72, 43.42], [-79.64, 43.49], [-79.59, 43.54], [-79.56, 43.573]];

/**
 * Toronto's Inner Harbour, hand-placed (approximate, within ~100 m): the neighbourhood St
 * Lawrence-East Bayfront-The Islands runs across the water from Queens Quay to the islands, so
 * the boundaries alone would draw the harbour as land.
 */
const INNER_HARBOUR: Pt[] = [
  [-79.4005, 43.6345], [-79.3975, 43.6365], [-79.39, 43.6375], [-79.3835, 43.639], [-79.377, 43.6405], [-79.371, 43.6425],
  [-79.3645, 43.644], [-79.359, 43.643], [-79.3545, 43.64], [-79.3525, 43.6345], [-79.3505, 43.6325], [-79.3535, 43.6305],
  [-79.36, 43.628], [-79.367, 43.6255], [-79.374, 43.6235], [-79.38, 43.623], [-79.386, 43.6255], [-79.3905, 43.6285],
  [-79.3925, 43.632], [-79.399, 43.633], [-79.401, 43.6335], [-79.4005, 43.6345],
];

type Pt = [number, number];
type Ring = Pt[];

const key = (p: Pt) => `${p[0]},${p[1]}`;
const edgeKey = (a: Pt, b: Pt) => (key(a) < key(b) ? `${key(a)}|${key(b)}` : `${key(b)}|${key(a)}`);
const round = (n: number) => Number(n.toFixed(DECIMALS));

/** Metres east and north of a point near Toronto, for distances in simplification. */
const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LNG = 111_320 * Math.cos((43.7 * Math.PI) / 180);

/** Distance from p to the segment a–b in metres, for points in longitude/latitude. */
const inMetres = (p: Pt): Pt => [p[0] * M_PER_DEG_LNG, p[1] * M_PER_DEG_LAT];
const distToSegmentM = (p: Pt, a: Pt, b: Pt): number => distToSegment(inMetres(p), inMetres(a), inMetres(b));
const simplifyRun = (run: Pt[], tol: number): Pt[] => simplifyLine(run, tol, distToSegmentM);

interface Hood {
  id: number;
  name: string;
  ring: Ring;
}

function readHoods(): Hood[] {
  const gj = JSON.parse(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.neighbourhoods), 'utf8')) as {
    features: Array<{ properties: { neighbourhood_id: number; AREA_NAME: string }; geometry: { type: string; coordinates: number[][][][] } }>;
  };
  return gj.features.map((f) => {
    // Each boundary is one polygon without holes (checked here, so a new file that breaks it fails loudly).
    if (f.geometry.coordinates.length !== 1 || f.geometry.coordinates[0].length !== 1) throw new Error(`${f.properties.AREA_NAME}: not a single ring`);
    const ring = f.geometry.coordinates[0][0].map(([x, y]) => [x, y] as Pt).filter((p, i, all) => i === 0 || key(p) !== key(all[i - 1]));
    return { id: f.properties.neighbourhood_id, name: f.properties.AREA_NAME, ring };
  });
}

/**
 * Simplifies every ring one border at a time: a vertex is fixed where the neighbour across the
 * border changes, and each run between fixed vertices is simplified on its own, identically in
 * the two rings that share it.
 */
function simplifyShared(hoods: Hood[], tol: number): Hood[] {
  const owners = new Map<string, number[]>();
  for (const h of hoods) {
    for (let i = 0; i < h.ring.length - 1; i++) {
      const k = edgeKey(h.ring[i], h.ring[i + 1]);
      owners.set(k, [...(owners.get(k) ?? []), h.id]);
    }
  }
  const across = (h: Hood, i: number) => {
    const o = owners.get(edgeKey(h.ring[i], h.ring[i + 1]))!;
    return o.find((id) => id !== h.id) ?? -1;
  };
  return hoods.map((h) => {
    const n = h.ring.length - 1; // closed ring: last = first
    const fixed: number[] = [];
    for (let i = 0; i < n; i++) if (across(h, (i - 1 + n) % n) !== across(h, i)) fixed.push(i);
    if (fixed.length < 2) {
      // One border all round: pin the first vertex and the one farthest from it.
      let far = 0;
      for (let i = 1; i < n; i++) if (distToSegmentM(h.ring[i], h.ring[0], h.ring[0]) > distToSegmentM(h.ring[far], h.ring[0], h.ring[0])) far = i;
      fixed.splice(0, fixed.length, 0, far);
    }
    const out: Pt[] = [];
    for (let f = 0; f < fixed.length; f++) {
      const from = fixed[f];
      const to = fixed[(f + 1) % fixed.length];
      const run: Pt[] = [];
      for (let i = from; ; i = (i + 1) % n) {
        run.push(h.ring[i]);
        if (i === to && run.length > 1) break;
      }
      // Simplify in a canonical direction so both neighbours get the same points.
      const forward = key(run[0]) < key(run[run.length - 1]);
      const simple = forward ? simplifyRun(run, tol) : simplifyRun([...run].reverse(), tol).reverse();
      out.push(...simple.slice(0, -1));
    }
    out.push(out[0]);
    return { ...h, ring: out.map(([x, y]) => [round(x), round(y)] as Pt) };
  });
}

/** The outer outline: the edges that only one ring has, chained; the longest chain is the city. */
function outline(hoods: Hood[]): Ring {
  const count = new Map<string, number>();
  const edges: Array<[Pt, Pt]> = [];
  for (const h of hoods) {
    for (let i = 0; i < h.ring.length - 1; i++) {
      const k = edgeKey(h.ring[i], h.ring[i + 1]);
      count.set(k, (count.get(k) ?? 0) + 1);
      edges.push([h.ring[i], h.ring[i + 1]]);
    }
  }
  const next = new Map<string, Pt[]>();
  for (const [a, b] of edges) {
    if (count.get(edgeKey(a, b)) !== 1) continue;
    next.set(key(a), [...(next.get(key(a)) ?? []), b]);
  }
  const used = new Set<string>();
  let best: Ring = [];
  for (const [a, bs] of edges.filter(([a, b]) => count.get(edgeKey(a, b)) === 1).map(([a, b]) => [a, [b]] as const)) {
    if (used.has(edgeKey(a, bs[0]))) continue;
    const ring: Ring = [a];
    let cur = a;
    for (;;) {
      const nb = (next.get(key(cur)) ?? []).find((p) => !used.has(edgeKey(cur, p)));
      if (!nb) break;
      used.add(edgeKey(cur, nb));
      ring.push(nb);
      cur = nb;
      if (key(cur) === key(a)) break;
    }
    if (ring.length > best.length) best = ring;
  }
  return best;
}

function nearestIndex(ring: Ring, p: Pt): number {
  let best = 0;
  for (let i = 1; i < ring.length; i++) if (Math.hypot(ring[i][0] - p[0], ring[i][1] - p[1]) < Math.hypot(ring[best][0] - p[0], ring[best][1] - p[1])) best = i;
  return best;
}

/** The outline between the two river mouths along the lake (the southern of the two ways round). */
function shore(city: Ring): Pt[] {
  const open = city.slice(0, -1);
  const w = nearestIndex(open, SHORE_WEST);
  const e = nearestIndex(open, SHORE_EAST);
  const walk = (from: number, to: number) => {
    const out: Pt[] = [];
    for (let i = from; ; i = (i + 1) % open.length) {
      out.push(open[i]);
      if (i === to) return out;
    }
  };
  const a = walk(w, e);
  const b = walk(e, w).reverse();
  const meanLat = (pts: Pt[]) => pts.reduce((s, p) => s + p[1], 0) / pts.length;
  return meanLat(a) < meanLat(b) ? a : b;
}

function readStations(): Map<string, { name: string; lines: string; at: Pt }> {
  const rows = parseCsv(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.stations), 'utf8'));
  return new Map(rows.map((r) => [r.station_id, { name: r.station_name, lines: r.lines, at: [Number(r.longitude), Number(r.latitude)] as Pt }]));
}

function readStreets(): ContextFeature[] {
  const rows = parseCsv(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.establishments), 'utf8'));
  return buildStreets(rows.map((r) => ({ address: r.address, longitude: Number(r.longitude), latitude: Number(r.latitude) }))).map((s) => ({
    type: 'Feature',
    properties: { layer: 'street', name: s.name, rank: s.rank, class: s.class },
    geometry: { type: 'LineString', coordinates: s.coordinates },
  }));
}

function readLabels(): Map<number, Pt> {
  const rows = parseCsv(fs.readFileSync(path.join(DATA_DIR, DATA_FILES.profiles), 'utf8'));
  return new Map(rows.map((r) => [Number(r.neighbourhood_id), [round(Number(r.label_lng)), round(Number(r.label_lat))] as Pt]));
}

export function buildMapContext(): ContextCollection {
  const hoods = simplifyShared(readHoods(), TOLERANCE_M);
  const city = outline(hoods);
  const lake: Ring = [...shore(city), ...SHORE_BEYOND_EAST, ...SHORE_BEYOND_WEST];
  lake.push(lake[0]);
  const labels = readLabels();
  const stations = readStations();
  const features: ContextFeature[] = [
    { type: 'Feature', properties: { layer: 'lake', name: 'Lake Ontario' }, geometry: { type: 'Polygon', coordinates: [lake] } },
    { type: 'Feature', properties: { layer: 'lake', name: 'Toronto Harbour' }, geometry: { type: 'Polygon', coordinates: [INNER_HARBOUR] } },
    { type: 'Feature', properties: { layer: 'city' }, geometry: { type: 'Polygon', coordinates: [city] } },
    ...hoods.map((h): ContextFeature => ({ type: 'Feature', properties: { layer: 'neighbourhood', id: h.id, name: h.name }, geometry: { type: 'Polygon', coordinates: [h.ring] } })),
    ...readStreets(),
    ...hoods
      .filter((h) => labels.has(h.id))
      .map((h): ContextFeature => ({ type: 'Feature', properties: { layer: 'neighbourhood-label', id: h.id, name: h.name }, geometry: { type: 'Point', coordinates: labels.get(h.id)! } })),
  ];
  for (const [line, ids] of Object.entries(LINE_ORDER)) {
    const coords = ids.map((id) => {
      const s = stations.get(id);
      if (!s || !s.lines.split(';').includes(line)) throw new Error(`Line ${line}: station ${id} is missing or not on the line`);
      return s.at;
    });
    features.push({ type: 'Feature', properties: { layer: 'line', line, name: SUBWAY_LINES[line].name, color: SUBWAY_LINES[line].color }, geometry: { type: 'LineString', coordinates: coords } });
  }
  const onLines = new Set(Object.values(LINE_ORDER).flat());
  for (const [id, s] of stations) {
    if (!onLines.has(id)) throw new Error(`Station ${id} is on no line of LINE_ORDER`);
    features.push({ type: 'Feature', properties: { layer: 'station', name: s.name, lines: s.lines }, geometry: { type: 'Point', coordinates: s.at } });
  }
  return { type: 'FeatureCollection', features };
}

if (require.main === module) {
  const json = JSON.stringify(buildMapContext());
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, json + '\n');
  console.log(`${path.relative(process.cwd(), OUT)}: ${json.length} bytes, ${zlib.gzipSync(json, { level: 9 }).length} bytes gzip`);
}
