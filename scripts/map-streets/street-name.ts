// Street names as the map's street builder compares them (scripts/map-streets/streets.ts).
// DineSafe writes "65 FRONT ST W, Unit-442"; people write "65 Front Street West" or
// "65 Front St. W., Toronto". Both become number 65 on street "FRONT ST W", whose label is
// "Front St W". (Written here because no shared normaliser existed when the streets were built;
// the geocoder of issue 25 item 2 may share or replace it.)

/** Street types in the type position (the last word before a direction): long form -> Canada Post's short form. */
const TYPES: Record<string, string> = {
  STREET: 'ST', AVENUE: 'AVE', AV: 'AVE', ROAD: 'RD', BOULEVARD: 'BLVD', DRIVE: 'DR', CRESCENT: 'CRES', COURT: 'CRT',
  CIRCLE: 'CRCL', CIRCUIT: 'CRCT', PLACE: 'PL', TERRACE: 'TER', TRAIL: 'TRL', PARKWAY: 'PKWY', SQUARE: 'SQ', GARDENS: 'GDNS',
  GATE: 'GT', GROVE: 'GRV', HIGHWAY: 'HWY', PARK: 'PK',
};
const DIRECTIONS: Record<string, string> = { W: 'W', WEST: 'W', E: 'E', EAST: 'E', N: 'N', NORTH: 'N', S: 'S', SOUTH: 'S' };

/** What follows the street in an address and is not part of it: units, suites, floors, buildings. */
const UNIT = /\s+(?:UNIT|SUITE|STE|APT|BLDG|FLR|FLOOR|RM|ROOM|#)\b.*$|\s+#.*$/;

export interface ParsedAddress {
  /** The civic number (the first of a range such as 144-146; halves kept: 993.5, 650 1/2). */
  number: number;
  /** The normalised street, e.g. "QUEEN ST W". */
  street: string;
}

/** A street name normalised: upper case, no dots, long types and directions shortened, Saint as ST. */
export function normaliseStreet(name: string): string {
  const words = name
    .toUpperCase()
    .replace(/[.]/g, ' ')
    .replace(UNIT, '')
    .split(/\s+/)
    .filter(Boolean);
  if (words[0] === 'SAINT') words[0] = 'ST';
  let dir = '';
  if (words.length > 2 && DIRECTIONS[words[words.length - 1]]) dir = DIRECTIONS[words.pop()!];
  const last = words.length - 1;
  if (last > 0 && TYPES[words[last]]) words[last] = TYPES[words[last]];
  return [...words, dir].filter(Boolean).join(' ');
}

/**
 * An address's civic number and street, or null when it has no leading number. Everything after
 * the first comma (unit, city, province) is dropped, and so is a unit written after the street.
 * "5-401 Bay St" is unit 5 at 401; "144-146 Front St W" is a range starting at 144.
 */
export function parseAddress(address: string): ParsedAddress | null {
  const head = address.split(',')[0].trim().toUpperCase();
  const m = /^(\d+(?:\.\d+)?)[A-Z]?( 1\/2)?(?:\s*-\s*(\d+)[A-Z]?)?\s+(.+)$/.exec(head);
  if (!m) return null;
  const a = Number(m[1]) + (m[2] ? 0.5 : 0);
  const b = m[3] === undefined ? null : Number(m[3]);
  const number = b !== null && !(b >= a && b - a <= 20) ? b : a;
  const street = normaliseStreet(m[4]);
  return street ? { number, street } : null;
}

/** A normalised street as a map label: "ST CLAIR AVE W" -> "St Clair Ave W", "MCCAUL ST" -> "McCaul St". */
export function streetLabel(street: string): string {
  return street
    .split(' ')
    .map((w) => (w.length === 1 ? w : w[0] + w.slice(1).toLowerCase()))
    .map((w) => w.replace(/^Mc([a-z])/, (_, c: string) => `Mc${c.toUpperCase()}`).replace(/^O'([a-z])/, (_, c: string) => `O'${c.toUpperCase()}`))
    .join(' ');
}
