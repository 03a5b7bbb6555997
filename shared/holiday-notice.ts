import moment from 'moment-timezone';
import { ontarioHolidays, type OntarioHoliday } from './ontario-holidays';
import { placeDay } from './place-closing';
import { PLACE_TIME_ZONE, rangesOn, type PlaceHours } from './place-hours';

// "Holiday hours may differ: Christmas Day, Fri Dec 25" (issue 39), as Google Maps says it: a
// place page's warning that one of Ontario's public holidays is near and nobody has said what
// the place does on it. The hours model cannot tell "usual hours on holidays" decided by staff
// from the default every place starts with, so any place keeping its usual hours on holidays
// gets the note. Worked out when the page is made: the note is as old as the page's cache
// (a minute), and the page's edge lifetime already ends at midnight, when the window moves.

/** How far ahead a holiday is announced: from today to this many days after it (a week). */
export const HOLIDAY_NOTICE_DAYS = 7;

/** 'Fri Dec 25' for '2026-12-25' (a calendar day: read in UTC, so no zone shifts it). */
export function holidayDayWords(day: string): string {
  return moment.utc(day).format('ddd MMM D');
}

/** The ESA public holidays from `today` ('YYYY-MM-DD') to `days` days after it, both included, in date order. */
export function holidaysWithin(today: string, days: number = HOLIDAY_NOTICE_DAYS): OntarioHoliday[] {
  const last = moment.utc(today).add(days, 'days').format('YYYY-MM-DD');
  const years = [...new Set([today.slice(0, 4), last.slice(0, 4)])].map(Number);
  return years.flatMap(ontarioHolidays).filter((h) => h.esa && h.date >= today && h.date <= last);
}

/**
 * The note for a place's hours at `now` (city time), or null: hours known, usual hours on
 * holidays, and a holiday within the week on which those hours would have it open (a holiday
 * on its weekly day off, or inside a temporary closure, changes nothing to warn about).
 */
export function holidayNotice(hours: PlaceHours | null, now: Date, zone: string = PLACE_TIME_ZONE): string | null {
  if (!hours || hours.holidays !== 'usual') return null;
  const coming = holidaysWithin(placeDay(now, zone)).filter((h) => rangesOn(hours, h.date).length > 0);
  if (!coming.length) return null;
  return `Holiday hours may differ: ${coming.map((h) => `${h.name}, ${holidayDayWords(h.date)}`).join('; ')}`;
}
