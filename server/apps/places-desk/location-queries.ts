import type { Db } from '../../db';
import type { MultiPolygon } from '../../views/boundary-svg';
import { nearestStation } from '../listings/queries';
import type { PlaceLocationDTO } from '../../../shared/place-pin';
import { boundaryContains } from './boundary';

// Where a place is: the neighbourhood whose boundary holds its point and the nearest subway
// station, worked out from the point and never typed (issue 39). A point in no neighbourhood is
// outside Toronto: then there is no station either, and the desk's form refuses the address.

export async function locatePlace(db: Db, point: { latitude: number; longitude: number }): Promise<PlaceLocationDTO> {
  const { latitude, longitude } = point;
  // The bounding boxes narrow the 158 to the two or three whose boxes hold the point; only
  // those boundaries are parsed and tested.
  const candidates: Array<{ id: number; name: string; boundaries: MultiPolygon | string }> = await db('neighbourhoods')
    .where('min_latitude', '<=', latitude)
    .andWhere('max_latitude', '>=', latitude)
    .andWhere('min_longitude', '<=', longitude)
    .andWhere('max_longitude', '>=', longitude)
    .orderBy('id')
    .select('id', 'name', 'boundaries');
  const hood = candidates.find((c) => boundaryContains(typeof c.boundaries === 'string' ? JSON.parse(c.boundaries) : c.boundaries, latitude, longitude));
  if (!hood) return { neighbourhood: null, station: null };
  const stop = await nearestStation(db, { latitude, longitude, nearest_subway_stop_id: null });
  return {
    neighbourhood: { id: hood.id, name: hood.name },
    station: stop ? { id: stop.id, name: stop.name, distanceM: Math.round(stop.distance_km * 1000) } : null,
  };
}
