import { describeHoursChange, hoursFromForm, hoursToForm, readRanges } from './place-hours-form';
import type { PlaceHours } from './place-hours';

describe('the hours form', () => {
  it('reads several ranges a day, past midnight, closed days and empty days', () => {
    const r = hoursFromForm({ hours_mon: 'closed', hours_tue: '11:30-14:30, 17:00-02:00', hours_wed: '9am - 5:30pm', hours_thu: '', hours_holidays: 'closed' });
    expect(r).toEqual({ ok: true, hours: { weekly: { tue: [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '02:00' }], wed: [{ opens: '09:00', closes: '17:30' }] }, holidays: 'closed' } });
  });

  it('reads "hours not known" as null, and refuses it beside filled days', () => {
    expect(hoursFromForm({ hours_unknown: 'on' })).toEqual({ ok: true, hours: null });
    expect(hoursFromForm({ hours_unknown: 'on', hours_mon: '9-17' })).toEqual({ ok: false, errors: { hours_unknown: expect.any(String) } });
    expect(hoursFromForm({})).toEqual({ ok: false, errors: { hours_mon: expect.stringContaining('hours not known') } });
  });

  it('puts each error on the field that holds it', () => {
    const bad = hoursFromForm({ hours_mon: '9-17', hours_tue: 'noonish', hours_wed: '9-13, 12-18', hours_holidays: 'hours', hours_holiday_ranges: '', hours_closure_from: '2026-12-10', hours_closure_until: '2026-12-01' });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual(['hours_tue']);
    const schemaErrors = hoursFromForm({ hours_mon: '9-17', hours_wed: '9-13, 12-18', hours_holidays: 'hours', hours_holiday_ranges: '', hours_closure_from: '2026-12-10', hours_closure_until: '2026-12-01' });
    expect(schemaErrors.ok).toBe(false);
    if (schemaErrors.ok) return;
    expect(schemaErrors.errors).toEqual({
      hours_wed: 'Ranges of one day must not overlap.',
      hours_holiday_ranges: 'Give the holiday hours, or choose usual or closed.',
      hours_closure_until: 'The closure must end on or after its first day.',
    });
    expect(hoursFromForm({ hours_mon: '9-17', hours_holidays: 'sometimes' })).toEqual({ ok: false, errors: { hours_holidays: expect.any(String) } });
    expect(hoursFromForm({ hours_mon: '9-17', hours_closure_note: 'Renovations' })).toEqual({ ok: false, errors: { hours_closure_from: expect.any(String) } });
    expect(hoursFromForm({ hours_mon: '9-17', hours_closure_from: '2026-13-01' })).toEqual({ ok: false, errors: { hours_closure_from: 'Enter a date as YYYY-MM-DD.' } });
  });

  it('refuses times that are not times', () => {
    expect(readRanges('25:00-26:00')).toBeNull();
    expect(readRanges('13pm-2')).toBeNull();
    expect(readRanges('24:00-02:00')).toBeNull();
    expect(readRanges('00:00-24:00')).toEqual([{ opens: '00:00', closes: '24:00' }]);
    expect(readRanges('12am-12pm')).toEqual([{ opens: '00:00', closes: '12:00' }]);
  });

  it('fills the form back with what it reads', () => {
    const hours: PlaceHours = {
      weekly: { fri: [{ opens: '11:30', closes: '14:30' }, { opens: '17:00', closes: '02:00' }], sun: [{ opens: '00:00', closes: '24:00' }] },
      holidays: 'hours',
      holidayRanges: [{ opens: '12:00', closes: '20:00' }],
      closure: { from: '2026-11-20', until: null, note: 'Renovations' },
    };
    const form = hoursToForm(hours);
    expect(form).toMatchObject({ hours_mon: 'closed', hours_fri: '11:30-14:30, 17:00-02:00', hours_holidays: 'hours', hours_holiday_ranges: '12:00-20:00', hours_closure_from: '2026-11-20', hours_closure_until: '', hours_unknown: '' });
    expect(hoursFromForm(form)).toEqual({ ok: true, hours });
    expect(hoursToForm(null)).toMatchObject({ hours_unknown: 'on', hours_mon: '' });
  });

  it('says what changed in a line', () => {
    const a: PlaceHours = { weekly: { tue: [{ opens: '09:00', closes: '17:00' }] }, holidays: 'usual' };
    const b: PlaceHours = { weekly: { tue: [{ opens: '10:00', closes: '18:00' }], wed: [{ opens: '12:00', closes: '02:00' }] }, holidays: 'closed' };
    expect(describeHoursChange(a, b)).toBe('Tue 9am–5pm → 10am–6pm; Wed closed → 12pm–2am; holidays usual → closed');
    expect(describeHoursChange(a, a)).toBe('');
    const open = { opens: '00:00', closes: '24:00' };
    expect(describeHoursChange({ weekly: {}, holidays: 'usual' }, { weekly: { mon: [open], tue: [open], wed: [open], fri: [open] }, holidays: 'usual' })).toBe('Mon–Wed closed → 24 hours; Fri closed → 24 hours');
    expect(describeHoursChange(null, a)).toBe('not known → Mon closed; Tue 9am–5pm; Wed closed; Thu closed; Fri closed; Sat closed; Sun closed');
  });
});
