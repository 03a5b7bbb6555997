import { normaliseStationName, normaliseWords, parseAddress, type ParsedAddress } from './normalise';

// Everything the geocoder knows, in memory: the listings' addresses grouped by street and
// sorted by house number, the subway stations, the neighbourhoods' label points and the
// places' names sorted for prefix look-ups. Built from rows (loader.ts reads them), so a
// look-up is pure computation.

export interface Point {
  latitude: number;
  longitude: number;
}

/** One house number on a street: the median of the points registered at it. */
interface NumberPoint extends Point {
  number: number;
}

export interface Street {
  key: string;
  /** The street as the data writes it most often ("Dundas St W"). */
  label: string;
  /** Exact addresses by number as written ("19c", "401"). */
  exact: Map<string, Point & { label: string }>;
  /** One point per numeric house number, ascending, lone outliers left out (withoutLoneOutliers). */
  numbers: NumberPoint[];
}

export interface NamedPoint extends Point {
  key: string;
  label: string;
}

export interface Gazetteer {
  streets: Map<string, Street>;
  /** Street keys, sorted: a street typed without its type ("401 bay") is found by prefix. */
  streetKeys: string[];
  stations: NamedPoint[];
  /** Each neighbourhood once per name it answers to (its full name, each hyphenated part, an alias). */
  neighbourhoods: NamedPoint[];
  /** Places sorted by key, for binary-searched prefix ranges. */
  places: NamedPoint[];
}

export interface GazetteerRows {
  listings: Array<{ name: string; address: string; latitude: number; longitude: number }>;
  stations: Array<{ name: string; latitude: number; longitude: number }>;
  neighbourhoods: Array<{ name: string; latitude: number; longitude: number }>;
}

// Names Torontonians use for parts of the City's official neighbourhoods, which the 158 names
// do not hold. Each answers with its official neighbourhood's label point and says so.
const NEIGHBOURHOOD_ALIASES: Record<string, string> = {
  Leslieville: 'South Riverdale',
  Riverside: 'South Riverdale',
  Yorkville: 'Annex',
  Parkdale: 'South Parkdale',
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Metres between two points (haversine). */
export function metresBetween(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** Farther than this from both numbers beside it, a point is a registration error, not the street. */
const OUTLIER_M = 1000;

/**
 * The numbers to place others between, without lone points far from both their neighbours
 * while those two lie near each other: DineSafe registers 4996 Yonge St at St Clair, 9 km
 * south of 4968 and 5000, and one such point would drag every number placed beside it.
 * An address between two distant stretches of a street is kept (its neighbours are far apart too).
 */
function withoutLoneOutliers(numbers: NumberPoint[]): NumberPoint[] {
  if (numbers.length < 3) return numbers;
  return numbers.filter((p, i) => {
    // At an end of the street, the two numbers on its one side.
    const [a, b] = i === 0 ? [numbers[1], numbers[2]] : i === numbers.length - 1 ? [numbers[i - 1], numbers[i - 2]] : [numbers[i - 1], numbers[i + 1]];
    const apart = metresBetween(a, b);
    return !(metresBetween(p, a) > OUTLIER_M && metresBetween(p, b) > OUTLIER_M && apart < Math.min(metresBetween(p, a), metresBetween(p, b)));
  });
}

/** "65 Front St W, Unit-442" → "Front St W": the street as the data writes it, for labels. */
function streetLabel(address: string): string {
  return address
    .split(',')[0]
    .replace(/^\S*\d\S*\s+/, '')
    .replace(/\s+(?:unit|suite|ste|apt|#).*$/i, '')
    .trim();
}

/** A name as the index and a query compare it: its words, without a leading "the". */
export const nameKey = (name: string): string => normaliseWords(name).replace(/^the /, '');

function mostCommon(counts: Map<string, number>): string {
  let best = '';
  let most = -1;
  for (const [label, n] of counts) if (n > most) [best, most] = [label, n];
  return best;
}

export function buildGazetteer(rows: GazetteerRows): Gazetteer {
  // Street key → the points at each number (as written, and as a number) and the ways it is written.
  const building = new Map<string, { labels: Map<string, number>; exact: Map<string, Point[]>; numbers: Map<number, Point[]> }>();
  for (const l of rows.listings) {
    if (!Number.isFinite(l.latitude) || !Number.isFinite(l.longitude)) continue;
    const parsed = parseAddress(l.address);
    if (!parsed) continue;
    let s = building.get(parsed.street);
    if (!s) building.set(parsed.street, (s = { labels: new Map(), exact: new Map(), numbers: new Map() }));
    const label = streetLabel(l.address);
    if (label) s.labels.set(label, (s.labels.get(label) ?? 0) + 1);
    const p = { latitude: l.latitude, longitude: l.longitude };
    (s.exact.get(parsed.numberText) ?? s.exact.set(parsed.numberText, []).get(parsed.numberText)!).push(p);
    (s.numbers.get(parsed.number) ?? s.numbers.set(parsed.number, []).get(parsed.number)!).push(p);
  }
  const streets = new Map<string, Street>();
  for (const [key, s] of building) {
    const label = mostCommon(s.labels) || key;
    const centre = (ps: Point[]): Point => ({ latitude: median(ps.map((p) => p.latitude)), longitude: median(ps.map((p) => p.longitude)) });
    streets.set(key, {
      key,
      label,
      exact: new Map([...s.exact].map(([n, ps]) => [n, { ...centre(ps), label: `${n.toUpperCase()} ${label}` }])),
      numbers: withoutLoneOutliers([...s.numbers].map(([number, ps]) => ({ number, ...centre(ps) })).sort((a, b) => a.number - b.number)),
    });
  }

  const stations = rows.stations.map((s) => ({ key: normaliseStationName(s.name), label: `${s.name} station`, latitude: s.latitude, longitude: s.longitude }));

  const neighbourhoods: NamedPoint[] = [];
  const byName = new Map(rows.neighbourhoods.map((n) => [n.name, n]));
  for (const n of rows.neighbourhoods) {
    const point = { label: n.name, latitude: n.latitude, longitude: n.longitude };
    neighbourhoods.push({ key: nameKey(n.name), ...point });
    // "Liberty Village" is half of "Fort York-Liberty Village", "Chinatown" of "Kensington-Chinatown".
    const parts = n.name.split(/[-/]/).map(nameKey).filter(Boolean);
    if (parts.length > 1) for (const part of parts) neighbourhoods.push({ key: part, ...point });
  }
  for (const [alias, official] of Object.entries(NEIGHBOURHOOD_ALIASES)) {
    const n = byName.get(official);
    if (n) neighbourhoods.push({ key: nameKey(alias), label: `${alias} (${official})`, latitude: n.latitude, longitude: n.longitude });
  }

  const places = rows.listings
    .filter((l) => Number.isFinite(l.latitude) && Number.isFinite(l.longitude))
    .map((l) => {
      const where = l.address.split(',')[0].trim();
      return { key: nameKey(l.name), label: where ? `${l.name}, ${where}` : l.name, latitude: l.latitude, longitude: l.longitude };
    })
    .filter((p) => p.key)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));

  return { streets, streetKeys: [...streets.keys()].sort(), stations, neighbourhoods, places };
}

/** The first index in a sorted array whose key is not below `key`. */
function lowerBound<T>(items: T[], key: string, keyOf: (t: T) => string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(items[mid]) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Items of a sorted array whose key starts with `prefix`, at most `max`. */
export function withPrefix<T>(items: T[], prefix: string, max: number, keyOf: (t: T) => string): T[] {
  const out: T[] = [];
  for (let i = lowerBound(items, prefix, keyOf); i < items.length && out.length < max && keyOf(items[i]).startsWith(prefix); i++) out.push(items[i]);
  return out;
}

const DIRECTIONS = ['w', 'e', 'n', 's'];

/**
 * The streets a typed street may mean: itself; else the same with a direction ("Bloor St"
 * is Bloor St W and Bloor St E); else, typed without its type, the streets it begins with one
 * or two more words ("bay" → "bay st"), most addressed first.
 */
export function streetsFor(g: Gazetteer, typed: string, max = 3): Street[] {
  const own = g.streets.get(typed);
  if (own) return [own];
  const directed = DIRECTIONS.map((d) => g.streets.get(`${typed} ${d}`)).filter((s): s is Street => Boolean(s));
  if (directed.length) return directed.sort((a, b) => b.numbers.length - a.numbers.length).slice(0, max);
  return withPrefix(g.streetKeys, `${typed} `, 50, (k) => k)
    .filter((k) => k.split(' ').length - typed.split(' ').length <= 2)
    .map((k) => g.streets.get(k)!)
    .sort((a, b) => b.numbers.length - a.numbers.length)
    .slice(0, max);
}

export interface Located extends Point {
  label: string;
  exact: boolean;
}

/** Where on `street` the number lies between two known numbers a and b (a.number < n < b.number). */
function between(a: NumberPoint, b: NumberPoint, n: number): Point {
  const t = (n - a.number) / (b.number - a.number);
  return { latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude) };
}

/** The known numbers just below and just above n in an ascending list (either may be missing). */
function neighbours(numbers: NumberPoint[], n: number): [NumberPoint | undefined, NumberPoint | undefined] {
  let lo = 0;
  let hi = numbers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (numbers[mid].number < n) lo = mid + 1;
    else hi = mid;
  }
  return [numbers[lo - 1], numbers[lo]?.number === n ? numbers[lo + 1] : numbers[lo]];
}

/**
 * A number's point on a street. Known: its own point. Unknown: interpolated linearly by house
 * number between its nearest known neighbours on the same side of the street (the same
 * parity: Toronto puts odd numbers on one side, even on the other) when both exist there;
 * else between its nearest neighbours of either parity. A number outside the street's known
 * range gets the nearest known number's point: extrapolating would run off the street's end
 * and past where any address we hold shows it goes.
 */
export function locateOnStreet(street: Street, address: Pick<ParsedAddress, 'number' | 'numberText'>, skip?: number): Located | null {
  const numbers = skip === undefined ? street.numbers : street.numbers.filter((p) => p.number !== skip);
  if (skip === undefined) {
    const known = street.exact.get(address.numberText) ?? street.exact.get(String(address.number));
    if (known) return { ...known, exact: true };
  }
  if (!numbers.length) return null;
  const n = address.number;
  const label = `${n} ${street.label}`;
  // "19" where the data holds only "19C": the same building.
  const same = numbers.find((p) => p.number === n);
  if (same) return { latitude: same.latitude, longitude: same.longitude, label, exact: true };
  const sameSide = numbers.filter((p) => p.number % 2 === n % 2);
  const [sideBelow, sideAbove] = neighbours(sameSide, n);
  if (sideBelow && sideAbove) return { ...between(sideBelow, sideAbove, n), label, exact: false };
  const [below, above] = neighbours(numbers, n);
  if (below && above) return { ...between(below, above, n), label, exact: false };
  const nearest = (below ?? above)!;
  // Past the known numbers there is nothing to place it between: near the last known one it is
  // about there, far past it (790 where the data stops at 198, 1.5 km on) any point is a guess
  // that puts the venue on the wrong block, so none is given.
  if (Math.abs(n - nearest.number) > MAX_NUMBERS_PAST_KNOWN) return null;
  return { latitude: nearest.latitude, longitude: nearest.longitude, label, exact: false };
}

/** How far past a street's last known house number a number still takes that one's point (about a block). */
export const MAX_NUMBERS_PAST_KNOWN = 50;
