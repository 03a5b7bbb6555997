import { EARTH_RADIUS_KM } from '../../../shared/constants';

// Distances on the sphere (R = 6371 km, spec 2 §9) and the latitude/longitude box around a
// circle, so a "near here" query first narrows rows with the (latitude, longitude) btree and
// only then computes the haversine for what is left (its SQL: listing-search-queries.ts's distanceSql).

export interface Point {
  latitude: number;
  longitude: number;
}

const KM_PER_DEGREE_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180; // ≈ 111.19

/** The smallest latitude/longitude box holding every point within `radiusKm` of `p`. */
export function boxAround(p: Point, radiusKm: number): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = radiusKm / KM_PER_DEGREE_LATITUDE;
  const minLat = Math.max(-90, p.latitude - dLat);
  const maxLat = Math.min(90, p.latitude + dLat);
  // Near a pole the circle wraps every meridian; then only latitude narrows anything.
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  if (widest >= 89.9) return { minLat, maxLat, minLng: -180, maxLng: 180 };
  const dLng = dLat / Math.cos((widest * Math.PI) / 180);
  return { minLat, maxLat, minLng: Math.max(-180, p.longitude - dLng), maxLng: Math.min(180, p.longitude + dLng) };
}

/** Rounds km to the 2 decimals the site shows. */
export function roundKm(km: number): number {
  return Math.round(km * 100) / 100;
}
