import moment from 'moment-timezone';

// A small RFC 5545 writer: enough for a published feed of events. Times are written in UTC
// (the "Z" form needs no VTIMEZONE and every calendar app shows them in its own zone); all-day
// events are DATE values. Text is escaped and lines are folded at 75 octets, as the RFC asks.
// (ical-generator would do the same, but its current major needs Node 22.)

export interface IcsEvent {
  uid: string;
  start: Date;
  end: Date | null;
  /** A whole day: `date` is the local calendar day, YYYY-MM-DD. */
  allDay?: { date: string };
  summary: string;
  description?: string;
  location?: string;
  url?: string;
}

export interface IcsCalendar {
  prodId: string;
  name: string;
  timeZone: string;
  events: IcsEvent[];
  now: Date;
}

export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line to 75 octets per line without splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Step back off continuation bytes (10xxxxxx) so a character stays whole.
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // continuation lines begin with one space
  }
  return parts.join('\r\n ');
}

const utc = (d: Date) => moment.utc(d).format('YYYYMMDD[T]HHmmss[Z]');
const dateValue = (date: string) => date.replace(/-/g, '');

/** The calendar's opening lines, folded, each ending in CRLF (a writer that streams starts here). */
export function icsHeader(cal: Omit<IcsCalendar, 'events'>): string {
  return toText([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${cal.prodId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(cal.name)}`,
    `X-WR-TIMEZONE:${cal.timeZone}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT6H',
    'X-PUBLISHED-TTL:PT6H',
  ]);
}

/** One VEVENT, folded, each line ending in CRLF. */
export function icsEvent(e: IcsEvent, now: Date): string {
  const lines = ['BEGIN:VEVENT', `UID:${e.uid}`, `DTSTAMP:${utc(now)}`];
  if (e.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${dateValue(e.allDay.date)}`, `DTEND;VALUE=DATE:${moment.utc(e.allDay.date).add(1, 'day').format('YYYYMMDD')}`);
  } else {
    lines.push(`DTSTART:${utc(e.start)}`);
    if (e.end) lines.push(`DTEND:${utc(e.end)}`);
  }
  lines.push(`SUMMARY:${escapeText(e.summary)}`);
  if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
  if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
  if (e.url) lines.push(`URL:${e.url}`);
  lines.push('END:VEVENT');
  return toText(lines);
}

export const ICS_FOOTER = 'END:VCALENDAR\r\n';

const toText = (lines: string[]) => lines.map(foldLine).join('\r\n') + '\r\n';

export function renderIcs(cal: IcsCalendar): string {
  return icsHeader(cal) + cal.events.map((e) => icsEvent(e, cal.now)).join('') + ICS_FOOTER;
}
