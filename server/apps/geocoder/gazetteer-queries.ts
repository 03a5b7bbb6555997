import type { Db } from '../../db';
import type { GazetteerRows } from './gazetteer';

// The rows the gazetteer is built from (loader.ts keeps one per process and database): places
// with a position, stations, and neighbourhoods at their label's point.

export async function readGazetteerRows(db: Db): Promise<GazetteerRows> {
  const [listings, stations, neighbourhoods] = await Promise.all([
    db('listings').whereNotNull('latitude').whereNotNull('longitude').select('name', 'address', 'latitude', 'longitude'),
    db('subway_stops').select('name', 'latitude', 'longitude'),
    db('neighbourhoods').select('name', 'label_latitude as latitude', 'label_longitude as longitude'),
  ]);
  return { listings, stations, neighbourhoods };
}
