import type { MultiPolygon } from '../../views/boundary-svg';

// Whether a point lies inside a neighbourhood's GeoJSON boundary (longitude first). Even-odd ray
// casting per ring: a point inside a polygon's outer ring and inside one of its holes is out.

type Ring = number[][];

function inRing(ring: Ring, lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** True when (latitude, longitude) is inside the (Multi)Polygon, holes excluded. */
export function boundaryContains(boundary: MultiPolygon, latitude: number, longitude: number): boolean {
  const polygons = (boundary.type === 'Polygon' ? [boundary.coordinates] : boundary.coordinates) as Ring[][];
  return polygons.some(([outer, ...holes]) => outer !== undefined && inRing(outer, longitude, latitude) && !holes.some((h) => inRing(h, longitude, latitude)));
}
