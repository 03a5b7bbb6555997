import crypto from 'node:crypto';
import ICAL from 'ical.js';
import moment from 'moment-timezone';
import { MAX_OCCURRENCES, type IrregularDate, type Schedule } from '../events/schedule';
import { MAX_IRREGULAR_ROWS } from '../event-submissions/form';

// An iCalendar feed read into the event form's terms (spec 1, add-event): each VEVENT (with its
// modified instances) becomes a schedule of one of the form's four types, in the city's time
// zone. ical.js parses and expands the recurrence (RRULE, RDATE, EXDATE, RECURRENCE-ID); this
// module only decides which schedule type says the same thing:
// - one date: single_day; several whole days in a row: day_range;
// - RRULE weekly (its weekdays, UNTIL or COUNT): weekly; daily: day_range;
// - RDATE, EXDATE or moved instances, or times that differ between dates: irregular dates;
// - anything else (monthly, yearly, every other week, more dates than the form holds) is
//   flagged for staff with the first date filled in, never guessed.

export interface FeedEvent {
  uid: string;
  sequence: number;
  lastModified: string | null;
  cancelled: boolean;
  title: string;
  description: string;
  venueName: string;
  address: string;
  website: string;
  schedule: Schedule;
  /** What staff must check before approving (the form could not say it all). */
  flags: string[];
}

export interface ParsedFeed {
  events: FeedEvent[];
  /** VEVENTs in the feed (modified instances included), before the per-feed limit. */
  veventCount: number;
}

export class FeedParseError extends Error {}

/** A recurrence with no end is imported for this long from its start (and flagged). */
const OPEN_ENDED_DAYS = 365;

const DATE = 'YYYY-MM-DD';
const TIME = 'HH:mm:ss';

interface Occ {
  start: moment.Moment;
  end: moment.Moment;
}

/** An ical.js time in the city's zone: UTC, a named zone, the feed's VTIMEZONE, or floating (the city's). */
function cityTime(t: ICAL.Time, tz: string, tzidOf: string | null = null): moment.Moment {
  const wall = { year: t.year, month: t.month - 1, date: t.day, hour: t.isDate ? 0 : t.hour, minute: t.isDate ? 0 : t.minute, second: t.isDate ? 0 : t.second };
  if (t.isDate) return moment.tz(wall, tz);
  if (t.zone === ICAL.Timezone.utcTimezone) return moment.utc(wall).tz(tz);
  // ical.js keeps a TZID it has no VTIMEZONE for as `timezone` (untyped), the time floating,
  // and loses it on the copies it makes when expanding: the caller passes the property's TZID.
  const tzid = tzidOf ?? (t as unknown as { timezone?: string }).timezone ?? (t.zone && t.zone !== ICAL.Timezone.localTimezone ? t.zone.tzid : undefined);
  if (tzid && moment.tz.zone(tzid)) return moment.tz(wall, tzid).tz(tz);
  if (tzid && /^(utc|gmt|z)$/i.test(tzid)) return moment.utc(wall).tz(tz);
  // A zone only the feed's VTIMEZONE defines (a Windows name, say): ical.js converts with it.
  if (t.zone && t.zone !== ICAL.Timezone.localTimezone && t.zone.tzid !== 'floating') return moment.unix(t.toUnixTime()).tz(tz);
  return moment.tz(wall, tz);
}

const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.trim().slice(0, max) : '');

function recurrenceShape(rule: ICAL.Recur | null): { kind: 'none' | 'weekly' | 'daily' | 'other'; why?: string; openEnded: boolean } {
  if (!rule) return { kind: 'none', openEnded: false };
  const openEnded = !rule.count && !rule.until;
  const parts = rule.parts as Record<string, unknown[]>;
  const others = Object.keys(parts).filter((k) => k !== 'BYDAY' && k !== 'WKST');
  const byDay = (parts.BYDAY ?? []) as string[];
  if ((rule.interval ?? 1) !== 1) return { kind: 'other', why: `repeats every ${rule.interval} ${String(rule.freq).toLowerCase().replace(/ly$/, '').replace(/^dai$/, 'day')}s`, openEnded };
  if (rule.freq === 'WEEKLY' && !others.length && byDay.every((d) => /^(MO|TU|WE|TH|FR|SA|SU)$/.test(d))) return { kind: 'weekly', openEnded };
  if (rule.freq === 'DAILY' && !others.length && !byDay.length) return { kind: 'daily', openEnded };
  return { kind: 'other', why: `repeats ${String(rule.freq).toLowerCase()} (RRULE ${rule.toString()})`, openEnded };
}

/** The TZID of an event's start (its end is computed in the same zone). */
function tzidOf(vevent: ICAL.Component): string | null {
  const tzid = vevent.getFirstProperty('dtstart')?.getParameter('tzid');
  return typeof tzid === 'string' && tzid ? tzid : null;
}

/** The dates of a master event and its modified instances, in the city's zone (at most `max`). */
function occurrences(event: ICAL.Event, tz: string, horizon: ICAL.Time | null, max: number): Occ[] {
  const out: Occ[] = [];
  const vevent = event.component;
  if (!vevent.hasProperty('rrule') && vevent.hasProperty('rdate')) {
    // RFC 5545: DTSTART is the first date; ical.js's expansion of RDATE alone leaves it out.
    const excluded = vevent.getAllProperties('exdate').flatMap((p) => p.getValues() as ICAL.Time[]).some((x) => x.compare(event.startDate) === 0);
    const tzid = tzidOf(vevent);
    if (!excluded) out.push({ start: cityTime(event.startDate, tz, tzid), end: cityTime(event.endDate, tz, tzid) });
  }
  const iterator = event.iterator();
  for (let next = iterator.next(); next && out.length < max; next = iterator.next()) {
    if (horizon && next.compare(horizon) > 0) break;
    const details = event.getOccurrenceDetails(next);
    // A modified instance marked cancelled is a date taken out, as an EXDATE is.
    if (String(details.item.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') continue;
    const tzid = tzidOf(details.item.component);
    if (out.length && out[0].start.isSame(cityTime(details.startDate, tz, tzid))) continue;
    out.push({ start: cityTime(details.startDate, tz, tzid), end: cityTime(details.endDate, tz, tzid) });
  }
  return out;
}

function irregular(occs: Occ[], allDay: boolean): Schedule {
  const dates: IrregularDate[] = occs.map((o) => ({
    date: o.start.format(DATE),
    start_time: allDay ? null : o.start.format(TIME),
    end_time: allDay ? null : o.end.format(TIME),
  }));
  return { schedule_type: 'irregular', start_date: dates[0].date, end_date: dates[dates.length - 1].date, all_day: allDay, dates };
}

/** The form's schedule for an event's dates, and what staff are told it could not say. */
export function scheduleOf(event: ICAL.Event, tz: string): { schedule: Schedule; flags: string[] } {
  const flags: string[] = [];
  const allDay = event.startDate.isDate;
  const rule = event.component.getFirstPropertyValue('rrule') as ICAL.Recur | null;
  const shape = recurrenceShape(rule);
  const first = cityTime(event.startDate, tz, tzidOf(event.component));
  // Only a rule with no end needs a horizon; UNTIL or COUNT end it themselves.
  const horizon = shape.openEnded ? ICAL.Time.fromJSDate(first.clone().add(OPEN_ENDED_DAYS, 'days').toDate(), true) : null;
  const occs = occurrences(event, tz, horizon, MAX_OCCURRENCES);
  const firstEnd = cityTime(event.endDate, tz, tzidOf(event.component));
  const times = (o: Occ) => ({ start_time: allDay ? null : o.start.format(TIME), end_time: allDay ? null : o.end.format(TIME) });
  const single = (o: Occ): Schedule => ({ schedule_type: 'single_day', start_date: o.start.format(DATE), all_day: allDay, ...times(o) });

  if (!occs.length) return { schedule: single({ start: first, end: firstEnd }), flags: ['Every date of this event was taken out (EXDATE or cancelled instances).'] };
  if (shape.kind === 'other') {
    flags.push(`The feed says this event ${shape.why}; the form cannot express that, so only its first date is filled in. Set the dates before approving.`);
    return { schedule: single(occs[0]), flags };
  }
  if (shape.openEnded) flags.push(`The feed repeats this event with no end; its dates run ${OPEN_ENDED_DAYS} days from the first. Set an end date before approving.`);
  const dates = occs;
  const sameTimes = dates.every((o) => o.start.format(TIME) === dates[0].start.format(TIME) && o.end.format(TIME) === dates[0].end.format(TIME));
  const exceptions = event.component.hasProperty('rdate') || event.component.hasProperty('exdate') || Object.keys(event.exceptions).length > 0;

  if (shape.kind === 'none' && dates.length === 1) {
    const o = dates[0];
    // All-day DTEND is exclusive; a timed event ending before the next day's start is one date.
    const lastDay = allDay ? o.end.clone().subtract(1, 'day') : o.end.diff(o.start, 'hours', true) < 24 ? o.start : o.end;
    if (lastDay.format(DATE) > o.start.format(DATE)) {
      return { schedule: { schedule_type: 'day_range', start_date: o.start.format(DATE), end_date: lastDay.format(DATE), all_day: allDay, ...times(o) }, flags };
    }
    return { schedule: single(o), flags };
  }
  const lasting = dates.some((o) => o.end.diff(o.start, 'hours', true) > 24);
  if (lasting) flags.push('Each date of this event lasts more than a day; the form keeps one start and end time per date.');
  if (!exceptions && sameTimes && shape.kind === 'weekly') {
    const weekdays = [...new Set(dates.map((o) => o.start.day()))].sort((a, b) => a - b);
    return { schedule: { schedule_type: 'weekly', start_date: dates[0].start.format(DATE), end_date: dates[dates.length - 1].start.format(DATE), weekdays, all_day: allDay, ...times(dates[0]) }, flags };
  }
  if (!exceptions && sameTimes && shape.kind === 'daily') {
    return { schedule: { schedule_type: 'day_range', start_date: dates[0].start.format(DATE), end_date: dates[dates.length - 1].start.format(DATE), all_day: allDay, ...times(dates[0]) }, flags };
  }
  if (dates.length === 1) return { schedule: single(dates[0]), flags };
  if (dates.length > MAX_IRREGULAR_ROWS) {
    flags.push(`The feed gives ${dates.length >= MAX_OCCURRENCES ? 'at least ' : ''}${dates.length} dates, more than the form holds (${MAX_IRREGULAR_ROWS}); only the first ${MAX_IRREGULAR_ROWS} are filled in.`);
  }
  return { schedule: irregular(dates.slice(0, MAX_IRREGULAR_ROWS), allDay), flags };
}

/** LOCATION split as the form has it: the venue (before the first comma) and the address (after it). */
function place(location: string): { venueName: string; address: string } {
  const comma = location.indexOf(',');
  if (comma <= 0) return { venueName: location.slice(0, 255), address: location.slice(0, 255) };
  return { venueName: location.slice(0, comma).trim().slice(0, 255), address: location.slice(comma + 1).trim().slice(0, 255) };
}

function website(v: unknown): string {
  const s = text(v, 500);
  return /^https?:\/\/\S+$/i.test(s) ? s : '';
}

/**
 * Reads a feed. Throws FeedParseError when it is not iCalendar at all; events it cannot place
 * (no UID, no start) are skipped. `maxEvents` bounds the VEVENTs read.
 */
export function parseFeed(body: string, tz: string, maxEvents: number): ParsedFeed {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(body) as unknown[]);
  } catch (err) {
    throw new FeedParseError(`The feed is not valid iCalendar (${err instanceof Error ? err.message.slice(0, 120) : 'unreadable'}).`);
  }
  if (root.name !== 'vcalendar') throw new FeedParseError('The feed is not valid iCalendar (no VCALENDAR).');
  const vevents = root.getAllSubcomponents('vevent');
  if (vevents.length > maxEvents) return { events: [], veventCount: vevents.length };

  const masters = new Map<string, ICAL.Component>();
  const exceptions = new Map<string, ICAL.Component[]>();
  for (const v of vevents) {
    const uid = text(v.getFirstPropertyValue('uid'), 1000);
    if (!uid || !v.hasProperty('dtstart')) continue;
    if (v.hasProperty('recurrence-id')) exceptions.set(uid, [...(exceptions.get(uid) ?? []), v]);
    else if (!masters.has(uid)) masters.set(uid, v);
  }
  const events: FeedEvent[] = [];
  for (const [uid, component] of masters) {
    const event = new ICAL.Event(component, { strictExceptions: false });
    for (const ex of exceptions.get(uid) ?? []) event.relateException(ex);
    const { schedule, flags } = scheduleOf(event, tz);
    const title = text(component.getFirstPropertyValue('summary'), 255);
    if (!title) flags.push('The feed gives this event no title (SUMMARY).');
    const lastModified = component.getFirstPropertyValue('last-modified') as ICAL.Time | null;
    events.push({
      uid,
      sequence: Number(component.getFirstPropertyValue('sequence') ?? 0) || 0,
      lastModified: lastModified ? lastModified.toString() : null,
      cancelled: String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED',
      title: title || '(untitled)',
      description: text(component.getFirstPropertyValue('description'), 20_000),
      ...place(text(component.getFirstPropertyValue('location'), 1000)),
      website: website(component.getFirstPropertyValue('url')),
      schedule,
      flags,
    });
  }
  return { events, veventCount: vevents.length };
}

/** What an event says, for telling a new version from the one already imported. */
export function fingerprint(e: FeedEvent): string {
  const { title, description, venueName, address, website: site, schedule } = e;
  return crypto.createHash('sha256').update(JSON.stringify({ title, description, venueName, address, site, schedule })).digest('hex');
}
