import type { Knex } from 'knex';
import { readStations } from './data-files';
import { insertReturningIds } from './batch';

export interface StationRef {
  id: number;
  slug: string;
  name: string;
  latitude: number;
  longitude: number;
  neighbourhood_id: number | null;
}

/** The 70 TTC subway stations; the slug is the file's stable station_id ("bloor-yonge"). */
export async function seedSubwayStops(db: Knex): Promise<StationRef[]> {
  const rows = readStations().map((s) => ({
    slug: s.station_id,
    name: s.station_name,
    lines: s.lines,
    line_names: s.line_names,
    latitude: s.latitude,
    longitude: s.longitude,
    address: s.street_address,
    // The two Vaughan stations lie outside every Toronto neighbourhood.
    neighbourhood_id: s.neighbourhood_id,
  }));
  const ids = await insertReturningIds(db, 'subway_stops', rows);
  return rows.map((r, i) => ({ id: ids[i], slug: r.slug, name: r.name, latitude: r.latitude, longitude: r.longitude, neighbourhood_id: r.neighbourhood_id }));
}
