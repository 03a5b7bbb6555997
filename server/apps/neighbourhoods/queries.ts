import type { Db } from '../../db';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

// Neighbourhoods (spec 2 §3: id, name, blurb, url, image_url, boundaries) and subway stops
// (id, name, coordinates). Boundaries are the City's polygons, tens of KB each: sent only when
// asked for, so the dropdowns stay light.

export interface NeighbourhoodOption {
  id: number;
  name: string;
  slug: string;
  blurb: string;
  url: string;
  image_url: string | null;
  label: { latitude: number; longitude: number };
  bbox: [number, number, number, number]; // left, bottom, right, top
  boundaries?: { type: string; coordinates: unknown };
}

export interface SubwayStopOption {
  id: number;
  name: string;
  slug: string;
  lines: string[];
  coordinates: { latitude: number; longitude: number };
}

interface NeighbourhoodRow {
  id: number;
  name: string;
  slug: string;
  blurb: string;
  image_key: string | null;
  label_latitude: number;
  label_longitude: number;
  min_latitude: number;
  min_longitude: number;
  max_latitude: number;
  max_longitude: number;
  boundaries?: unknown;
}

export async function listNeighbourhoods(
  db: Db,
  opts: { siteUrl: string; withBoundaries: boolean; limit: number; offset: number },
): Promise<{ count: number; results: NeighbourhoodOption[] }> {
  const columns = ['id', 'name', 'slug', 'blurb', 'image_key', 'label_latitude', 'label_longitude', 'min_latitude', 'min_longitude', 'max_latitude', 'max_longitude'];
  if (opts.withBoundaries) columns.push('boundaries');
  const [[{ count }], rows] = await Promise.all([
    db('neighbourhoods').count<{ count: number }[]>({ count: '*' }),
    db('neighbourhoods').select(columns).orderBy([{ column: 'name' }, { column: 'id' }]).offset(opts.offset).limit(opts.limit) as Promise<NeighbourhoodRow[]>,
  ]);
  return {
    count: Number(count),
    results: rows.map((n) => {
      const option: NeighbourhoodOption = {
        id: n.id,
        name: n.name,
        slug: n.slug,
        blurb: n.blurb,
        url: absoluteUrl(opts.siteUrl, urls.neighbourhood(n.slug)),
        image_url: n.image_key ? absoluteUrl(opts.siteUrl, imageUrl(n.image_key)) : null,
        label: { latitude: n.label_latitude, longitude: n.label_longitude },
        bbox: [n.min_longitude, n.min_latitude, n.max_longitude, n.max_latitude],
      };
      if (opts.withBoundaries) {
        const b = (typeof n.boundaries === 'string' ? JSON.parse(n.boundaries) : n.boundaries) as { type: string; coordinates: unknown };
        option.boundaries = { type: b.type, coordinates: b.coordinates };
      }
      return option;
    }),
  };
}

export async function listSubwayStops(db: Db, opts: { limit: number; offset: number }): Promise<{ count: number; results: SubwayStopOption[] }> {
  const [[{ count }], rows] = await Promise.all([
    db('subway_stops').count<{ count: number }[]>({ count: '*' }),
    db('subway_stops').select('id', 'name', 'slug', 'lines', 'latitude', 'longitude').orderBy([{ column: 'name' }, { column: 'id' }]).offset(opts.offset).limit(opts.limit),
  ]);
  return {
    count: Number(count),
    results: rows.map((s: { id: number; name: string; slug: string; lines: string; latitude: number; longitude: number }) => ({
      id: s.id,
      name: s.name,
      slug: s.slug,
      lines: s.lines.split(';').filter(Boolean),
      coordinates: { latitude: s.latitude, longitude: s.longitude },
    })),
  };
}
