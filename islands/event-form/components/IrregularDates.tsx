import { useDispatch, useSelector } from 'react-redux';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';
import type { EventFormInitialState } from '../types';
import { DateField, TimeFields, type FieldsContext } from './ScheduleFields';

// The various-dates panel's rows, posted as a Django formset (the management fields first).
export function IrregularDates({ f, defaults }: { f: FieldsContext; defaults: EventFormInitialState['defaults'] }) {
  const dispatch = useDispatch();
  const rows = useSelector((r: EventFormRootState) => r.eventForm.irregularRows);
  return (
    <>
      <input type="hidden" name="irregular-TOTAL_FORMS" value={rows.length} />
      <input type="hidden" name="irregular-INITIAL_FORMS" value="0" />
      <input type="hidden" name="irregular-MIN_NUM_FORMS" value="0" />
      <input type="hidden" name="irregular-MAX_NUM_FORMS" value="100" />
      {/* Keyed by row id, so a removed row takes its typed values with it; the names stay 0…n-1 as the formset wants. */}
      {rows.map((rowId, i) => (
        <div className="inline-form event-form__date-row" key={rowId}>
          <DateField f={f} name={`irregular-${i}-start_date`} label={`Date ${i + 1}`} errorKey="date" idKey={rowId} />
          <TimeFields f={f} prefix={`irregular-${i}`} defaults={defaults} />
          {rows.length > 1 && (
            <button type="button" className="button--quiet event-form__remove-date" onClick={() => dispatch(eventForm.irregularRowRemoved(rowId))} aria-label={`Remove date ${i + 1}`}>
              Remove
            </button>
          )}
        </div>
      ))}
      <p>
        <button type="button" className="button--quiet" onClick={() => dispatch(eventForm.irregularRowAdded())} disabled={rows.length >= 100}>
          + Add another date
        </button>
      </p>
    </>
  );
}
