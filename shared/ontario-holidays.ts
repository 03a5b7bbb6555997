// Ontario's holidays, computed from their rules (no library's list: opening_hours.js and
// date-holidays disagree with the Employment Standards Act, see docs/places-desk.md). The ESA's
// nine public holidays are the days a place's "keeps holidays" setting applies to; the other
// commonly observed days are listed for information only. Source of the rules: Ontario's guide
// to the ESA, "Public holidays", and the Retail Business Holidays Act (docs/data-credits.md).

export interface OntarioHoliday {
  /** 'YYYY-MM-DD' */
  date: string;
  name: string;
  /** One of the ESA's nine public holidays: what "keeps Ontario holidays" means. */
  esa: boolean;
  /** A retail-business holiday (Toronto Municipal Code ch. 510): Easter Sunday yes, Boxing Day no. */
  retail: boolean;
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Day of the month of the n-th `weekday` (0 = Sunday … 6 = Saturday) of month `m` (1–12). */
function nthWeekday(y: number, m: number, weekday: number, n: number): number {
  const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
  return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
}

/** Easter Sunday (Gregorian; the anonymous "Meeus/Jones/Butcher" algorithm) as [month, day]. */
export function easterSunday(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

function shift(y: number, m: number, d: number, days: number): string {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

const cache = new Map<number, OntarioHoliday[]>();

/** The year's holidays in date order. */
export function ontarioHolidays(year: number): OntarioHoliday[] {
  const hit = cache.get(year);
  if (hit) return hit;
  const [em, ed] = easterSunday(year);
  // Victoria Day: the Monday before May 25 (on or before May 24).
  const may24 = new Date(Date.UTC(year, 4, 24)).getUTCDay();
  const victoria = 24 - ((may24 + 6) % 7);
  const list: OntarioHoliday[] = [
    { date: iso(year, 1, 1), name: "New Year's Day", esa: true, retail: true },
    { date: iso(year, 2, nthWeekday(year, 2, 1, 3)), name: 'Family Day', esa: true, retail: true },
    { date: shift(year, em, ed, -2), name: 'Good Friday', esa: true, retail: true },
    { date: iso(year, em, ed), name: 'Easter Sunday', esa: false, retail: true },
    { date: shift(year, em, ed, 1), name: 'Easter Monday', esa: false, retail: false },
    { date: iso(year, 5, victoria), name: 'Victoria Day', esa: true, retail: true },
    { date: iso(year, 7, 1), name: 'Canada Day', esa: true, retail: true },
    { date: iso(year, 8, nthWeekday(year, 8, 1, 1)), name: 'Civic Holiday', esa: false, retail: false },
    { date: iso(year, 9, nthWeekday(year, 9, 1, 1)), name: 'Labour Day', esa: true, retail: true },
    { date: iso(year, 9, 30), name: 'National Day for Truth and Reconciliation', esa: false, retail: false },
    { date: iso(year, 10, nthWeekday(year, 10, 1, 2)), name: 'Thanksgiving', esa: true, retail: true },
    { date: iso(year, 11, 11), name: 'Remembrance Day', esa: false, retail: false },
    { date: iso(year, 12, 25), name: 'Christmas Day', esa: true, retail: true },
    { date: iso(year, 12, 26), name: 'Boxing Day', esa: true, retail: false },
  ];
  list.sort((a, b) => a.date.localeCompare(b.date));
  cache.set(year, list);
  return list;
}

/** The ESA public holiday on this date ('YYYY-MM-DD'), if any. */
export function ontarioPublicHoliday(date: string): OntarioHoliday | null {
  const year = Number(date.slice(0, 4));
  return ontarioHolidays(year).find((h) => h.esa && h.date === date) ?? null;
}
