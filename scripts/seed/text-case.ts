// DineSafe registers most names and addresses in capitals ("1871 O'CONNOR DR"). The guide
// shows them in title case, keeping what is clearly an acronym or a code.

const SMALL_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'de', 'del', 'di', 'du', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'la', 'le', 'les', 'el', 'da', 'y']);
// Kept in capitals: chains, venues and abbreviations a Torontonian would write that way.
const ACRONYMS = new Set([
  'BBQ', 'KFC', 'CNE', 'TTC', 'YMCA', 'YWCA', 'LCBO', 'TD', 'RBC', 'CIBC', 'BMO', 'CN', 'UFC', 'NBA', 'NHL', 'MLB', 'OK', 'TV',
  'II', 'III', 'IV', 'USA', 'UK', 'HK', 'YYZ', 'BLT', 'DJ', 'PJ', 'JJ', 'BB', 'QE', 'FB', 'TO', 'T.O', 'T.O.', 'U of T', 'UofT', 'AGO', 'ROM', 'OCAD', 'TMU', 'YYC', 'NY', 'LA',
  'ON', 'DT', 'CP', 'PC', 'TKO', 'MJ', 'VIP', 'OMG', 'XO', 'GTA',
]);
// In addresses only: compass points and unit abbreviations.
const ADDRESS_UPPER = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', 'PO', 'ON']);

function capitalise(word: string): string {
  const lower = word.toLowerCase();
  // McDonald's, MacKenzie is too risky (Mack, Macy): only Mc.
  if (/^mc[a-z]{2,}/.test(lower)) return 'Mc' + lower[2].toUpperCase() + lower.slice(3);
  // O'Connor, D'Angelo; but not the possessive 's (Harriet's).
  if (/^[od]'[a-z]{2,}/.test(lower)) return lower[0].toUpperCase() + "'" + lower[2].toUpperCase() + lower.slice(3);
  // 19th and 2nd read as ordinals; 676B and 5D are unit letters and stay as they are.
  if (/^\d/.test(lower)) return /^\d+(st|nd|rd|th)$/.test(lower) ? lower : word;
  const i = lower.search(/[a-zà-ÿ]/);
  if (i < 0) return lower;
  return lower.slice(0, i) + lower[i].toUpperCase() + lower.slice(i + 1);
}

function looksLikeAcronym(word: string): boolean {
  const bare = word.replace(/[^A-Za-z.]/g, '');
  if (ACRONYMS.has(bare) || ACRONYMS.has(word)) return true;
  // Two or three capitals without a vowel (BBQ, KFC, JJ's) read as letters, not a word.
  return /^[B-DF-HJ-NP-TV-Z]{2,3}$/.test(bare.replace(/'S$/, '').replace(/\./g, ''));
}

function caseWord(word: string, index: number, kind: 'name' | 'address'): string {
  const bare = word.replace(/[^A-Za-z]/g, '');
  // Words already in mixed case were written that way on purpose ("(Emporium)", "Unit-5D").
  if (bare !== bare.toUpperCase()) return word;
  if (kind === 'address') {
    if (ADDRESS_UPPER.has(bare) && bare === word.replace(/[,.]/g, '')) return word;
  } else if (looksLikeAcronym(word)) return word.replace(/'S$/, "'s");
  const lower = word.toLowerCase();
  if (index > 0 && SMALL_WORDS.has(lower)) return lower;
  // Hyphenated and slashed words: each part on its own (Bloor-Yonge, Bar/Grill).
  return word
    .split(/([-/])/)
    .map((part) => (part === '-' || part === '/' ? part : capitalise(part)))
    .join('');
}

/** "1 HOTEL TORONTO - HARRIET'S" -> "1 Hotel Toronto - Harriet's"; mixed-case words are kept. */
export function titleCaseName(name: string): string {
  let text = name.trim().replace(/\s+/g, ' ');
  // A registered company suffix says nothing to a reader ("13 SUNS ETHIOPIAN VEGAN CUISINE INC").
  text = text.replace(/[ ,]+(INC\.?|LTD\.?|LIMITED|CORP\.?|CORPORATION)$/i, '').trim() || name.trim();
  return text
    .split(' ')
    .map((w, i) => caseWord(w, i, 'name'))
    .join(' ');
}

/** "65 FRONT ST W, Unit-442" -> "65 Front St W, Unit-442". */
export function titleCaseAddress(address: string): string {
  const text = address.trim().replace(/\s+/g, ' ');
  return text
    .split(', ')
    .map((part) =>
      part
        .split(' ')
        .map((w) => caseWord(w, 0, 'address'))
        .join(' '),
    )
    .join(', ');
}
