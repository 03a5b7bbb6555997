import type { Db } from '../../db';
import { toListingDTO } from '../listings/serialize';
import { listingsQuery } from '../listings/queries';
import type { ListingDTO } from '../../../shared/dto';
import type { MultiPolygon } from '../../views/boundary-svg';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

// What the neighbourhood pages read: the list (with boundaries, for the city map), one
// neighbourhood with its census facts, and its places grouped by listing type.

export interface NeighbourhoodSummary {
  id: number;
  name: string;
  slug: string;
}

export interface NeighbourhoodRow extends NeighbourhoodSummary {
  blurb: string;
  image_key: string | null;
  boundaries: MultiPolygon;
  census: Record<string, number | string | null>;
  label_latitude: number;
  label_longitude: number;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export async function neighbourhoodList(db: Db): Promise<NeighbourhoodSummary[]> {
  return db('neighbourhoods').orderBy('name').select('id', 'name', 'slug');
}

export async function neighbourhoodBoundaries(db: Db): Promise<Array<NeighbourhoodSummary & { boundaries: MultiPolygon }>> {
  const rows = await db('neighbourhoods').orderBy('name').select('id', 'name', 'slug', 'boundaries');
  return rows.map((r) => ({ ...r, boundaries: json<MultiPolygon>(r.boundaries) }));
}

export async function neighbourhoodBySlug(db: Db, slug: string): Promise<NeighbourhoodRow | undefined> {
  const row = await db('neighbourhoods')
    .where({ slug })
    .first('id', 'name', 'slug', 'blurb', 'image_key', 'boundaries', 'census', 'label_latitude', 'label_longitude');
  return row ? { ...row, boundaries: json(row.boundaries), census: json(row.census) } : undefined;
}

export interface TypeGroup {
  id: number;
  name: string;
  slug: string;
  count: number;
  listings: ListingDTO[];
}

/**
 * The neighbourhood's places by listing type: each type's count and its `perType` best
 * (smart review order), in one query per part rather than one per type.
 */
export async function listingsByType(db: Db, neighbourhoodId: number, perType: number): Promise<TypeGroup[]> {
  const [counts, top] = await Promise.all([
    db('listings as l')
      .join('listing_types as lt', 'lt.id', 'l.type_id')
      .where('l.neighbourhood_id', neighbourhoodId)
      .groupBy('lt.id', 'lt.name', 'lt.slug', 'lt.position')
      .orderBy([{ column: 'lt.position' }, { column: 'lt.name' }])
      .select('lt.id', 'lt.name', 'lt.slug', db.raw('count(*)::int as count')),
    db
      .select('*')
      .from(
        listingsQuery(db)
          .where('l.neighbourhood_id', neighbourhoodId)
          .select(db.raw('row_number() over (partition by l.type_id order by l.smart_review_score desc, l.name, l.id) as rank'))
          .as('ranked'),
      )
      .where('rank', '<=', perType)
      .orderBy([{ column: 'type_id' }, { column: 'rank' }]),
  ]);
  return counts.map((c) => ({
    id: c.id,
    name: c.name,
    slug: c.slug,
    count: Number(c.count),
    listings: top.filter((r) => r.type_id === c.id).map((r) => toListingDTO(r, '')),
  }));
}

export interface CensusFact {
  label: string;
  value: string;
}

const n0 = (v: number) => Math.round(v).toLocaleString('en-CA');

/** The 2021 Census indicators a reader cares about, labelled and formatted; missing ones skipped. */
export function censusFacts(census: Record<string, number | string | null>): CensusFact[] {
  const num = (k: string) => (typeof census[k] === 'number' ? (census[k] as number) : null);
  const facts: Array<[string, number | null, (v: number) => string]> = [
    ['Population (2021)', num('population_2021'), n0],
    ['Area', num('area_km2'), (v) => `${v.toFixed(1)} km²`],
    ['Population density', num('population_density_per_km2'), (v) => `${n0(v)} per km²`],
    ['Median age', num('median_age'), (v) => `${v}`],
    ['Average household size', num('average_household_size'), (v) => `${v}`],
    ['Median household income (2020)', num('median_household_income_2020_cad'), (v) => `$${n0(v)}`],
    ['Households renting', num('renter_households_pct'), (v) => `${v}%`],
    ['Homes in buildings of 5+ storeys', num('apartment_5plus_storeys_pct'), (v) => `${v}%`],
    ['Single-detached homes', num('single_detached_dwellings_pct'), (v) => `${v}%`],
    ['Immigrants', num('immigrants_pct'), (v) => `${v}%`],
    ['Visible minorities', num('visible_minority_pct'), (v) => `${v}%`],
    ["Bachelor's degree or higher (15+)", num('bachelors_or_higher_pct_age15plus'), (v) => `${v}%`],
    ['Unemployment rate', num('unemployment_rate_pct'), (v) => `${v}%`],
    ['Commute by transit', num('commute_transit_pct'), (v) => `${v}%`],
    ['Commute by car', num('commute_car_pct'), (v) => `${v}%`],
    ['Commute on foot or by bike', num('commute_walk_pct') !== null || num('commute_bicycle_pct') !== null ? (num('commute_walk_pct') ?? 0) + (num('commute_bicycle_pct') ?? 0) : null, (v) => `${v.toFixed(1)}%`],
  ];
  const out = facts.filter(([, v]) => v !== null).map(([label, v, f]) => ({ label, value: f(v as number) }));
  if (typeof census.tsns_2020_designation === 'string' && census.tsns_2020_designation) out.push({ label: 'City designation (TSNS 2020)', value: census.tsns_2020_designation });
  return out;
}

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

interface NeighbourhoodApiRow {
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
    db('neighbourhoods').select(columns).orderBy([{ column: 'name' }, { column: 'id' }]).offset(opts.offset).limit(opts.limit) as Promise<NeighbourhoodApiRow[]>,
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
