import { expandOccurrences } from './schedule';

const TZ = 'Canada/Eastern';

describe('expandOccurrences', () => {
  test('a single day event starts at its local time', () => {
    const [o, ...rest] = expandOccurrences({ schedule_type: 'single_day', start_date: '2026-07-01', start_time: '19:30', end_time: '22:00' }, TZ);
    expect(rest).toHaveLength(0);
    expect(o.local_date).toBe('2026-07-01');
    expect(o.starts_at.toISOString()).toBe('2026-07-01T23:30:00.000Z'); // EDT, UTC-4
    expect(o.ends_at?.toISOString()).toBe('2026-07-02T02:00:00.000Z');
  });

  test('a weekly event keeps its wall-clock time across the November DST change', () => {
    const occ = expandOccurrences(
      { schedule_type: 'weekly', start_date: '2026-10-26', end_date: '2026-11-09', weekdays: [0, 3], start_time: '19:00', end_time: '21:00' },
      TZ,
    );
    expect(occ.map((o) => o.local_date)).toEqual(['2026-10-28', '2026-11-01', '2026-11-04', '2026-11-08']);
    expect(occ[0].starts_at.toISOString()).toBe('2026-10-28T23:00:00.000Z'); // EDT
    expect(occ[1].starts_at.toISOString()).toBe('2026-11-02T00:00:00.000Z'); // EST from Nov 1
  });

  test('a day range has one occurrence per day; an end before the start runs past midnight', () => {
    const occ = expandOccurrences({ schedule_type: 'day_range', start_date: '2026-03-07', end_date: '2026-03-09', start_time: '22:00', end_time: '02:00' }, TZ);
    expect(occ).toHaveLength(3);
    expect(occ[2].starts_at.toISOString()).toBe('2026-03-10T02:00:00.000Z'); // after the March 8 change: EDT
    expect(occ[2].ends_at?.toISOString()).toBe('2026-03-10T06:00:00.000Z');
  });

  test('irregular dates each carry their own times; all-day events span the local day', () => {
    const occ = expandOccurrences(
      { schedule_type: 'irregular', start_date: '2026-12-01', dates: [{ date: '2026-12-12', start_time: '10:00', end_time: '12:00' }, { date: '2026-12-05', start_time: '14:00', end_time: null }] },
      TZ,
    );
    expect(occ.map((o) => o.local_date)).toEqual(['2026-12-05', '2026-12-12']);
    const [allDay] = expandOccurrences({ schedule_type: 'single_day', start_date: '2026-12-25', all_day: true }, TZ);
    expect(allDay.all_day).toBe(true);
    expect(allDay.starts_at.toISOString()).toBe('2026-12-25T05:00:00.000Z');
    expect(allDay.ends_at?.toISOString()).toBe('2026-12-26T05:00:00.000Z');
  });
});
