import { FeedParseError, parseFeed } from './feed-events';

// Mapping a feed's VEVENTs to the add-event form's schedule types (spec 1, add-event).

const TZ = 'Canada/Eastern';

function ics(...lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:e1@test', 'SUMMARY:Jazz night', ...lines, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
}

function only(body: string) {
  const { events } = parseFeed(body, TZ, 500);
  expect(events).toHaveLength(1);
  return events[0];
}

describe('calendar feed mapping', () => {
  it('a single date, with its times, from another time zone converted to Canada/Eastern', () => {
    const e = only(ics('DTSTART;TZID=Europe/London:20270312T170000', 'DTEND;TZID=Europe/London:20270312T190000', 'LOCATION:The Rex, 194 Queen St W', 'URL:https://rex.example/jazz'));
    expect(e.schedule).toEqual({ schedule_type: 'single_day', start_date: '2027-03-12', start_time: '12:00:00', end_time: '14:00:00', all_day: false });
    expect(e).toMatchObject({ title: 'Jazz night', venueName: 'The Rex', address: '194 Queen St W', website: 'https://rex.example/jazz', flags: [], cancelled: false });
  });

  it('UTC times and a DST change: each date converted on its own', () => {
    const e = only(ics('DTSTART:20270706T230000Z', 'DURATION:PT2H'));
    expect(e.schedule).toMatchObject({ schedule_type: 'single_day', start_date: '2027-07-06', start_time: '19:00:00', end_time: '21:00:00' });
  });

  it('an all-day event over several days is a day range (DTEND is exclusive)', () => {
    const e = only(ics('DTSTART;VALUE=DATE:20270604', 'DTEND;VALUE=DATE:20270607'));
    expect(e.schedule).toEqual({ schedule_type: 'day_range', start_date: '2027-06-04', end_date: '2027-06-06', all_day: true, start_time: null, end_time: null });
    expect(e.flags).toEqual([]);
  });

  it('a one-day all-day event is a single date', () => {
    expect(only(ics('DTSTART;VALUE=DATE:20270604', 'DTEND;VALUE=DATE:20270605')).schedule).toMatchObject({ schedule_type: 'single_day', start_date: '2027-06-04', all_day: true });
  });

  it('RRULE weekly with BYDAY and UNTIL: weekly with its weekdays and end date', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270105T190000', 'DTEND;TZID=America/Toronto:20270105T210000', 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270131T235959Z'));
    expect(e.schedule).toEqual({ schedule_type: 'weekly', start_date: '2027-01-05', end_date: '2027-01-28', weekdays: [2, 4], all_day: false, start_time: '19:00:00', end_time: '21:00:00' });
    expect(e.flags).toEqual([]);
  });

  it('RRULE weekly with COUNT ends on its last date', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270106T180000', 'DTEND;TZID=America/Toronto:20270106T200000', 'RRULE:FREQ=WEEKLY;COUNT=4'));
    expect(e.schedule).toMatchObject({ schedule_type: 'weekly', start_date: '2027-01-06', end_date: '2027-01-27', weekdays: [3] });
  });

  it('EXDATE is honoured: a weekly rule with a date taken out becomes irregular dates without it', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270105T190000', 'DTEND;TZID=America/Toronto:20270105T210000', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=America/Toronto:20270112T190000'));
    expect(e.schedule.schedule_type).toBe('irregular');
    expect(e.schedule.dates?.map((d) => d.date)).toEqual(['2027-01-05', '2027-01-19', '2027-01-26']);
    expect(e.schedule.dates?.[0]).toEqual({ date: '2027-01-05', start_time: '19:00:00', end_time: '21:00:00' });
  });

  it('RDATE: a short list of dates is irregular dates', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270301T200000', 'DTEND;TZID=America/Toronto:20270301T220000', 'RDATE;TZID=America/Toronto:20270315T200000,20270402T200000'));
    expect(e.schedule).toMatchObject({ schedule_type: 'irregular', start_date: '2027-03-01', end_date: '2027-04-02' });
    expect(e.schedule.dates?.map((d) => d.date)).toEqual(['2027-03-01', '2027-03-15', '2027-04-02']);
  });

  it('a moved instance (RECURRENCE-ID) gives irregular dates with its own time', () => {
    const body = [
      'BEGIN:VCALENDAR', 'VERSION:2.0',
      'BEGIN:VEVENT', 'UID:m@test', 'SUMMARY:Quiz', 'DTSTART;TZID=America/Toronto:20270105T190000', 'DTEND;TZID=America/Toronto:20270105T200000', 'RRULE:FREQ=WEEKLY;COUNT=3', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:m@test', 'SUMMARY:Quiz', 'RECURRENCE-ID;TZID=America/Toronto:20270112T190000', 'DTSTART;TZID=America/Toronto:20270112T210000', 'DTEND;TZID=America/Toronto:20270112T220000', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const e = only(body);
    expect(e.schedule.dates).toEqual([
      { date: '2027-01-05', start_time: '19:00:00', end_time: '20:00:00' },
      { date: '2027-01-12', start_time: '21:00:00', end_time: '22:00:00' },
      { date: '2027-01-19', start_time: '19:00:00', end_time: '20:00:00' },
    ]);
  });

  it('RRULE daily with COUNT is a day range', () => {
    expect(only(ics('DTSTART;TZID=America/Toronto:20270810T100000', 'DTEND;TZID=America/Toronto:20270810T160000', 'RRULE:FREQ=DAILY;COUNT=3')).schedule).toEqual({
      schedule_type: 'day_range', start_date: '2027-08-10', end_date: '2027-08-12', all_day: false, start_time: '10:00:00', end_time: '16:00:00',
    });
  });

  it('a monthly rule is flagged for staff, not guessed: only its first date is filled in', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270104T190000', 'DTEND;TZID=America/Toronto:20270104T210000', 'RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=6'));
    expect(e.schedule).toMatchObject({ schedule_type: 'single_day', start_date: '2027-01-04' });
    expect(e.flags).toHaveLength(1);
    expect(e.flags[0]).toMatch(/repeats monthly.*cannot express/);
  });

  it('a weekly rule with no end is imported for a year and flagged', () => {
    const e = only(ics('DTSTART;TZID=America/Toronto:20270105T190000', 'DTEND;TZID=America/Toronto:20270105T210000', 'RRULE:FREQ=WEEKLY'));
    expect(e.schedule).toMatchObject({ schedule_type: 'weekly', start_date: '2027-01-05', end_date: '2028-01-04' });
    expect(e.flags[0]).toMatch(/no end/);
  });

  it('SEQUENCE, LAST-MODIFIED and STATUS:CANCELLED are read', () => {
    const e = only(ics('DTSTART:20270706T230000Z', 'SEQUENCE:3', 'LAST-MODIFIED:20270101T120000Z', 'STATUS:CANCELLED'));
    expect(e).toMatchObject({ sequence: 3, lastModified: '2027-01-01T12:00:00Z', cancelled: true });
  });

  it('text that is not iCalendar is refused with a reason', () => {
    expect(() => parseFeed('<html>not a calendar</html>', TZ, 500)).toThrow(FeedParseError);
  });

  it('more VEVENTs than the limit: none read, the count given', () => {
    const many = ['BEGIN:VCALENDAR', ...Array.from({ length: 4 }, (_, i) => `BEGIN:VEVENT\r\nUID:${i}\r\nDTSTART:20270101T100000Z\r\nEND:VEVENT`), 'END:VCALENDAR'].join('\r\n');
    expect(parseFeed(many, TZ, 3)).toEqual({ events: [], veventCount: 4 });
  });
});
