// A place's permanent closing (issue 39): `listings.closed_on` is the day it closed (or will
// close), `listings.closed_note` staff's word on it. A place counts as closed from that day on,
// in the city's time zone (Canada/Eastern), so a closing dated ahead takes effect on its day
// without anyone coming back to it. Shared by the server (queries, pages) and the islands.

/** The longest closing note staff may write: it goes into each Best of list's change-log reason. */
export const CLOSED_NOTE_MAX = 400;

/** 'YYYY-MM-DD' of a date column, whichever way the driver hands it over (a string or a Date at UTC midnight). */
export function closedDay(value: string | Date | null | undefined): string | null {
  if (!value) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/** Whether a place with this closing day is closed on the city's `today` ('YYYY-MM-DD'). */
export function isClosedOn(closedOn: string | Date | null | undefined, today: string): boolean {
  const day = closedDay(closedOn);
  return day !== null && day <= today;
}

/** 'Nov 20, 2026' for '2026-11-20' (a calendar day: no time zone shifts it). */
export function closingDayLabel(day: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));
}

/**
 * The city's zone, as place-hours.ts' PLACE_TIME_ZONE: named again here so that the islands'
 * cards can say "Closed" without loading place-hours.ts and the zone data it brings.
 */
const CITY_ZONE = 'Canada/Eastern';
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The city's day at `now` ('YYYY-MM-DD'), the day that decides whether a place has closed. */
export function placeDay(now: Date, zone: string = CITY_ZONE): string {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone });
    dayFormats.set(zone, format);
  }
  return format.format(now);
}

/** What a card says of a place's closing: 'Closed', 'Closing Dec 31', or '' while it is open. */
export function closingBadge(closedOn: string | Date | null | undefined, now: Date, zone: string = CITY_ZONE): string {
  const day = closedDay(closedOn);
  if (!day) return '';
  return isClosedOn(day, placeDay(now, zone)) ? 'Closed' : `Closing ${closingDayLabel(day).replace(/, \d{4}$/, '')}`;
}
