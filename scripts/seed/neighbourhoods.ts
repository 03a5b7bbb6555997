import type { Knex } from 'knex';
import { slugify } from '../../shared/format/text';
import { readNeighbourhoodFeatures, readNeighbourhoodProfiles, type NeighbourhoodProfile } from './data-files';
import { insertBatches } from './batch';

// The City's 158 neighbourhoods, with their real boundaries and 2021 Census profile. The id is
// the City's neighbourhood number, so every other file joins to it without a lookup.

function bbox(coordinates: number[][][][]) {
  let minLat = Infinity, minLng = Infinity, maxLat = -Infinity, maxLng = -Infinity;
  for (const polygon of coordinates)
    for (const ring of polygon)
      for (const [lng, lat] of ring) {
        if (lat < minLat) minLat = lat;
        if (lat > maxLat) maxLat = lat;
        if (lng < minLng) minLng = lng;
        if (lng > maxLng) maxLng = lng;
      }
  return { min_latitude: minLat, min_longitude: minLng, max_latitude: maxLat, max_longitude: maxLng };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-CA');

function rankOf(all: NeighbourhoodProfile[], key: string, value: number | null): number {
  if (value == null) return 0;
  return all.filter((p) => (p.indicators[key] ?? -Infinity) > value).length + 1;
}

/** A short description written from the census facts (no invented claims). */
export function neighbourhoodBlurb(name: string, p: NeighbourhoodProfile, all: NeighbourhoodProfile[]): string {
  const c = p.indicators;
  const parts: string[] = [];
  const pop = c.population_2021, area = c.area_km2, density = c.population_density_per_km2;
  if (pop != null && area != null) {
    parts.push(`${name} is home to ${fmt(pop)} people on ${area.toFixed(1)} km²${density != null ? ` (about ${fmt(density)} per km²)` : ''}.`);
  }
  const densityRank = rankOf(all, 'population_density_per_km2', density);
  if (densityRank && densityRank <= 15) parts.push(`It is one of the ${densityRank <= 5 ? 'five' : 'fifteen'} most densely populated neighbourhoods in Toronto.`);
  const apt = c.apartment_5plus_storeys_pct, detached = c.single_detached_dwellings_pct;
  if (apt != null && apt >= 50) parts.push(`Most homes (${apt}%) are in apartment buildings of five storeys or more.`);
  else if (detached != null && detached >= 50) parts.push(`It is a neighbourhood of houses: ${detached}% of homes are single-detached.`);
  if (c.median_age != null) parts.push(`The median age is ${c.median_age}${c.renter_households_pct != null ? `, and ${c.renter_households_pct}% of households rent` : ''}.`);
  if (c.commute_transit_pct != null && c.commute_car_pct != null) {
    const walkBike = (c.commute_walk_pct ?? 0) + (c.commute_bicycle_pct ?? 0);
    parts.push(
      walkBike >= 25
        ? `${walkBike.toFixed(1)}% of commuters walk or cycle to work, ${c.commute_transit_pct}% take transit.`
        : `${c.commute_transit_pct}% of commuters take transit to work and ${c.commute_car_pct}% drive.`,
    );
  }
  if (c.immigrants_pct != null) parts.push(`${c.immigrants_pct}% of residents are immigrants.`);
  if (c.median_household_income_2020_cad != null) parts.push(`The median household income in 2020 was $${fmt(c.median_household_income_2020_cad)}.`);
  return parts.join(' ');
}

export interface NeighbourhoodRef {
  id: number;
  name: string;
  slug: string;
  label_latitude: number;
  label_longitude: number;
}

export async function seedNeighbourhoods(db: Knex, opts: { images?: string[] } = {}): Promise<NeighbourhoodRef[]> {
  const profiles = readNeighbourhoodProfiles();
  const byId = new Map(profiles.map((p) => [p.neighbourhood_id, p]));
  const rows = readNeighbourhoodFeatures().map((f) => {
    const id = f.properties.neighbourhood_id;
    const name = f.properties.AREA_NAME;
    const profile = byId.get(id);
    if (!profile) throw new Error(`No census profile for neighbourhood ${id} ${name}`);
    return {
      id,
      name,
      slug: slugify(name),
      blurb: neighbourhoodBlurb(name, profile, profiles),
      image_key: opts.images?.length ? opts.images[id % opts.images.length] : null,
      boundaries: JSON.stringify(f.geometry),
      label_latitude: profile.label_lat,
      label_longitude: profile.label_lng,
      ...bbox(f.geometry.coordinates),
      census: JSON.stringify({
        ...profile.indicators,
        tsns_2020_designation: profile.tsns_2020_designation,
        classification: f.properties.CLASSIFICATION,
        classification_code: f.properties.CLASSIFICATION_CODE,
        source: 'Statistics Canada, Census 2021, via City of Toronto Neighbourhood Profiles',
      }),
    };
  });
  // Boundaries are large (about 7 KB each): small batches keep statements reasonable.
  await insertBatches(db, 'neighbourhoods', rows, 50);
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, label_latitude: r.label_latitude, label_longitude: r.label_longitude }));
}
