import { EARTH_RADIUS_KM } from '../constants';

/** Great-circle distance in km (haversine, earth radius 6371 km as the specs say). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = (d: number) => (d * Math.PI) / 180;
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** '1.23 km': km with 2 decimals (spec 1 §9). */
export function formatDistanceKm(km: number): string {
  return `${km.toFixed(2)} km`;
}

export function roundKm(km: number): number {
  return Math.round(km * 100) / 100;
}
