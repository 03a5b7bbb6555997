import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { STATIC_DIR } from '../../paths';
import { CONTEXT_COLORS as C, MAP_CONTEXT_PATH, type ContextCollection, type ContextFeature } from '../../../shared/map-context';

// The listing page's static map (spec 2: zoom 14, 1080x300): an SVG drawn from the same city
// context the interactive maps use (static/map/toronto-context.json) in web-mercator pixels at
// that zoom, centred on the place, turned into a PNG by sharp. Text uses the machine's sans-serif
// font through librsvg.

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

/** The SVG of the static map centred on a point: lake, city, neighbourhoods, subway, then the place. */
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
  for (const f of of('neighbourhood-label')) {
    const c = f.geometry.coordinates as number[];
    if (!inView(c, -20)) continue;
    const [x, y] = pt(c).split(' ');
    out.push(`<text x="${x}" y="${y}" text-anchor="middle" font-size="13" letter-spacing="1" fill="${C.neighbourhoodLabel}" stroke="${C.halo}" stroke-width="3" paint-order="stroke">${esc((f.properties.name ?? '').toUpperCase())}</text>`);
  }
  for (const f of of('line')) out.push(`<path d="${line(f.geometry.coordinates as number[][])}" fill="none" stroke="${f.properties.color}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`);
  for (const f of of('station')) {
    const c = f.geometry.coordinates as number[];
    if (!inView(c, 20)) continue;
    const [x, y] = pt(c).split(' ').map(Number);
    out.push(`<circle cx="${x}" cy="${y}" r="5" fill="${C.stationFill}" stroke="${C.stationStroke}" stroke-width="2"/>`);
    out.push(`<text x="${r1(x + 9)}" y="${r1(y + 4)}" font-size="13" font-weight="bold" fill="${C.stationLabel}" stroke="${C.halo}" stroke-width="3" paint-order="stroke">${esc(f.properties.name ?? '')}</text>`);
  }
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
