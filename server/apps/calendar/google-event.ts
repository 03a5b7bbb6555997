import moment from 'moment-timezone';
import { absoluteUrl } from '../../../shared/urls';
import { eventPath } from '../events/serialize';
import type { GoogleCalendarEvent } from './google-client';

// A saved event as a Google Calendar event: the next (or last) occurrence as its start, and
// the rest of the schedule as a recurrence: RRULE for day ranges and weekly schedules, RDATE
// for irregular dates. Times carry the city's zone, so Google keeps 7 pm at 7 pm across DST.

export interface CalendarSourceEvent {
  id: number;
  slug: string;
  title: string;
  description: string;
  venue_name: string;
  address: string;
  schedule_type: string;
  weekdays: number[] | null;
  occurrences: Array<{ local_date: string; starts_at: Date; ends_at: Date | null; all_day: boolean }>;
}

/** Google (and every calendar) wants the canonical IANA name; Canada/Eastern is an alias. */
export function ianaZone(tz: string): string {
  return tz === 'Canada/Eastern' ? 'America/Toronto' : tz;
}

/** Google's event ids are base32hex (a–v, 0–9): one id per member and event makes inserts idempotent. */
export function calendarEventId(memberId: number, eventId: number): string {
  return `guide${memberId}e${eventId}`;
}

const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const MAX_RDATES = 100;

export function toGoogleEvent(event: CalendarSourceEvent, opts: { memberId: number; siteUrl: string; siteName: string; timeZone: string; now: Date }): GoogleCalendarEvent {
  const zone = ianaZone(opts.timeZone);
  const all = event.occurrences;
  if (!all.length) throw new Error(`Event ${event.id} has no occurrences`);
  // From the next occurrence that has not ended; a past event keeps its last date.
  const nextIndex = all.findIndex((o) => (o.ends_at ?? o.starts_at) >= opts.now);
  const upcoming = nextIndex === -1 ? all.slice(-1) : all.slice(nextIndex);
  const first = upcoming[0];
  const last = upcoming[upcoming.length - 1];
  const url = absoluteUrl(opts.siteUrl, eventPath(event));
  const local = (d: Date) => moment(d).tz(zone);

  const start = first.all_day ? { date: first.local_date } : { dateTime: local(first.starts_at).format(), timeZone: zone };
  const end = first.all_day
    ? { date: moment.utc(first.local_date).add(1, 'day').format('YYYY-MM-DD') }
    : { dateTime: local(first.ends_at ?? moment(first.starts_at).add(2, 'hours').toDate()).format(), timeZone: zone };

  let recurrence: string[] | undefined;
  if (upcoming.length > 1) {
    const until = first.all_day ? last.local_date.replace(/-/g, '') : moment.utc(last.starts_at).format('YYYYMMDD[T]HHmmss[Z]');
    if (event.schedule_type === 'day_range') recurrence = [`RRULE:FREQ=DAILY;UNTIL=${until}`];
    else if (event.schedule_type === 'weekly' && event.weekdays?.length) recurrence = [`RRULE:FREQ=WEEKLY;BYDAY=${event.weekdays.map((d) => BYDAY[d]).join(',')};UNTIL=${until}`];
    else {
      const rest = upcoming.slice(1, MAX_RDATES + 1);
      recurrence = first.all_day
        ? [`RDATE;VALUE=DATE:${rest.map((o) => o.local_date.replace(/-/g, '')).join(',')}`]
        : [`RDATE;TZID=${zone}:${rest.map((o) => local(o.starts_at).format('YYYYMMDD[T]HHmmss')).join(',')}`];
    }
  }

  return {
    id: calendarEventId(opts.memberId, event.id),
    summary: event.title,
    description: [event.description.slice(0, 4000), url].filter(Boolean).join('\n\n'),
    location: [event.venue_name, event.address].filter(Boolean).join(', ') || undefined,
    start,
    end,
    ...(recurrence ? { recurrence } : {}),
    source: { title: opts.siteName, url },
  };
}
