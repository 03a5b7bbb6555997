import { longDate } from './date';

describe('longDate', () => {
  test("the day in the site's time zone, not the reader's", () => {
    expect(longDate('2026-11-24T03:00:00Z', 'America/Toronto')).toBe('November 23, 2026');
    expect(longDate('2026-11-24T03:00:00Z', 'UTC')).toBe('November 24, 2026');
  });

  test('nothing for a missing or unreadable date; an unknown time zone still gives a date', () => {
    expect(longDate(null, 'UTC')).toBe('');
    expect(longDate('not a date', 'UTC')).toBe('');
    expect(longDate('2026-01-10T12:00:00Z', 'Not/AZone')).toBe('January 10, 2026');
  });
});
