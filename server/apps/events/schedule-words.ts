import moment from 'moment-timezone';
import { WEEKDAYS } from '../../../shared/constants';
import type { Schedule } from './schedule';

// An event's schedule as a reader says it, in the city's time zone:
//   'Saturday, December 5, 7 pm – 9 pm'
//   'Every Tuesday and Thursday, 7 pm – 9 pm, until December 18'
//   'Daily, 10 am – 5 pm, from June 1 until June 30'
//   'December 5, 12 and 19, 8 pm'
// Years are printed only when they differ from the current one, as people write dates.

export interface ScheduleWordsOptions {
  timeZone: string;
  now: Date;
  /** irregular schedules: the days it happens (YYYY-MM-DD), with their own times when known */
  dates?: Array<{ date: string; start_time?: string | null; end_time?: string | null }>;
}

const DATE = 'YYYY-MM-DD';
/** More dates than this in an irregular schedule read as a range instead of a list. */
const MAX_LISTED_DATES = 4;

/** '7 pm', '7:30 pm', 'noon', 'midnight'. */
export function timeWords(time: string | null | undefined): string {
  if (!time) return '';
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!m) return '';
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min === 0 && h === 12) return 'noon';
  if (min === 0 && (h === 0 || h === 24)) return 'midnight';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${min ? `:${m[2]}` : ''} ${h < 12 || h === 24 ? 'am' : 'pm'}`;
}

/** '7 pm – 9 pm', '7 pm', or 'all day'. */
export function timeRangeWords(start: string | null | undefined, end: string | null | undefined, allDay = false): string {
  if (allDay || !start) return 'all day';
  const s = timeWords(start);
  const e = timeWords(end);
  return e && e !== s ? `${s} – ${e}` : s;
}

/** 'and'-joined list: 'A', 'A and B', 'A, B and C'. */
export function listWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function day(date: string): moment.Moment {
  return moment.utc(date, DATE, true);
}

function dateWords(date: string, currentYear: number, withWeekday = false): string {
  const d = day(date);
  const base = d.format(withWeekday ? 'dddd, MMMM D' : 'MMMM D');
  return d.year() === currentYear ? base : `${base}, ${d.year()}`;
}

/** 'Every Tuesday and Thursday', 'Every weekday', 'Every day'. */
export function weekdaysWords(weekdays: number[]): string {
  const set = [...new Set(weekdays)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  if (set.length === 7) return 'Every day';
  if (set.join() === '1,2,3,4,5') return 'Every weekday';
  if (set.join() === '0,6') return 'Every weekend';
  // Weeks start on Monday when read aloud: 'Friday, Saturday and Sunday', not 'Sunday, Friday...'.
  const mondayFirst = [...set.filter((d) => d !== 0), ...set.filter((d) => d === 0)];
  return `Every ${listWords(mondayFirst.map((d) => WEEKDAYS[d]))}`;
}

/** ', from June 1 until June 30', or ', until June 30' once it has started. */
function spanWords(start: string, end: string | null | undefined, today: string, currentYear: number): string {
  const parts: string[] = [];
  if (start > today) parts.push(`from ${dateWords(start, currentYear)}`);
  if (end) parts.push(`until ${dateWords(end, currentYear)}`);
  return parts.length ? `, ${parts.join(' ')}` : '';
}

export function scheduleWords(schedule: Schedule, opts: ScheduleWordsOptions): string {
  const local = moment.tz(opts.now, opts.timeZone);
  const today = local.format(DATE);
  const year = local.year();
  const times = timeRangeWords(schedule.start_time, schedule.end_time, Boolean(schedule.all_day));

  switch (schedule.schedule_type) {
    case 'single_day':
      return `${dateWords(schedule.start_date, year, true)}, ${times}`;

    case 'day_range': {
      const end = schedule.end_date ?? schedule.start_date;
      if (end === schedule.start_date) return `${dateWords(schedule.start_date, year, true)}, ${times}`;
      return `Daily, ${times}${spanWords(schedule.start_date, end, today, year)}`;
    }

    case 'weekly':
      return `${weekdaysWords(schedule.weekdays ?? [])}, ${times}${spanWords(schedule.start_date, schedule.end_date, today, year)}`;

    case 'irregular': {
      const dates = [...(opts.dates ?? schedule.dates?.map((d) => ({ ...d })) ?? [])].sort((a, b) => a.date.localeCompare(b.date));
      const upcoming = dates.filter((d) => d.date >= today);
      const shown = upcoming.length ? upcoming : dates;
      if (!shown.length) return dateWords(schedule.start_date, year, true);
      const sameTimes = shown.every((d) => d.start_time === shown[0].start_time && d.end_time === shown[0].end_time);
      const timePart = sameTimes ? `, ${timeRangeWords(shown[0].start_time, shown[0].end_time, Boolean(schedule.all_day))}` : '';
      if (shown.length === 1) return `${dateWords(shown[0].date, year, true)}${timePart}`;
      if (shown.length > MAX_LISTED_DATES) {
        return `Various dates${timePart}, ${dateWords(shown[0].date, year)} to ${dateWords(shown[shown.length - 1].date, year)}`;
      }
      return `${monthGroupedDates(shown.map((d) => d.date), year)}${timePart}`;
    }
  }
}

/** 'December 5, 12 and 19' or 'November 28 and December 5': the month named once per run. */
function monthGroupedDates(dates: string[], currentYear: number): string {
  const groups: string[][] = [];
  let key = '';
  for (const d of dates) {
    const k = day(d).format('YYYY-MM');
    if (k !== key) groups.push([]);
    key = k;
    groups[groups.length - 1].push(d);
  }
  const words = groups.map((g) => {
    const first = day(g[0]);
    const days = g.map((d) => String(day(d).date()));
    const yearPart = first.year() === currentYear ? '' : `, ${first.year()}`;
    return `${first.format('MMMM')} ${listWords(days)}${yearPart}`;
  });
  return listWords(words);
}
