import type { Knex } from 'knex';
import { EARTH_RADIUS_KM } from '../../../shared/constants';

// Distances on the sphere (R = 6371 km, spec 2 §9) and the latitude/longitude box around a
// circle, so a "near here" query first narrows rows with the (latitude, longitude) btree and
// only then computes the haversine for what is left.

export interface Point {
  latitude: number;
  longitude: number;
}

const KM_PER_DEGREE_LATITUDE = (Math.PI * EARTH_RADIUS_KM) / 180; // ≈ 111.19

/** The haversine distance in km from `p` to the row's latitude/longitude columns. */
export function distanceSql(knex: Knex, p: Point, lat = 'l.latitude', lng = 'l.longitude'): Knex.Raw {
  // least(1, …) keeps asin's argument in its domain when rounding nudges it past 1.
  return knex.raw(
    `(2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
        power(sin(radians(${lat} - ?) / 2), 2)
        + cos(radians(?)) * cos(radians(${lat})) * power(sin(radians(${lng} - ?) / 2), 2)))))`,
    [p.latitude, p.latitude, p.longitude],
  );
}

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
