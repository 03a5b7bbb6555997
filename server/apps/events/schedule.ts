import moment from 'moment-timezone';
import type { ScheduleType } from '../../../shared/constants';

// An event's schedule as entered (wall-clock dates and times in the city's time zone) and its
// expansion into occurrences: one per day the event happens. Each day is converted to UTC on
// its own, so a weekly 7 pm event stays at 7 pm local time across a DST change.

export interface IrregularDate {
  date: string; // YYYY-MM-DD
  start_time: string | null; // HH:mm or HH:mm:ss
  end_time: string | null;
}

export interface Schedule {
  schedule_type: ScheduleType;
  start_date: string;
  end_date?: string | null;
  start_time?: string | null;
  end_time?: string | null;
  all_day?: boolean;
  /** weekly: 0 Sunday … 6 Saturday */
  weekdays?: number[] | null;
  /** irregular: the dates, each with its own times */
  dates?: IrregularDate[];
}

export interface Occurrence {
  local_date: string;
  starts_at: Date;
  ends_at: Date | null;
  all_day: boolean;
}

/** The events row's schedule columns, as entered; occurrences are derived from them. */
export function scheduleColumns(schedule: Schedule) {
  return {
    schedule_type: schedule.schedule_type,
    start_date: schedule.start_date,
    end_date: schedule.end_date ?? null,
    start_time: schedule.start_time ?? null,
    end_time: schedule.end_time ?? null,
    all_day: Boolean(schedule.all_day),
    weekdays: schedule.weekdays ?? null,
  };
}

/** No schedule expands to more than this many days (about 2 years of daily dates). */
export const MAX_OCCURRENCES = 750;

const DATE = 'YYYY-MM-DD';

function normaliseTime(time: string | null | undefined): string | null {
  if (!time) return null;
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  if (!m) throw new Error(`Invalid time "${time}"`);
  return `${m[1].padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}`;
}

function occurrenceOn(date: string, startTime: string | null, endTime: string | null, allDay: boolean, tz: string): Occurrence {
  if (allDay || !startTime) {
    const start = moment.tz(date, DATE, true, tz).startOf('day');
    return { local_date: date, starts_at: start.toDate(), ends_at: start.clone().add(1, 'day').toDate(), all_day: true };
  }
  const start = moment.tz(`${date} ${startTime}`, `${DATE} HH:mm:ss`, true, tz);
  let ends: Date | null = null;
  if (endTime) {
    let end = moment.tz(`${date} ${endTime}`, `${DATE} HH:mm:ss`, true, tz);
    // An end at or before the start means the event runs past midnight.
    if (!end.isAfter(start)) end = end.add(1, 'day');
    ends = end.toDate();
  }
  return { local_date: date, starts_at: start.toDate(), ends_at: ends, all_day: false };
}

function eachDay(from: string, to: string, visit: (date: string, weekday: number) => void): void {
  const day = moment.utc(from, DATE, true);
  const last = moment.utc(to, DATE, true);
  if (!day.isValid() || !last.isValid()) throw new Error(`Invalid date range ${from} – ${to}`);
  let n = 0;
  while (!day.isAfter(last)) {
    if (++n > MAX_OCCURRENCES * 7) break;
    visit(day.format(DATE), day.day());
    day.add(1, 'day');
  }
}

export function expandOccurrences(schedule: Schedule, timeZone: string): Occurrence[] {
  const allDay = Boolean(schedule.all_day);
  const startTime = normaliseTime(schedule.start_time);
  const endTime = normaliseTime(schedule.end_time);
  const out: Occurrence[] = [];
  switch (schedule.schedule_type) {
    case 'single_day':
      out.push(occurrenceOn(schedule.start_date, startTime, endTime, allDay, timeZone));
      break;
    case 'day_range':
      eachDay(schedule.start_date, schedule.end_date ?? schedule.start_date, (date) => {
        out.push(occurrenceOn(date, startTime, endTime, allDay, timeZone));
      });
      break;
    case 'weekly': {
      const weekdays = new Set(schedule.weekdays ?? []);
      eachDay(schedule.start_date, schedule.end_date ?? schedule.start_date, (date, weekday) => {
        if (weekdays.has(weekday)) out.push(occurrenceOn(date, startTime, endTime, allDay, timeZone));
      });
      break;
    }
    case 'irregular':
      for (const d of schedule.dates ?? []) {
        out.push(occurrenceOn(d.date, normaliseTime(d.start_time), normaliseTime(d.end_time), allDay, timeZone));
      }
      break;
  }
  out.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
  // Two rows at the same start would be the same occurrence.
  const unique = out.filter((o, i) => i === 0 || o.starts_at.getTime() !== out[i - 1].starts_at.getTime());
  return unique.slice(0, MAX_OCCURRENCES);
}
