import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { STATIC_DIR } from '../../paths';
import { CONTEXT_COLORS as C, MAP_CONTEXT_PATH, type ContextCollection, type ContextFeature } from '../../../shared/map-context';

// The listing page's static map (spec 2: zoom 14, 1080x300): an SVG drawn from the same city
// context the interactive maps use (static/map/toronto-context.json) in web-mercator pixels at
// that zoom, centred on the place, turned into a PNG by sharp. Text uses the machine's sans-serif
// font through librsvg. The streets (traced from our own addresses) are drawn, and the few
// nearest the place named along their line, so a reader can tell which corner it is on.

export const STATIC_MAP = { width: 1080, height: 300, zoom: 14 } as const;

interface Indexed {
  feature: ContextFeature;
  /** lng/lat bounds: west, south, east, north */
  box: [number, number, number, number];
}

let context: Indexed[] | null = null;

export function mapContextFile(): string {
  return path.join(STATIC_DIR, MAP_CONTEXT_PATH.replace(/^\/static\//, ''));
}

/** The context features with their bounds, read once per process. */
export function mapContext(): Indexed[] {
  if (context) return context;
  const gj = JSON.parse(fs.readFileSync(mapContextFile(), 'utf8')) as ContextCollection;
  context = gj.features.map((feature) => {
    const box: Indexed['box'] = [Infinity, Infinity, -Infinity, -Infinity];
    const walk = (c: unknown): void => {
      if (Array.isArray(c) && typeof c[0] === 'number') {
        box[0] = Math.min(box[0], c[0]);
        box[1] = Math.min(box[1], c[1] as number);
        box[2] = Math.max(box[2], c[0]);
        box[3] = Math.max(box[3], c[1] as number);
      } else if (Array.isArray(c)) c.forEach(walk);
    };
    walk(feature.geometry.coordinates);
    return { feature, box };
  });
  return context;
}

/** Web-mercator world pixels at a zoom (256-px tiles), as maplibre uses. */
export function mercator(lng: number, lat: number, zoom: number): [number, number] {
  const size = 256 * 2 ** zoom;
  const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return [((lng + 180) / 360) * size, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * size];
}

function unmercator(x: number, y: number, zoom: number): [number, number] {
  const size = 256 * 2 ** zoom;
  const lng = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return [lng, lat];
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const r1 = (n: number) => Math.round(n * 10) / 10;

/** How many of the nearest streets are named, and how near (pixels from the place) one must be. */
export const STREET_LABELS = { count: 6, withinPx: 320, fontSize: 13 } as const;

type Px = [number, number];
type Box = [number, number, number, number];

/** Where a point is nearest on a polyline: distance, segment index, the point. */
function nearestOn(line: Px[], p: Px): { d: number; i: number; at: Px } {
  let best = { d: Infinity, i: 0, at: line[0] };
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1], line[i]];
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const len2 = dx * dx + dy * dy;
    const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
    const at: Px = [a[0] + t * dx, a[1] + t * dy];
    const d = Math.hypot(p[0] - at[0], p[1] - at[1]);
    if (d < best.d) best = { d, i, at };
  }
  return best;
}

/** The point `by` pixels along a polyline from `at` on segment i (forward or back), and the segment's angle there. */
function walk(line: Px[], i: number, at: Px, by: number, forward: boolean): { at: Px; angle: number } | null {
  let [cur, seg, left] = [at, i, by];
  for (;;) {
    const next = forward ? line[seg] : line[seg - 1];
    const step = Math.hypot(next[0] - cur[0], next[1] - cur[1]);
    if (step >= left) {
      const t = step ? left / step : 0;
      const [a, b] = [line[seg - 1], line[seg]];
      return { at: [cur[0] + t * (next[0] - cur[0]), cur[1] + t * (next[1] - cur[1])], angle: (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI };
    }
    left -= step;
    cur = next;
    seg += forward ? 1 : -1;
    if (seg < 1 || seg >= line.length) return null;
  }
}

const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Names of the streets nearest the place, along their lines: up to STREET_LABELS.count distinct
 * names, nearest first, each set beside the marker (not under it), upright, and left out when it
 * would cover another name (street, neighbourhood, station), the marker, or leave the picture.
 */
function streetLabels(streets: Array<{ name: string; line: Px[] }>, centre: Px, width: number, height: number, others: Box[]): Array<{ svg: string; box: Box }> {
  const nearest = new Map<string, { line: Px[]; d: number; i: number; at: Px }>();
  for (const s of streets) {
    const n = nearestOn(s.line, centre);
    if (n.d <= STREET_LABELS.withinPx && n.d < (nearest.get(s.name)?.d ?? Infinity)) nearest.set(s.name, { line: s.line, ...n });
  }
  const taken: Box[] = [[centre[0] - 16, centre[1] - 16, centre[0] + 16, centre[1] + 16], ...others];
  const out: Array<{ svg: string; box: Box }> = [];
  for (const [name, n] of [...nearest].sort((a, b) => a[1].d - b[1].d)) {
    if (out.length >= STREET_LABELS.count) break;
    const textW = name.length * STREET_LABELS.fontSize * 0.6;
    // Beside the marker first, either way along the street, then farther out till it fits.
    for (const [forward, gap] of [22, 45, 70, 100, 140, 190, 240].flatMap((g) => [[true, g], [false, g]] as const)) {
      const spot = walk(n.line, n.i, n.at, textW / 2 + gap, forward);
      if (!spot) continue;
      let angle = spot.angle;
      if (angle > 90) angle -= 180;
      if (angle < -90) angle += 180;
      // The rotated text's bounding box.
      const r = (angle * Math.PI) / 180;
      const hw = (Math.abs(Math.cos(r)) * textW + Math.abs(Math.sin(r)) * STREET_LABELS.fontSize) / 2;
      const hh = (Math.abs(Math.sin(r)) * textW + Math.abs(Math.cos(r)) * STREET_LABELS.fontSize) / 2;
      const box: Box = [spot.at[0] - hw, spot.at[1] - hh, spot.at[0] + hw, spot.at[1] + hh];
      if (box[0] < 2 || box[1] < 2 || box[2] > width - 2 || box[3] > height - 2 || taken.some((t) => overlaps(t, box))) continue;
      taken.push(box);
      const [x, y] = [r1(spot.at[0]), r1(spot.at[1])];
      out.push({
        svg: `<text x="${x}" y="${y}" dy="0.35em" text-anchor="middle" transform="rotate(${r1(angle)} ${x} ${y})" font-size="${STREET_LABELS.fontSize}" fill="${C.streetLabel}" stroke="${C.halo}" stroke-width="3" paint-order="stroke" class="street-label">${esc(name)}</text>`,
        box,
      });
      break;
    }
  }
  return out;
}

/** The SVG of the static map centred on a point: lake, city, neighbourhoods, streets, subway, then the place. */
export function staticMapSvg(latitude: number, longitude: number, opts: { width?: number; height?: number; zoom?: number } = {}): string {
  const { width, height, zoom } = { ...STATIC_MAP, ...opts };
  const [cx, cy] = mercator(longitude, latitude, zoom);
  const x0 = cx - width / 2;
  const y0 = cy - height / 2;
  const margin = 40;
  const [west, north] = unmercator(x0 - margin, y0 - margin, zoom);
  const [east, south] = unmercator(x0 + width + margin, y0 + height + margin, zoom);
  const visible = mapContext().filter(({ box }) => box[0] <= east && box[2] >= west && box[1] <= north && box[3] >= south);
  const pt = (c: number[]) => {
    const [x, y] = mercator(c[0], c[1], zoom);
    return `${r1(x - x0)} ${r1(y - y0)}`;
  };
  const ring = (coords: number[][]) => `M${coords.map(pt).join('L')}Z`;
  const line = (coords: number[][]) => `M${coords.map(pt).join('L')}`;
  const of = (layer: string) => visible.map((v) => v.feature).filter((f) => f.properties.layer === layer);
  const polys = (layer: string) => of(layer).map((f) => ring((f.geometry.coordinates as number[][][])[0]));
  const inView = (c: number[], pad = 0) => {
    const [x, y] = mercator(c[0], c[1], zoom);
    return x - x0 >= -pad && y - y0 >= -pad && x - x0 <= width + pad && y - y0 <= height + pad;
  };

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Liberation Sans, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="${C.outsideCity}"/>`,
  ];
  for (const d of polys('city')) out.push(`<path d="${d}" fill="${C.land}" stroke="${C.cityLine}" stroke-width="2" stroke-dasharray="8 4"/>`);
  for (const d of polys('lake')) out.push(`<path d="${d}" fill="${C.lake}" stroke="${C.lakeLine}" stroke-width="1.5"/>`);
  const hoods = polys('neighbourhood');
  if (hoods.length) out.push(`<path d="${hoods.join('')}" fill="none" stroke="${C.neighbourhoodLine}" stroke-width="1.2"/>`);
  // Streets: casings, then the white lines, arterials wider (the interactive map's street level).
  const streets = of('street').map((f) => ({ name: f.properties.name ?? '', major: f.properties.class === 'major', coords: f.geometry.coordinates as number[][] }));
  for (const [stroke, extra] of [[C.streetCasing, 2], [C.street, 0]] as const) {
    for (const major of [false, true]) {
      const d = streets.filter((s) => s.major === major).map((s) => line(s.coords)).join('');
      if (d) out.push(`<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${(major ? 6 : 3.5) + extra}" stroke-linecap="round" stroke-linejoin="round"/>`);
    }
  }
  // Neighbourhood and station names first; street names keep clear of them.
  const named: Box[] = [];
  for (const f of of('neighbourhood-label')) {
    const c = f.geometry.coordinates as number[];
    if (!inView(c, -20)) continue;
    const [x, y] = pt(c).split(' ');
    const name = (f.properties.name ?? '').toUpperCase();
    named.push([Number(x) - name.length * 4.6, Number(y) - 11, Number(x) + name.length * 4.6, Number(y) + 4]);
    out.push(`<text x="${x}" y="${y}" text-anchor="middle" font-size="13" letter-spacing="1" fill="${C.neighbourhoodLabel}" stroke="${C.halo}" stroke-width="3" paint-order="stroke">${esc(name)}</text>`);
  }
  for (const f of of('line')) out.push(`<path d="${line(f.geometry.coordinates as number[][])}" fill="none" stroke="${f.properties.color}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`);
  for (const f of of('station')) {
    const c = f.geometry.coordinates as number[];
    if (!inView(c, 20)) continue;
    const [x, y] = pt(c).split(' ').map(Number);
    out.push(`<circle cx="${x}" cy="${y}" r="5" fill="${C.stationFill}" stroke="${C.stationStroke}" stroke-width="2"/>`);
    named.push([x - 6, y - 9, x + 9 + (f.properties.name ?? '').length * 8.5, y + 7]);
    out.push(`<text x="${r1(x + 9)}" y="${r1(y + 4)}" font-size="13" font-weight="bold" fill="${C.stationLabel}" stroke="${C.halo}" stroke-width="3" paint-order="stroke">${esc(f.properties.name ?? '')}</text>`);
  }
  const toPx = (c: number[]): Px => {
    const [x, y] = mercator(c[0], c[1], zoom);
    return [x - x0, y - y0];
  };
  out.push(...streetLabels(streets.map((s) => ({ name: s.name, line: s.coords.map(toPx) })), [width / 2, height / 2], width, height, named).map((l) => l.svg));
  // The place: a pin-like marker in the map's main colour, in the middle.
  const mx = width / 2;
  const my = height / 2;
  out.push(`<circle cx="${mx}" cy="${my}" r="12" fill="#0b57d0" stroke="#ffffff" stroke-width="3"/><circle cx="${mx}" cy="${my}" r="4" fill="#ffffff"/>`);
  out.push('</svg>');
  return out.join('');
}

/** The PNG of the static map centred on a point. */
export async function staticMapPng(latitude: number, longitude: number): Promise<Buffer> {
  return sharp(Buffer.from(staticMapSvg(latitude, longitude))).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer();
}
