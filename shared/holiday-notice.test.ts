import { holidayDayWords, holidayNotice, holidaysWithin } from './holiday-notice';
import type { PlaceHours } from './place-hours';

// "Holiday hours may differ" (issue 39) at fixed instants: the week's window in Toronto's
// time, the ESA holidays only, and the places it says nothing for.

const ALL = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const everyDay = (opens: string, closes: string) => Object.fromEntries(ALL.map((d) => [d, [{ opens, closes }]]));
const usual: PlaceHours = { weekly: everyDay('11:00', '22:00'), holidays: 'usual' };

describe('holidayDayWords', () => {
  test('weekday, month and day', () => {
    expect(holidayDayWords('2026-12-25')).toBe('Fri Dec 25');
    expect(holidayDayWords('2027-01-01')).toBe('Fri Jan 1');
    expect(holidayDayWords('2026-05-18')).toBe('Mon May 18');
  });
});

describe('holidaysWithin', () => {
  test('from today to seven days after it, both included', () => {
    expect(holidaysWithin('2026-12-18').map((h) => h.date)).toEqual(['2026-12-25']);
    expect(holidaysWithin('2026-12-17').map((h) => h.date)).toEqual([]);
    expect(holidaysWithin('2026-12-25').map((h) => h.date)).toEqual(['2026-12-25', '2026-12-26', '2027-01-01']);
    expect(holidaysWithin('2026-12-27').map((h) => h.name)).toEqual(["New Year's Day"]);
  });

  test('only the ESA’s public holidays: not Easter Monday, the Civic Holiday or Remembrance Day', () => {
    // Easter 2026 is Apr 5: Good Friday Apr 3 counts, Easter Sunday and Monday do not.
    expect(holidaysWithin('2026-04-01').map((h) => h.name)).toEqual(['Good Friday']);
    expect(holidaysWithin('2026-08-01')).toEqual([]);
    expect(holidaysWithin('2026-11-05')).toEqual([]);
  });
});

describe('holidayNotice', () => {
  const instant = (iso: string) => new Date(iso);

  test('Christmas within the week, usual hours: named with its day', () => {
    expect(holidayNotice(usual, instant('2026-12-20T17:00:00Z'))).toBe('Holiday hours may differ: Christmas Day, Fri Dec 25; Boxing Day, Sat Dec 26');
    expect(holidayNotice(usual, instant('2026-12-18T17:00:00Z'))).toBe('Holiday hours may differ: Christmas Day, Fri Dec 25');
  });

  test('the week is Toronto’s: 10 pm on Dec 17 there is Dec 18 in UTC, still eight days before', () => {
    expect(holidayNotice(usual, instant('2026-12-18T03:00:00Z'))).toBeNull();
    expect(holidayNotice(usual, instant('2026-12-18T05:00:00Z'))).toBe('Holiday hours may differ: Christmas Day, Fri Dec 25');
  });

  test('across the new year, and on the holiday itself', () => {
    expect(holidayNotice(usual, instant('2026-12-29T15:00:00Z'))).toBe("Holiday hours may differ: New Year's Day, Fri Jan 1");
    expect(holidayNotice(usual, instant('2027-01-01T15:00:00Z'))).toBe("Holiday hours may differ: New Year's Day, Fri Jan 1");
    expect(holidayNotice(usual, instant('2027-01-02T15:00:00Z'))).toBeNull();
  });

  test('nothing for holidays decided, hours unknown, a weekly day off or a temporary closure', () => {
    const now = instant('2026-12-20T17:00:00Z');
    expect(holidayNotice({ ...usual, holidays: 'closed' }, now)).toBeNull();
    expect(holidayNotice({ ...usual, holidays: 'hours', holidayRanges: [{ opens: '12:00', closes: '16:00' }] }, now)).toBeNull();
    expect(holidayNotice(null, now)).toBeNull();
    // Closed Fridays: only Boxing Day (a Saturday) may differ.
    expect(holidayNotice({ ...usual, weekly: { ...everyDay('11:00', '22:00'), fri: [] } }, now)).toBe('Holiday hours may differ: Boxing Day, Sat Dec 26');
    expect(holidayNotice({ ...usual, closure: { from: '2026-12-21', until: '2027-01-04' } }, now)).toBeNull();
  });

  test('Victoria Day 2026, a Monday in May', () => {
    expect(holidayNotice(usual, instant('2026-05-14T16:00:00Z'))).toBe('Holiday hours may differ: Victoria Day, Mon May 18');
  });
});
