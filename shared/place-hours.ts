import moment from 'moment-timezone';
import { z } from 'zod';
import { ontarioPublicHoliday } from './ontario-holidays';

// A place's opening hours (issue 39; docs/places-desk.md), for the server and the islands alike:
// the stored shape and its schema, reading the older one-range-a-day shape, the open state
// ("Open now · Closes at 10 pm") in the city's wall-clock time, the weekly table, and the
// minute-of-week ranges the hub's Open now filter tests in SQL.

export const PLACE_TIME_ZONE = 'Canada/Eastern';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/** 'HH:MM' wall-clock times; a range whose `closes` is not after `opens` ends the next day (18:00–02:00). */
export interface HoursRange {
  opens: string;
  closes: string;
}

/** On an Ontario public holiday: the usual hours, closed, or the place's holiday ranges. */
export const HOLIDAY_POLICIES = ['usual', 'closed', 'hours'] as const;
export type HolidayPolicy = (typeof HOLIDAY_POLICIES)[number];

export interface PlaceHours {
  /** A weekday that is absent or empty is closed all day (past-midnight spill from the day before aside). */
  weekly: Partial<Record<Weekday, HoursRange[]>>;
  holidays: HolidayPolicy;
  /** With `holidays: 'hours'`. */
  holidayRanges?: HoursRange[];
  /** A temporary closure, both dates inclusive ('YYYY-MM-DD'); no `until` is until further notice. */
  closure?: { from: string; until: string | null; note?: string } | null;
}

export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
/** At most this many ranges a day: enough for split shifts and brunch, not a timetable. */
export const MAX_RANGES_A_DAY = 4;

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const CLOSE_TIME = /^(([01]?\d|2[0-3]):([0-5]\d)|24:00)$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function minutes(t: string): number {
  const [h, m] = t.split(':').map(Number);
  return h * 60 + m;
}

/** [opens, closes) in minutes from the day's midnight; closes is past 1440 for ranges past midnight. */
export function rangeMinutes(r: HoursRange): [number, number] {
  const o = minutes(r.opens);
  let c = minutes(r.closes);
  if (c <= o) c += MINUTES_PER_DAY;
  return [o, c];
}

const rangeSchema = z
  .object({
    opens: z.string().regex(TIME, 'Enter a time as HH:MM, from 00:00 to 23:59.'),
    closes: z.string().regex(CLOSE_TIME, 'Enter a time as HH:MM, from 00:00 to 24:00.'),
  })
  .refine((r) => r.opens !== r.closes, { message: 'A range must not open and close at the same time (use 00:00–24:00 for all day).', path: ['closes'] });

const dayRanges = z
  .array(rangeSchema)
  .max(MAX_RANGES_A_DAY, `At most ${MAX_RANGES_A_DAY} ranges a day.`)
  .refine((list) => !overlaps(list), 'Ranges of one day must not overlap.');

function overlaps(list: HoursRange[]): boolean {
  const spans = list.map(rangeMinutes).sort((a, b) => a[0] - b[0]);
  return spans.some((s, i) => i > 0 && s[0] < spans[i - 1][1]);
}

const date = z.string().regex(DATE, 'Enter a date as YYYY-MM-DD.');

/** What a writer (the staff desk, the seed) must send; the API's 400 names the failing path. */
export const placeHoursSchema = z
  .object({
    weekly: z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, dayRanges.optional()])) as Record<Weekday, z.ZodOptional<typeof dayRanges>>).strict(),
    holidays: z.enum(HOLIDAY_POLICIES, { message: `Select a valid choice: ${HOLIDAY_POLICIES.join(', ')}.` }),
    holidayRanges: dayRanges.optional(),
    closure: z
      .object({ from: date, until: date.nullable(), note: z.string().trim().max(200).optional() })
      .refine((c) => c.until === null || c.until >= c.from, { message: 'The closure must end on or after its first day.', path: ['until'] })
      .nullable()
      .optional(),
  })
  .refine((h) => h.holidays !== 'hours' || (h.holidayRanges?.length ?? 0) > 0, { message: 'Give the holiday hours, or choose usual or closed.', path: ['holidayRanges'] });

/**
 * The stored `listings.hours` as PlaceHours, or null when unknown. Reads the new shape and the
 * first one ({"mon": "9:00-17:00", …}: one range a day, days absent when closed, holidays not said,
 * read as usual hours). Anything unreadable is unknown rather than a wrong "open".
 */
export function readPlaceHours(raw: unknown): PlaceHours | null {
  if (raw === null || raw === undefined) return null;
  const value = typeof raw === 'string' ? safeJson(raw) : raw;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  if ('weekly' in value) {
    const parsed = placeHoursSchema.safeParse(value);
    return parsed.success ? (parsed.data as PlaceHours) : null;
  }
  const weekly: PlaceHours['weekly'] = {};
  for (const [day, span] of Object.entries(value as Record<string, unknown>)) {
    if (!(WEEKDAYS as readonly string[]).includes(day) || typeof span !== 'string') return null;
    const m = /^\s*(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$/.exec(span);
    if (!m) return null;
    weekly[day as Weekday] = [{ opens: pad(m[1]), closes: pad(m[2]) }];
  }
  const parsed = placeHoursSchema.safeParse({ weekly, holidays: 'usual' });
  return parsed.success && Object.keys(weekly).length ? (parsed.data as PlaceHours) : null;
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

const pad = (t: string) => (t.length === 4 ? `0${t}` : t);

export interface OpenState {
  state: 'open' | 'closed' | 'unknown';
  /** What the page shows: "Open now · Closes at 10 pm", "Closed · Opens Tue 11 am", "Hours not known". */
  line: string;
  /** When the state next changes (ISO), if within the week looked at. */
  changesAt: string | null;
  /** Why it is closed when that is not the weekly hours. */
  reason?: 'closure' | 'holiday';
}

interface Interval {
  start: moment.Moment;
  end: moment.Moment;
}

function inClosure(h: PlaceHours, day: string): boolean {
  const c = h.closure;
  return !!c && c.from <= day && (c.until === null || day <= c.until);
}

/** The ranges a place keeps on one calendar day, holidays and closure applied. */
export function rangesOn(h: PlaceHours, day: string): HoursRange[] {
  if (inClosure(h, day)) return [];
  if (h.holidays !== 'usual' && ontarioPublicHoliday(day)) return h.holidays === 'closed' ? [] : (h.holidayRanges ?? []);
  const weekday = WEEKDAYS[(moment.utc(day).isoWeekday() + 6) % 7];
  return h.weekly[weekday] ?? [];
}

/** Intervals from the day before `from` to `days` days after it, merged where they touch. */
function intervals(h: PlaceHours, from: moment.Moment, days: number, zone: string): Interval[] {
  const list: Interval[] = [];
  for (let i = -1; i <= days; i++) {
    const day = from.clone().add(i, 'days').format('YYYY-MM-DD');
    for (const r of rangesOn(h, day)) {
      const [, c] = rangeMinutes(r);
      // Wall-clock times made instants by the zone: a DST change inside a range lengthens or
      // shortens it, as the clock on the place's door does.
      // (Array arguments: parsing strings with a format costs ten times as much.)
      const [y, mo, d] = day.split('-').map(Number);
      const o = minutes(r.opens);
      const start = moment.tz([y, mo - 1, d, Math.floor(o / 60), o % 60], zone);
      const next = new Date(Date.UTC(y, mo - 1, d + Math.floor(c / MINUTES_PER_DAY))); // month ends roll over
      const end = moment.tz([next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate(), Math.floor((c % MINUTES_PER_DAY) / 60), c % 60], zone);
      if (end.isAfter(start)) list.push({ start, end });
    }
  }
  list.sort((a, b) => a.start.valueOf() - b.start.valueOf());
  const merged: Interval[] = [];
  for (const iv of list) {
    const last = merged[merged.length - 1];
    if (last && iv.start.valueOf() <= last.end.valueOf()) {
      if (iv.end.isAfter(last.end)) last.end = iv.end;
    } else merged.push({ ...iv });
  }
  return merged;
}

/** '10 pm', '11:30 am', '12 pm'. */
export function clockWords(t: moment.Moment | string): string {
  const [h, m] = typeof t === 'string' ? t.split(':').map(Number) : [t.hours(), t.minutes()];
  const hh = h % 24;
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${h12}${m ? `:${String(m).padStart(2, '0')}` : ''} ${hh < 12 ? 'am' : 'pm'}`;
}

/** 'Dec 4' ('Fri, Dec 4' with the weekday), with the year when it is not `today`'s year. */
export function dateWords(date: string, today: string, weekday = false): string {
  const d = moment.utc(date);
  return d.format(`${weekday ? 'ddd, ' : ''}MMM D${date.slice(0, 4) === today.slice(0, 4) ? '' : ', YYYY'}`);
}

/** Days looked ahead for the next opening: a week and a day covers any weekly schedule. */
const HORIZON_DAYS = 8;

/**
 * How many seconds from `now` an open state's line stays true: until the state changes, or the
 * next midnight, when "Opens Tue 11 am" may become "Opens at 11 am" (null: the line names no
 * time, as for unknown hours or a place open around the clock, so only midnight bounds it).
 */
export function secondsStateHolds(state: Pick<OpenState, 'changesAt'>, now: Date, zone: string = PLACE_TIME_ZONE): number {
  const midnight = moment.tz(now, zone).add(1, 'day').startOf('day').valueOf();
  const until = state.changesAt ? Math.min(Date.parse(state.changesAt), midnight) : midnight;
  return Math.max(0, Math.floor((until - now.getTime()) / 1000));
}

/**
 * Open, closed or unknown at `now`, and when that changes, in the place's wall-clock time.
 * Unknown hours are neither open nor closed.
 */
export function openState(hours: PlaceHours | null, now: Date, zone: string = PLACE_TIME_ZONE): OpenState {
  if (!hours) return { state: 'unknown', line: 'Hours not known', changesAt: null };
  const local = moment.tz(now, zone);
  const today = local.format('YYYY-MM-DD');
  const t = local.valueOf();
  const list = intervals(hours, local.clone().startOf('day'), HORIZON_DAYS, zone);
  const current = list.find((iv) => iv.start.valueOf() <= t && t < iv.end.valueOf());
  if (current) {
    const end = current.end.clone().tz(zone);
    if (end.diff(local, 'days', true) >= 7) return { state: 'open', line: 'Open now · Open 24 hours', changesAt: null };
    // "Closes at 2 am" for tonight's late close; a later day is named.
    const sameNight = end.format('YYYY-MM-DD') === today || (end.diff(local, 'hours', true) < 12 && end.hours() < 12);
    return { state: 'open', line: `Open now · Closes ${sameNight ? 'at ' : `${end.format('ddd')} `}${clockWords(end)}`, changesAt: end.toISOString() };
  }
  const next = list.find((iv) => iv.start.valueOf() > t);
  if (inClosure(hours, today)) {
    const until = hours.closure!.until;
    const back = until ? moment.utc(until).add(1, 'day').format('YYYY-MM-DD') : null;
    return {
      state: 'closed',
      line: back ? `Temporarily closed · Reopens ${dateWords(back, today, true)}` : 'Temporarily closed',
      changesAt: next ? next.start.toISOString() : null,
      reason: 'closure',
    };
  }
  const holiday = hours.holidays === 'closed' ? ontarioPublicHoliday(today) : null;
  const prefix = holiday ? `Closed for ${holiday.name}` : 'Closed';
  if (!next) return { state: 'closed', line: prefix, changesAt: null, ...(holiday ? { reason: 'holiday' as const } : {}) };
  const start = next.start.clone().tz(zone);
  const when = start.format('YYYY-MM-DD') === today ? `at ${clockWords(start)}` : `${start.diff(local.clone().startOf('day'), 'days') >= 7 ? start.format('ddd, MMM D') : start.format('ddd')} ${clockWords(start)}`;
  return { state: 'closed', line: `${prefix} · Opens ${when}`, changesAt: start.toISOString(), ...(holiday ? { reason: 'holiday' as const } : {}) };
}

/** The weekly table: Monday first, several ranges a day ("11 am – 3 pm, 5 pm – 2 am"), closed days said. */
export function weeklyRows(hours: PlaceHours | null): Array<{ day: string; hours: string }> | null {
  if (!hours) return null;
  return WEEKDAYS.map((d) => ({ day: WEEKDAY_NAMES[d], hours: rangesWords(hours.weekly[d]) }));
}

export function rangesWords(ranges: HoursRange[] | undefined): string {
  if (!ranges?.length) return 'Closed';
  return ranges.map((r) => (r.opens === '00:00' && r.closes === '24:00' ? 'Open 24 hours' : `${clockWords(r.opens)} – ${clockWords(r.closes)}`)).join(', ');
}

/** What the page says under the table about holidays. */
export function holidayWords(hours: PlaceHours): string {
  if (hours.holidays === 'closed') return 'Closed on Ontario public holidays.';
  if (hours.holidays === 'hours') return `Ontario public holidays: ${rangesWords(hours.holidayRanges)}.`;
  return 'Usual hours on public holidays.';
}

// ## The Open now filter in SQL
// Three columns derived from the hours (hoursIndex), each tested with one containment, so the
// filter reads no JSON (reading the closure from the JSON tripled the count's cost on 20,000 places):
// - hours_week (int4multirange): minutes of the week from Monday 00:00; each day's own part at
//   [0, 10080), the part past midnight at 10080 + the minute of the week it lands on (Sunday's
//   lands on Monday);
// - hours_holiday (int4multirange): null for usual hours on holidays, empty when closed, else the
//   holiday ranges as minutes of the day, own part [0, 1440), past midnight from 1440;
// - hours_closed (daterange): the temporary closure, both ends inclusive; null when none.

const SPILL = MINUTES_PER_WEEK;

function multirange(spans: Array<[number, number]>): string {
  return `{${spans.map(([a, b]) => `[${a},${b})`).join(',')}}`;
}

/** The derived columns to store beside `hours` (null when the hours are unknown). */
export interface HoursIndex {
  hours_week: string | null;
  hours_holiday: string | null;
  hours_closed: string | null;
}

export function hoursIndex(hours: PlaceHours | null): HoursIndex {
  if (!hours) return { hours_week: null, hours_holiday: null, hours_closed: null };
  const week: Array<[number, number]> = [];
  WEEKDAYS.forEach((d, i) => {
    for (const r of hours.weekly[d] ?? []) {
      const [o, c] = rangeMinutes(r);
      week.push([i * MINUTES_PER_DAY + o, i * MINUTES_PER_DAY + Math.min(c, MINUTES_PER_DAY)]);
      if (c > MINUTES_PER_DAY) {
        const landing = ((i + 1) % 7) * MINUTES_PER_DAY;
        week.push([SPILL + landing, SPILL + landing + c - MINUTES_PER_DAY]);
      }
    }
  });
  const holiday: Array<[number, number]> = [];
  for (const r of hours.holidays === 'hours' ? (hours.holidayRanges ?? []) : []) {
    const [o, c] = rangeMinutes(r);
    holiday.push([o, Math.min(c, MINUTES_PER_DAY)]);
    if (c > MINUTES_PER_DAY) holiday.push([MINUTES_PER_DAY, c]);
  }
  const c = hours.closure;
  return {
    hours_week: multirange(week),
    hours_holiday: hours.holidays === 'usual' ? null : multirange(holiday),
    hours_closed: c ? `[${c.from},${c.until ?? ''}]` : null,
  };
}

/** The stored row values of some hours: the JSON and its derived columns. */
export function hoursColumns(hours: PlaceHours | null): HoursIndex & { hours: string | null } {
  return { hours: hours ? JSON.stringify(hours) : null, ...hoursIndex(hours) };
}

/** What the SQL filter needs to know about `now`: the probes into the derived columns and the days. */
export interface OpenNowProbe {
  /** Minute of the week, Monday 00:00 = 0, wall clock. */
  weekMinute: number;
  dayMinute: number;
  today: string;
  yesterday: string;
  todayIsHoliday: boolean;
  yesterdayWasHoliday: boolean;
}

export function openNowProbe(now: Date, zone: string = PLACE_TIME_ZONE): OpenNowProbe {
  const local = moment.tz(now, zone);
  const dayMinute = local.hours() * 60 + local.minutes();
  const today = local.format('YYYY-MM-DD');
  const yesterday = moment.utc(today).subtract(1, 'day').format('YYYY-MM-DD');
  return {
    weekMinute: (local.isoWeekday() - 1) * MINUTES_PER_DAY + dayMinute,
    dayMinute,
    today,
    yesterday,
    todayIsHoliday: !!ontarioPublicHoliday(today),
    yesterdayWasHoliday: !!ontarioPublicHoliday(yesterday),
  };
}
