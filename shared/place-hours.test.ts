import moment from 'moment-timezone';
import { easterSunday, ontarioHolidays, ontarioPublicHoliday } from './ontario-holidays';
import { hoursIndex, MINUTES_PER_DAY, MINUTES_PER_WEEK, openNowProbe, openState, placeHoursSchema, readPlaceHours, weeklyRows, type PlaceHours } from './place-hours';

const ZONE = 'Canada/Eastern';
/** An instant from a Toronto wall-clock time. */
const at = (local: string) => moment.tz(local, 'YYYY-MM-DD HH:mm', ZONE).toDate();
const every = (opens: string, closes: string) => Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ opens, closes }]]));

const bar: PlaceHours = { weekly: { ...every('18:00', '02:00'), mon: [] }, holidays: 'usual' };
const bistro: PlaceHours = {
  weekly: Object.fromEntries(['tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '22:00' }]])),
  holidays: 'closed',
};

describe('openState', () => {
  test('unknown hours are neither open nor closed', () => {
    expect(openState(null, at('2026-11-29 12:00'))).toEqual({ state: 'unknown', line: 'Hours not known', changesAt: null });
  });

  test('several ranges a day: open in one, "opens at" between them', () => {
    expect(openState(bistro, at('2026-11-27 12:00')).line).toBe('Open now · Closes at 2:30 pm'); // a Friday
    expect(openState(bistro, at('2026-11-27 15:00'))).toMatchObject({ state: 'closed', line: 'Closed · Opens at 5 pm' });
    // Closed Mondays: Sunday night after closing, the next opening is Tuesday's.
    expect(openState(bistro, at('2026-11-29 22:30')).line).toBe('Closed · Opens Tue 11:30 am');
  });

  test('a range past midnight belongs to the day it opened', () => {
    expect(openState(bar, at('2026-11-27 23:00')).line).toBe('Open now · Closes at 2 am');
    // Saturday 1:30 am is Friday night's range.
    expect(openState(bar, at('2026-11-28 01:30'))).toMatchObject({ state: 'open', line: 'Open now · Closes at 2 am' });
    expect(openState(bar, at('2026-11-28 02:00'))).toMatchObject({ state: 'closed', line: 'Closed · Opens at 6 pm' });
    // Monday is closed but Sunday night's range still runs to 2 am Monday.
    expect(openState(bar, at('2026-11-30 01:00')).state).toBe('open');
    expect(openState(bar, at('2026-11-30 03:00')).line).toBe('Closed · Opens Tue 6 pm');
    // Across a month and a year end.
    expect(openState(bar, at('2026-12-31 23:00')).changesAt).toBe('2027-01-01T07:00:00.000Z');
  });

  test('spring forward: a night range across 2 am is an hour shorter and still closes at 4 am', () => {
    const late: PlaceHours = { weekly: { sat: [{ opens: '20:00', closes: '04:00' }] }, holidays: 'usual' };
    const s = openState(late, at('2026-03-08 03:30')); // clocks went 2:00 → 3:00 EDT
    expect(s).toMatchObject({ state: 'open', line: 'Open now · Closes at 4 am' });
    expect(s.changesAt).toBe('2026-03-08T08:00:00.000Z'); // 4 am EDT
    expect(openState(late, at('2026-03-08 04:00')).state).toBe('closed');
  });

  test('fall back: both 1:30 am are open and the close is 3 am standard time', () => {
    const late: PlaceHours = { weekly: { sat: [{ opens: '22:00', closes: '03:00' }] }, holidays: 'usual' };
    const firstHalf = new Date('2026-11-01T05:30:00Z'); // 1:30 EDT
    const secondHalf = new Date('2026-11-01T06:30:00Z'); // 1:30 EST
    for (const now of [firstHalf, secondHalf]) expect(openState(late, now)).toMatchObject({ state: 'open', changesAt: '2026-11-01T08:00:00.000Z' });
    expect(openState(late, new Date('2026-11-01T08:00:00Z')).state).toBe('closed');
  });

  test('holidays: closed, special hours, or usual; last night’s range still runs past midnight', () => {
    // Christmas 2026 is a Friday and Boxing Day a Saturday: the bistro keeps both.
    expect(openState(bistro, at('2026-12-25 12:00'))).toMatchObject({ state: 'closed', reason: 'holiday', line: 'Closed for Christmas Day · Opens Sun 11:30 am' });
    const special: PlaceHours = { ...bistro, holidays: 'hours', holidayRanges: [{ opens: '12:00', closes: '20:00' }] };
    expect(openState(special, at('2026-12-25 19:00')).line).toBe('Open now · Closes at 8 pm');
    expect(openState({ ...bistro, holidays: 'usual' }, at('2026-12-25 21:00')).line).toBe('Open now · Closes at 10 pm');
    const closedBar: PlaceHours = { ...bar, holidays: 'closed' };
    expect(openState(closedBar, at('2026-12-25 01:00')).state).toBe('open'); // Christmas Eve's night
    expect(openState(closedBar, at('2026-12-25 19:00')).state).toBe('closed');
  });

  test('a temporary closure: closed with the day it reopens, then the usual hours', () => {
    const shut: PlaceHours = { ...bistro, closure: { from: '2026-11-27', until: '2026-12-03' } };
    expect(openState(shut, at('2026-11-29 12:00'))).toMatchObject({ state: 'closed', reason: 'closure', line: 'Temporarily closed · Reopens Fri, Dec 4' });
    expect(openState(shut, at('2026-12-04 12:00')).state).toBe('open');
    expect(openState({ ...bistro, closure: { from: '2026-11-27', until: null } }, at('2027-02-01 12:00')).line).toBe('Temporarily closed');
  });

  test('open round the clock says so', () => {
    expect(openState({ weekly: every('00:00', '24:00'), holidays: 'usual' }, at('2026-11-29 03:00')).line).toBe('Open now · Open 24 hours');
  });
});

describe('readPlaceHours', () => {
  test('reads the first shape: one range a day, closed days absent, holidays as usual', () => {
    expect(readPlaceHours({ mon: '9:00-17:00', fri: '18:00-02:00' })).toEqual({
      weekly: { mon: [{ opens: '09:00', closes: '17:00' }], fri: [{ opens: '18:00', closes: '02:00' }] },
      holidays: 'usual',
    });
    expect(readPlaceHours(JSON.stringify({ tue: '11:00-22:00' }))?.weekly.tue).toEqual([{ opens: '11:00', closes: '22:00' }]);
  });

  test('anything unreadable is unknown, not a wrong "open"', () => {
    for (const bad of [null, {}, 'nope', [], { mon: 'all day' }, { funday: '9:00-17:00' }, { weekly: { mon: [{ opens: '25:00', closes: '26:00' }] }, holidays: 'usual' }]) {
      expect(readPlaceHours(bad)).toBeNull();
    }
  });

  test('reads the new shape as stored', () => {
    expect(readPlaceHours(JSON.parse(JSON.stringify(bistro)))).toEqual(bistro);
  });
});

describe('placeHoursSchema', () => {
  const issues = (v: unknown) => {
    const r = placeHoursSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  test('names the field at fault', () => {
    expect(issues({ weekly: { mon: [{ opens: '9am', closes: '17:00' }] }, holidays: 'usual' })).toEqual(['weekly.mon.0.opens']);
    expect(issues({ weekly: { mon: [{ opens: '09:00', closes: '13:00' }, { opens: '12:00', closes: '17:00' }] }, holidays: 'usual' })).toEqual(['weekly.mon']);
    expect(issues({ weekly: {}, holidays: 'hours' })).toEqual(['holidayRanges']);
    expect(issues({ weekly: {}, holidays: 'usual', closure: { from: '2026-12-03', until: '2026-12-01' } })).toEqual(['closure.until']);
    expect(issues({ weekly: { someday: [] }, holidays: 'usual' })).toEqual(['weekly']);
  });
  test('allows past midnight and all day', () => {
    expect(issues({ weekly: { fri: [{ opens: '11:00', closes: '15:00' }, { opens: '18:00', closes: '02:00' }], sat: [{ opens: '00:00', closes: '24:00' }] }, holidays: 'usual' })).toEqual([]);
  });
});

describe('weeklyRows', () => {
  test('Monday first, several ranges, closed days said', () => {
    const rows = weeklyRows(bistro)!;
    expect(rows[0]).toEqual({ day: 'Monday', hours: 'Closed' });
    expect(rows[1]).toEqual({ day: 'Tuesday', hours: '11:30 am – 2:30 pm, 5 pm – 10 pm' });
    expect(weeklyRows(bar)![4].hours).toBe('6 pm – 2 am');
  });
});

describe('hoursIndex: the SQL filter’s columns agree with openState', () => {
  // The multirange literal's containment, as PostgreSQL's @> int tests it.
  const contains = (literal: string | null, n: number) =>
    !!literal && [...literal.matchAll(/\[(\d+),(\d+)\)/g)].some(([, a, b]) => Number(a) <= n && n < Number(b));
  const sqlOpen = (h: PlaceHours, now: Date) => {
    const idx = hoursIndex(h);
    const p = openNowProbe(now);
    const [from, until] = idx.hours_closed ? idx.hours_closed.slice(1, -1).split(',') : [];
    const closed = (d: string) => !!idx.hours_closed && from <= d && (!until || d <= until);
    const part = (holiday: boolean, weekKey: number, dayKey: number) =>
      holiday && idx.hours_holiday !== null ? contains(idx.hours_holiday, dayKey) : contains(idx.hours_week, weekKey);
    return (part(p.todayIsHoliday, p.weekMinute, p.dayMinute) && !closed(p.today)) || (part(p.yesterdayWasHoliday, MINUTES_PER_WEEK + p.weekMinute, MINUTES_PER_DAY + p.dayMinute) && !closed(p.yesterday));
  };
  const schedules: PlaceHours[] = [
    bar,
    bistro,
    { ...bar, holidays: 'hours', holidayRanges: [{ opens: '16:00', closes: '03:00' }] },
    { ...bistro, closure: { from: '2026-12-20', until: '2026-12-27' } },
    { weekly: { sun: [{ opens: '20:00', closes: '04:00' }] }, holidays: 'closed' },
  ];
  test('every 29 minutes over Christmas week and the spring DST change', () => {
    const disagree: string[] = [];
    for (const [from, days] of [['2026-12-19', 10], ['2026-03-06', 4]] as const) {
      const start = moment.tz(from, ZONE).valueOf();
      for (let t = start; t < start + days * 86_400_000; t += 29 * 60_000) {
        schedules.forEach((h, i) => {
          const now = new Date(t);
          if (sqlOpen(h, now) !== (openState(h, now).state === 'open')) disagree.push(`${i} ${moment(now).tz(ZONE).format()}`);
        });
      }
    }
    expect(disagree).toEqual([]);
  });
});

describe('Ontario holidays', () => {
  test('the nine ESA public holidays each year, 2024–2030', () => {
    for (let y = 2024; y <= 2030; y++) expect(ontarioHolidays(y).filter((h) => h.esa)).toHaveLength(9);
  });
  test('computed dates match the published ones', () => {
    const esa = (y: number) => Object.fromEntries(ontarioHolidays(y).map((h) => [h.name, h.date]));
    expect(esa(2026)).toMatchObject({ 'Family Day': '2026-02-16', 'Good Friday': '2026-04-03', 'Victoria Day': '2026-05-18', 'Civic Holiday': '2026-08-03', 'Labour Day': '2026-09-07', Thanksgiving: '2026-10-12' });
    expect(esa(2027)).toMatchObject({ 'Family Day': '2027-02-15', 'Good Friday': '2027-03-26', 'Victoria Day': '2027-05-24', Thanksgiving: '2027-10-11' });
    expect([2024, 2025, 2030].map(easterSunday)).toEqual([[3, 31], [4, 20], [4, 21]]);
  });
  test('only ESA days count for a place’s holiday setting', () => {
    expect(ontarioPublicHoliday('2026-12-26')?.name).toBe('Boxing Day');
    expect(ontarioPublicHoliday('2026-08-03')).toBeNull(); // Civic Holiday: not an ESA holiday
    expect(ontarioPublicHoliday('2026-04-05')).toBeNull(); // Easter Sunday: retail only
  });
});
