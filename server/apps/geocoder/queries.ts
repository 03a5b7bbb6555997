import { streetsFor, locateOnStreet, nameKey, withPrefix, type Gazetteer, type NamedPoint } from './gazetteer';
import { normaliseStationName, parseAddress } from './normalise';
import type { Db } from '../../db';
import type { GeocodeResultDTO } from '../../../shared/dto';
import { gazetteerFor } from './loader';

// The geocoder's look-ups, against the in-memory gazetteer. Addresses first (an exact one
// before a placed one), then stations, neighbourhoods and places by name, at most ten. They
// keep no state: the gazetteer is kept per database by loader.ts, so the API (through the
// service) and event submissions (pointOfAddress) share one.

export const GEOCODE_KINDS = ['address', 'station', 'neighbourhood', 'place'] as const satisfies ReadonlyArray<GeocodeResultDTO['kind']>;
export type GeocodeKind = (typeof GEOCODE_KINDS)[number];

export type GeocodeResult = GeocodeResultDTO;

export const MAX_RESULTS = 10;
/** Shorter than this, a name matches only exactly: one letter is the start of a thousand places. */
const MIN_PREFIX = 2;

const result = (kind: GeocodeKind, p: { label: string; latitude: number; longitude: number }): GeocodeResult => ({
  label: p.label,
  kind,
  coordinates: { latitude: p.latitude, longitude: p.longitude },
});

/** Exact name matches first, then names that start with the key, each name once. */
function byName(items: NamedPoint[], key: string): NamedPoint[] {
  if (!key) return [];
  const exact = items.filter((i) => i.key === key);
  const prefix = key.length >= MIN_PREFIX ? items.filter((i) => i.key !== key && i.key.startsWith(key)) : [];
  const seen = new Set<string>();
  return [...exact, ...prefix].filter((i) => !seen.has(i.label) && Boolean(seen.add(i.label)));
}

/** What a look-up of `q` answers from the gazetteer `g`. */
export function geocode(g: Gazetteer, q: string): GeocodeResult[] {
  const out: GeocodeResult[] = [];
  const address = parseAddress(q);
  if (address) {
    const located = streetsFor(g, address.street)
      .map((street) => locateOnStreet(street, address))
      .filter((l) => l !== null);
    located.sort((a, b) => Number(b.exact) - Number(a.exact));
    out.push(...located.map((l) => result('address', l)));
  }
  out.push(...byName(g.stations, normaliseStationName(q)).map((s) => result('station', s)));
  out.push(...byName(g.neighbourhoods, nameKey(q)).map((n) => result('neighbourhood', n)));
  const placeKey = nameKey(q);
  if (out.length < MAX_RESULTS && placeKey.length >= MIN_PREFIX) {
    out.push(...withPrefix(g.places, placeKey, MAX_RESULTS - out.length, (p) => p.key).map((p) => result('place', p)));
  }
  return out.slice(0, MAX_RESULTS);
}

/**
 * Where a street address typed into a form is (an event's venue without a listing), or null
 * when our data does not know its street: the geocoder's first address answer, nothing else
 * (a station or a place of the same name is not the address the member gave).
 */
export async function pointOfAddress(db: Db, text: string): Promise<{ latitude: number; longitude: number } | null> {
  const found = geocode(await gazetteerFor(db), text).find((r) => r.kind === 'address');
  return found ? found.coordinates : null;
}
