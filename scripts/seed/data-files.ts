import fs from 'node:fs';
import path from 'node:path';
import { repairMojibake } from './mojibake';

// Readers for the real Toronto data copied into scripts/seed/data (sources and licences in
// data/README.md). Each returns typed rows exactly as the files give them; the importers
// decide what to keep.

export const DATA_DIR = path.join(__dirname, 'data');

export const DATA_FILES = {
  neighbourhoods: 'toronto-neighbourhoods.geojson',
  profiles: 'toronto-neighbourhood-profiles-2021.csv',
  stations: 'ttc-subway-stations.csv',
  establishments: 'toronto-dinesafe-establishments.csv',
  libraries: 'toronto-public-library-branches.csv',
  festivals: 'toronto-festivals-events.json',
} as const;

function dataPath(name: keyof typeof DATA_FILES): string {
  return path.join(DATA_DIR, DATA_FILES[name]);
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => r.length > 1 || r[0] !== '');
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const cache = new Map<string, unknown>();
function cached<T>(key: string, load: () => T): T {
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as T;
}

// Every field is repaired on the way in: a few source rows carry UTF-8 read as Latin-1.
const readCsv = (name: keyof typeof DATA_FILES) =>
  cached(name, () => parseCsv(fs.readFileSync(dataPath(name), 'utf8')).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, repairMojibake(v)]))));
const num = (v: string) => (v === '' ? null : Number(v));

export interface NeighbourhoodFeature {
  type: 'Feature';
  properties: { neighbourhood_id: number; AREA_NAME: string; CLASSIFICATION: string; CLASSIFICATION_CODE: string };
  geometry: { type: 'MultiPolygon'; coordinates: number[][][][] };
}

export function readNeighbourhoodFeatures(): NeighbourhoodFeature[] {
  return cached('geojson', () => JSON.parse(fs.readFileSync(dataPath('neighbourhoods'), 'utf8')).features as NeighbourhoodFeature[]);
}

export interface NeighbourhoodProfile {
  neighbourhood_id: number;
  neighbourhood_name: string;
  tsns_2020_designation: string;
  label_lat: number;
  label_lng: number;
  /** Every numeric census indicator of the row, by column name. */
  indicators: Record<string, number | null>;
}

export function readNeighbourhoodProfiles(): NeighbourhoodProfile[] {
  return readCsv('profiles').map((r) => {
    const indicators: Record<string, number | null> = {};
    for (const [k, v] of Object.entries(r)) {
      if (['neighbourhood_id', 'neighbourhood_name', 'tsns_2020_designation', 'label_lat', 'label_lng'].includes(k)) continue;
      indicators[k] = num(v);
    }
    return {
      neighbourhood_id: Number(r.neighbourhood_id),
      neighbourhood_name: r.neighbourhood_name,
      tsns_2020_designation: r.tsns_2020_designation,
      label_lat: Number(r.label_lat),
      label_lng: Number(r.label_lng),
      indicators,
    };
  });
}

export interface StationRow {
  station_id: string;
  station_name: string;
  lines: string;
  line_names: string;
  latitude: number;
  longitude: number;
  street_address: string;
  neighbourhood_id: number | null;
}

export function readStations(): StationRow[] {
  return readCsv('stations').map((r) => ({
    station_id: r.station_id,
    station_name: r.station_name,
    lines: r.lines,
    line_names: r.line_names,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    street_address: r.street_address,
    neighbourhood_id: num(r.neighbourhood_id),
  }));
}

export interface EstablishmentRow {
  establishment_id: number;
  name: string;
  category: string;
  dinesafe_type: string;
  address: string;
  latitude: number;
  longitude: number;
  neighbourhood_id: number | null;
  neighbourhood_name: string;
  nearest_station_id: string;
  nearest_station_distance_m: number | null;
}

export function readEstablishments(): EstablishmentRow[] {
  return readCsv('establishments').map((r) => ({
    establishment_id: Number(r.establishment_id),
    name: r.name,
    category: r.category,
    dinesafe_type: r.dinesafe_type,
    address: r.address,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    neighbourhood_id: num(r.neighbourhood_id),
    neighbourhood_name: r.neighbourhood_name,
    nearest_station_id: r.nearest_station_id,
    nearest_station_distance_m: num(r.nearest_station_distance_m),
  }));
}

export interface LibraryRow {
  branch_code: string;
  branch_name: string;
  address: string;
  website: string;
  telephone: string;
  latitude: number;
  longitude: number;
  neighbourhood_id: number | null;
  service_tier: string;
}

export function readLibraries(): LibraryRow[] {
  return readCsv('libraries').map((r) => ({
    branch_code: r.branch_code,
    branch_name: r.branch_name,
    address: r.address,
    website: r.website,
    telephone: r.telephone,
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    neighbourhood_id: num(r.neighbourhood_id),
    service_tier: r.service_tier,
  }));
}

export interface FestivalEvent {
  name: string;
  start: string;
  end: string | null;
  venue_name: string | null;
  street_address: string | null;
  locality: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
  categories: string[];
  is_free: boolean | null;
  price_cad: number | string | null;
  url: string | null;
  image: string | null;
  organizer_name: string | null;
  description: string | null;
  neighbourhood_id: number | null;
}

export function readFestivalEvents(): FestivalEvent[] {
  return cached('festivals', () => JSON.parse(fs.readFileSync(dataPath('festivals'), 'utf8'), (_k, v: unknown) => (typeof v === 'string' ? repairMojibake(v) : v)) as FestivalEvent[]);
}
