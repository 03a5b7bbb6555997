import { scheduleWords, timeRangeWords, timeWords, weekdaysWords } from './schedule-words';

const tz = 'Canada/Eastern';
// 2026-11-22 09:00 in Toronto.
const now = new Date('2026-11-22T14:00:00Z');
const words = (s: Parameters<typeof scheduleWords>[0], dates?: Parameters<typeof scheduleWords>[1]['dates']) => scheduleWords(s, { timeZone: tz, now, dates });

describe('schedule in words', () => {
  test('times read as people say them: on the hour, with minutes, noon and midnight', () => {
    expect(timeWords('19:00:00')).toBe('7 pm');
    expect(timeWords('07:30')).toBe('7:30 am');
    expect(timeWords('12:00')).toBe('noon');
    expect(timeWords('00:00:00')).toBe('midnight');
    expect(timeWords('12:15')).toBe('12:15 pm');
    expect(timeRangeWords('19:00', '21:00')).toBe('7 pm – 9 pm');
    expect(timeRangeWords('19:00', null)).toBe('7 pm');
    expect(timeRangeWords('19:00', '21:00', true)).toBe('all day');
  });

  test('a weekly schedule names its days, times and last date (the issue example)', () => {
    expect(words({ schedule_type: 'weekly', start_date: '2026-11-03', end_date: '2026-12-18', start_time: '19:00', end_time: '21:00', weekdays: [2, 4] })).toBe(
      'Every Tuesday and Thursday, 7 pm – 9 pm, until December 18',
    );
  });

  test('a weekly schedule that has not started yet says from when', () => {
    expect(words({ schedule_type: 'weekly', start_date: '2026-12-01', end_date: '2027-01-31', start_time: '10:00', weekdays: [0, 5, 6] })).toBe(
      'Every Friday, Saturday and Sunday, 10 am, from December 1 until January 31, 2027',
    );
  });

  test('weekday sets with a name read as that name', () => {
    expect(weekdaysWords([1, 2, 3, 4, 5])).toBe('Every weekday');
    expect(weekdaysWords([0, 6])).toBe('Every weekend');
    expect(weekdaysWords([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
    expect(weekdaysWords([3])).toBe('Every Wednesday');
  });

  test('a single day gives its weekday, and the year only when it is not this year', () => {
    expect(words({ schedule_type: 'single_day', start_date: '2026-12-05', start_time: '19:00', end_time: '21:00' })).toBe('Saturday, December 5, 7 pm – 9 pm');
    expect(words({ schedule_type: 'single_day', start_date: '2027-01-09', all_day: true })).toBe('Saturday, January 9, 2027, all day');
  });

  test('a day range reads as daily with its span', () => {
    expect(words({ schedule_type: 'day_range', start_date: '2026-12-01', end_date: '2026-12-24', start_time: '10:00', end_time: '17:00' })).toBe(
      'Daily, 10 am – 5 pm, from December 1 until December 24',
    );
    expect(words({ schedule_type: 'day_range', start_date: '2026-11-01', end_date: '2026-11-30', all_day: true })).toBe('Daily, all day, until November 30');
  });

  test('irregular dates are listed by month with their shared times; past dates drop out', () => {
    const dates = [
      { date: '2026-11-14', start_time: '20:00:00', end_time: null },
      { date: '2026-12-05', start_time: '20:00:00', end_time: null },
      { date: '2026-12-12', start_time: '20:00:00', end_time: null },
      { date: '2027-01-02', start_time: '20:00:00', end_time: null },
    ];
    expect(words({ schedule_type: 'irregular', start_date: '2026-11-14' }, dates)).toBe('December 5 and 12 and January 2, 2027, 8 pm');
  });

  test('many irregular dates read as a span; differing times are left to the date list', () => {
    const dates = ['2026-12-01', '2026-12-03', '2026-12-09', '2026-12-15', '2026-12-20'].map((date, i) => ({ date, start_time: i ? '19:00' : '18:00', end_time: null }));
    expect(words({ schedule_type: 'irregular', start_date: '2026-12-01' }, dates)).toBe('Various dates, December 1 to December 20');
  });
});
