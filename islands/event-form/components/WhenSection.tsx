import { useDispatch, useSelector } from 'react-redux';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';
import type { EventFormInitialState } from '../types';
import { Errors, invalidProps } from './FieldErrors';
import { IrregularDates } from './IrregularDates';
import { AllDay, DateField, PanelErrors, SchedulePanel, TimeFields, type FieldsContext } from './ScheduleFields';
import { ScheduleTabs } from './ScheduleTabs';

const WEEKDAYS: Array<[string, string]> = [['1', 'Mon'], ['2', 'Tue'], ['3', 'Wed'], ['4', 'Thu'], ['5', 'Fri'], ['6', 'Sat'], ['0', 'Sun']];

// When: the schedule type (tabs) and its panel of dates and times. Every panel stays in the
// form, hidden; the server reads only the chosen type's fields.
export function WhenSection({ uid, init }: { uid: string; init: EventFormInitialState }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  const f: FieldsContext = { uid, values: init.values, errors: s.errors };
  const { defaults } = init;
  const is = (type: typeof s.scheduleType) => s.scheduleType === type;
  return (
    <fieldset className="event-form__schedule">
      <legend>When</legend>
      <input type="hidden" name="schedule_type" value={s.scheduleType} />
      <ScheduleTabs uid={uid} />
      <Errors keys={['schedule_type']} errors={s.errors} />

      <SchedulePanel uid={uid} type="single_day" active={is('single_day')}>
        <div className="inline-form">
          <DateField f={f} name="single_day-date" label="Date" errorKey="date" />
          <TimeFields f={f} prefix="single_day" defaults={defaults} />
        </div>
        <AllDay f={f} type="single_day" />
        <PanelErrors f={f} active={is('single_day')} keys={['date', 'startTime', 'endTime']} />
      </SchedulePanel>
      <SchedulePanel uid={uid} type="day_range" active={is('day_range')}>
        <div className="inline-form">
          <DateField f={f} name="day_range-start_date" label="Start date" errorKey="startDate" />
          <DateField f={f} name="day_range-end_date" label="End date" errorKey="endDate" />
          <TimeFields f={f} prefix="day_range" defaults={defaults} />
        </div>
        <AllDay f={f} type="day_range" />
        <PanelErrors f={f} active={is('day_range')} keys={['startDate', 'endDate', 'startTime', 'endTime']} />
      </SchedulePanel>
      <SchedulePanel uid={uid} type="weekly" active={is('weekly')}>
        <h3 className="event-form__subhead">Event Duration</h3>
        <div className="inline-form">
          <DateField f={f} name="weekly-start_date" label="Start date" errorKey="startDate" />
          <DateField f={f} name="weekly-end_date" label="End date" errorKey="endDate" />
        </div>
        <PanelErrors f={f} active={is('weekly')} keys={['startDate', 'endDate']} />
        <fieldset className="event-form__weekdays" {...invalidProps(s.errors, 'weekDays')}>
          <legend>Recurring Weekly on</legend>
          {WEEKDAYS.map(([value, label]) => (
            <label key={value} className="checkbox">
              <input type="checkbox" name="weekly-weekdays" value={value} checked={s.weekdays.includes(value)} onChange={() => dispatch(eventForm.weekdayToggled(value))} /> {label}
            </label>
          ))}
        </fieldset>
        <PanelErrors f={f} active={is('weekly')} keys={['weekDays']} />
        <div className="inline-form">
          <TimeFields f={f} prefix="weekly" defaults={defaults} />
        </div>
        <AllDay f={f} type="weekly" />
        <PanelErrors f={f} active={is('weekly')} keys={['startTime', 'endTime']} />
      </SchedulePanel>
      <SchedulePanel uid={uid} type="irregular" active={is('irregular')}>
        <h3 className="event-form__subhead">Various Event Dates</h3>
        <IrregularDates f={f} defaults={defaults} />
        <AllDay f={f} type="irregular" />
        <PanelErrors f={f} active={is('irregular')} keys={['date', 'startTime', 'endTime']} />
      </SchedulePanel>
    </fieldset>
  );
}
