// Addresses as people type them ("401 bay st", "317 Dundas St. W.", "1 Blue Jays Way, Toronto",
// "65 Front St W, Unit-442") and as DineSafe registers them ("65 FRONT ST W, Unit-442") become
// one key per street, so that the index (built from the data) and a query meet on the same
// string. Names of stations, neighbourhoods and places go through the same word rules.

/** Full words and their abbreviations, both ways to one form: the data's (Canada Post's). */
const WORD_FORMS: Record<string, string> = {
  street: 'st', str: 'st', saint: 'st',
  avenue: 'ave', av: 'ave', avn: 'ave',
  road: 'rd',
  drive: 'dr', drv: 'dr',
  boulevard: 'blvd', boul: 'blvd', blv: 'blvd',
  west: 'w', east: 'e', north: 'n', south: 's',
  court: 'crt', ct: 'crt',
  crescent: 'cres', cr: 'cres', cresc: 'cres',
  circle: 'crcl', cir: 'crcl', circ: 'crcl',
  place: 'pl',
  square: 'sq',
  trail: 'trl',
  parkway: 'pkwy', pky: 'pkwy',
  park: 'pk',
  gardens: 'gdns', gdn: 'gdns',
  terrace: 'ter', terr: 'ter',
  gate: 'gt',
  heights: 'hts',
  mount: 'mt',
  highway: 'hwy',
  lane: 'lane', ln: 'lane',
};

/** A trailing part naming the city or province, not the street (after a comma, or at the end). */
const PLACE_WORDS = /(?:^|\s)(?:toronto|north york|scarborough|etobicoke|east york|york|ontario|on|canada|ca)$/;
const POSTAL_CODE = /\b[a-z]\d[a-z] ?\d[a-z]\d\b/g;
/** Words that start a unit designation: everything from them on is the unit, not the street. */
const UNIT_START = /(?:\s|^)(?:unit|suite|ste|apt|apartment|room|rm|floor|fl|bldg|building|box|po box|#)(?:[\s\-#.:]|\d|$).*$/;

/** Lower case, accents off, one apostrophe ("O’Connor": "o'connor"), "&" as "and". */
function folded(text: string): string {
  // Most text is ASCII, and NFKD on 15,000 names is most of the index's build time.
  const ascii = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return ascii
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/&/g, ' and ');
}

/** Folded, apostrophes dropped (O'Connor: oconnor); other punctuation stays for the callers. */
const plain = (text: string): string => folded(text).replace(/'/g, '');

/** Words of a name or street, punctuation gone and each word in its one form. */
export function normaliseWords(text: string): string {
  return plain(text)
    .replace(/[^a-z0-9#]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => WORD_FORMS[w] ?? w)
    .join(' ');
}

/** A station's name as a reader may type it: "bloor yonge station" is Bloor-Yonge. */
export function normaliseStationName(text: string): string {
  return normaliseWords(text).replace(/\s+(?:station|stn|subway station|subway)$/, '');
}

export interface ParsedAddress {
  /** The civic number as a number: 19 for "19C", 650.5 for "650 1/2" or "650.5", 41 for the range "41-43", 401 for unit 5 at "5-401". */
  number: number;
  /** The number as written, lower case, with any letter or half ("19c", "650 1/2"): an exact match looks for it first. */
  numberText: string;
  /** The street's key: normaliseWords of its name ("dundas st w"). */
  street: string;
  /** The street's words as written, lower case, no punctuation but apostrophes ("the east mall", "o'connor drive"): for labels. */
  streetText: string;
}

/** How far apart the two numbers of a range may be ("144-146", "7-11"); farther, the first is a unit ("10-40": unit 10 at 40). */
const MAX_RANGE = 20;

/**
 * A house number and a street, or null when the text does not start with one (a place name,
 * a station). The street is what follows the number, up to a unit, the city or a postal code.
 * The one parser of addresses: the geocoder's index and queries, and the map's streets
 * (scripts/map-streets/streets.ts).
 */
export function parseAddress(text: string): ParsedAddress | null {
  // Apostrophes stay until the key is made: the street as written keeps them ("o'connor dr").
  let s = folded(text).replace(POSTAL_CODE, ' ');
  // "Unit 5, 401 Bay St": the street is the first comma-separated part that starts with a number.
  const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
  const first = parts.find((p) => /^\d/.test(p));
  if (!first) return null;
  s = first.replace(UNIT_START, '');
  // "- C126", "Bldg--": a unit written after a dash at the end.
  s = s.replace(/\s+-+\s*[a-z0-9]*\s*$/, '');
  s = s.replace(/[^a-z0-9\-\s./']+/g, ' ').replace(/\s+/g, ' ').trim();
  const m = /^(\d+)(\.\d+| 1\/2)?([a-z]?)(?: ?- ?(\d+)([a-z]?))?[\s./]+(.+)$/.exec(s);
  if (!m) return null;
  const [, digits, half, letter, second, secondLetter, rest] = m;
  const a = { number: Number(digits) + (half ? 0.5 : 0), numberText: `${Number(digits)}${half ?? ''}${letter}` };
  const b = second === undefined ? null : { number: Number(second), numberText: `${Number(second)}${secondLetter}` };
  // "41-43 Queen St" and "7-11 Arleta Ave" are ranges, close and rising: the first is the
  // address. Otherwise the first is a unit, as Canadians write it: "5-401 Bay St" is unit 5 at
  // 401, "10-40 Queen St" unit 10 at 40 (a range would be 15 lots wide).
  const { number, numberText } = b && !(b.number >= a.number && b.number - a.number <= MAX_RANGE) ? b : a;
  // A trailing city or province with no comma ("1 Blue Jays Way Toronto ON"), but never down to
  // nothing: "15 York" may be the start of York St.
  let streetText = rest.replace(/[^a-z0-9']+/g, ' ').trim();
  for (;;) {
    const stripped = streetText.replace(PLACE_WORDS, '').trim();
    if (!stripped || stripped === streetText) break;
    streetText = stripped;
  }
  // "The Queensway" and "Queensway" are one street.
  const street = normaliseWords(streetText).replace(/^the /, '');
  if (!street || !/[a-z]/.test(street)) return null;
  return { number, numberText, street, streetText };
}
