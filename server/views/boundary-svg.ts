// Maps drawn on the server as SVG from real coordinates (neighbourhood boundaries in GeoJSON), so a page shows a map with no tile service, no JavaScript and no
// third-party request. Templates print the shapes; escaping stays in Nunjucks.

export interface Bbox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

export interface MultiPolygon {
  type: 'MultiPolygon' | 'Polygon';
  coordinates: number[][][][] | number[][][];
}

export interface Projection {
  width: number;
  height: number;
  viewBox: string;
  /** [lng, lat] → [x, y] in the viewBox */
  point(lng: number, lat: number): [number, number];
}

/**
 * Equirectangular projection of a bounding box into a viewBox `width` wide, with longitude
 * scaled by cos(latitude) so shapes keep their proportions at Toronto's latitude.
 */
export function projectBbox(b: Bbox, width: number, padding = 4): Projection {
  const midLat = ((b.minLat + b.maxLat) / 2) * (Math.PI / 180);
  const kx = Math.cos(midLat);
  const spanX = Math.max((b.maxLng - b.minLng) * kx, 1e-9);
  const spanY = Math.max(b.maxLat - b.minLat, 1e-9);
  const inner = width - padding * 2;
  const scale = inner / spanX;
  const height = Math.round(spanY * scale + padding * 2);
  return {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    point: (lng, lat) => [round1(padding + (lng - b.minLng) * kx * scale), round1(padding + (b.maxLat - lat) * scale)],
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function polygons(geometry: MultiPolygon): number[][][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates as number[][][]] : (geometry.coordinates as number[][][][]);
}

/**
 * The SVG path of a (multi)polygon, dropping vertices closer than `minStep` units to the last
 * one kept: at map scale they are invisible, and the 158 boundaries shrink from ~1 MB of
 * GeoJSON to a page-sized path set.
 */
export function geometryPath(geometry: MultiPolygon, proj: Projection, minStep = 0.8): string {
  const out: string[] = [];
  for (const polygon of polygons(geometry)) {
    for (const ring of polygon) {
      let last: [number, number] | null = null;
      const pts: string[] = [];
      ring.forEach(([lng, lat], i) => {
        const p = proj.point(lng, lat);
        const isLast = i === ring.length - 1;
        if (last && !isLast && Math.hypot(p[0] - last[0], p[1] - last[1]) < minStep) return;
        pts.push(`${p[0]} ${p[1]}`);
        last = p;
      });
      if (pts.length >= 3) out.push(`M${pts.join('L')}Z`);
    }
  }
  return out.join('');
}

export function geometryBbox(geometry: MultiPolygon): Bbox {
  const b = { minLat: Infinity, minLng: Infinity, maxLat: -Infinity, maxLng: -Infinity };
  for (const polygon of polygons(geometry)) {
    for (const ring of polygon) {
      for (const [lng, lat] of ring) {
        if (lat < b.minLat) b.minLat = lat;
        if (lat > b.maxLat) b.maxLat = lat;
        if (lng < b.minLng) b.minLng = lng;
        if (lng > b.maxLng) b.maxLng = lng;
      }
    }
  }
  return b;
}

export function unionBbox(boxes: Bbox[]): Bbox {
  return boxes.reduce(
    (a, b) => ({ minLat: Math.min(a.minLat, b.minLat), minLng: Math.min(a.minLng, b.minLng), maxLat: Math.max(a.maxLat, b.maxLat), maxLng: Math.max(a.maxLng, b.maxLng) }),
    { minLat: Infinity, minLng: Infinity, maxLat: -Infinity, maxLng: -Infinity },
  );
}

export interface MapShape {
  d: string;
  name: string;
  href: string;
  id: number;
}

export interface CityMap {
  viewBox: string;
  width: number;
  height: number;
  shapes: MapShape[];
}

/** Every neighbourhood as one linked shape on a map of the whole city. */
export function cityMap(rows: Array<{ id: number; name: string; href: string; boundaries: MultiPolygon }>, width = 800): CityMap {
  const proj = projectBbox(unionBbox(rows.map((r) => geometryBbox(r.boundaries))), width);
  return {
    viewBox: proj.viewBox,
    width: proj.width,
    height: proj.height,
    shapes: rows.map((r) => ({ id: r.id, name: r.name, href: r.href, d: geometryPath(r.boundaries, proj) })),
  };
}

/** A standalone map of one neighbourhood's boundary. */
export function boundaryMap(boundary: MultiPolygon, width = 640): { viewBox: string; width: number; height: number; d: string } {
  const proj = projectBbox(geometryBbox(boundary), width, 8);
  return { viewBox: proj.viewBox, width: proj.width, height: proj.height, d: geometryPath(boundary, proj, 0.5) };
}
