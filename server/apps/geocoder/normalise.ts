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

/** Lower case, accents off, apostrophes dropped (O'Connor: oconnor), other punctuation a space. */
function plain(text: string): string {
  // Most text is ASCII, and NFKD on 15,000 names is most of the index's build time.
  const ascii = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return ascii
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/&/g, ' and ');
}

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
  /** The house number as a number (19 for "19C"; 41 for the range "41-43"). */
  number: number;
  /** The number as written, lower case, with any letter ("19c"): an exact match looks for it first. */
  numberText: string;
  /** The street's key: normaliseWords of its name ("dundas st w"). */
  street: string;
}

/**
 * A house number and a street, or null when the text does not start with one (a place name,
 * a station). The street is what follows the number, up to a unit, the city or a postal code.
 */
export function parseAddress(text: string): ParsedAddress | null {
  let s = plain(text).replace(POSTAL_CODE, ' ');
  // "Unit 5, 401 Bay St": the street is the first comma-separated part that starts with a number.
  const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
  const first = parts.find((p) => /^\d/.test(p));
  if (!first) return null;
  s = first.replace(UNIT_START, '');
  // "- C126", "Bldg--": a unit written after a dash at the end.
  s = s.replace(/\s+-+\s*[a-z0-9]*\s*$/, '');
  s = s.replace(/[^a-z0-9\-\s]+/g, ' ').replace(/\s+/g, ' ').trim();
  const m = /^(\d+)([a-z]?)(?:\.\d+)?(?:-(\d+)([a-z]?))?\s+(.+)$/.exec(s);
  if (!m) return null;
  let [, num, letter] = m;
  const [, , , second, secondLetter, rest] = m;
  // "41-43 Queen St" is a range (both numbers as long): the first is the address. "5-401 Bay St"
  // is unit 5 at 401, as Canadians write it.
  if (second !== undefined && second.length !== num.length) {
    num = second;
    letter = secondLetter ?? '';
  }
  // "The Queensway" and "Queensway" are one street.
  let street = normaliseWords(rest.replace(/-/g, ' ')).replace(/^the /, '');
  // A trailing city or province with no comma ("1 Blue Jays Way Toronto ON"), but never down to
  // nothing: "15 York" may be the start of York St.
  for (;;) {
    const stripped = street.replace(PLACE_WORDS, '').trim();
    if (!stripped || stripped === street) break;
    street = stripped;
  }
  if (!street || !/[a-z]/.test(street)) return null;
  return { number: Number(num), numberText: `${Number(num)}${letter}`, street };
}
