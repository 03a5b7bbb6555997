import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { slugify } from '../../shared/format/text';
import { geometryBbox, type MultiPolygon } from '../views/boundary-svg';

// The City's 158 real neighbourhood boundaries (the seed's data file), for tests that draw them
// on maps or place a point in one: each inserted with its bounding box and label point, and a
// census and blurb a test may vary.

const GEOJSON = path.resolve(__dirname, '..', '..', 'scripts', 'seed', 'data', 'toronto-neighbourhoods.geojson');

export interface TorontoNeighbourhood {
  id: number;
  name: string;
  slug: string;
}

/** Inserts every neighbourhood; answers them in the file's order. */
export async function insertTorontoNeighbourhoods(db: Knex, opts: { census?: Record<string, unknown> } = {}): Promise<TorontoNeighbourhood[]> {
  const census = opts.census ?? { population_2021: 21000, area_km2: 2.1, source: 'Statistics Canada, Census 2021' };
  const features = JSON.parse(fs.readFileSync(GEOJSON, 'utf8')).features as Array<{ properties: { neighbourhood_id: number; AREA_NAME: string }; geometry: MultiPolygon }>;
  const inserted: TorontoNeighbourhood[] = [];
  for (const f of features) {
    const box = geometryBbox(f.geometry);
    const n = { id: f.properties.neighbourhood_id, name: f.properties.AREA_NAME, slug: slugify(f.properties.AREA_NAME) };
    await db('neighbourhoods').insert({
      ...n,
      boundaries: JSON.stringify(f.geometry),
      label_latitude: (box.minLat + box.maxLat) / 2,
      label_longitude: (box.minLng + box.maxLng) / 2,
      min_latitude: box.minLat,
      min_longitude: box.minLng,
      max_latitude: box.maxLat,
      max_longitude: box.maxLng,
      census: JSON.stringify(census),
      blurb: `${n.name} is one of the city's 158 neighbourhoods.`,
    });
    inserted.push(n);
  }
  return inserted;
}
