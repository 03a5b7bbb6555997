import type { KeyboardEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { ScheduleType } from '../../../shared/constants';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';

export const TABS: Array<[ScheduleType, string]> = [
  ['single_day', 'Single day'],
  ['day_range', 'Date range'],
  ['weekly', 'Weekly'],
  ['irregular', 'Various dates'],
];

// The schedule types as tabs (ARIA tabs pattern: the chosen one is the tab stop, arrow keys
// move between them and choose).
export function ScheduleTabs({ uid }: { uid: string }) {
  const dispatch = useDispatch();
  const scheduleType = useSelector((r: EventFormRootState) => r.eventForm.scheduleType);

  const onTabKey = (ev: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const delta = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    ev.preventDefault();
    const next = TABS[(index + delta + TABS.length) % TABS.length][0];
    dispatch(eventForm.scheduleTypeChanged(next));
    document.getElementById(`${uid}-tab-${next}`)?.focus();
  };

  return (
    <div role="tablist" aria-label="Schedule" className="tabs event-form__tabs">
      {TABS.map(([type, label], i) => (
        <button
          key={type}
          type="button"
          role="tab"
          id={`${uid}-tab-${type}`}
          aria-selected={scheduleType === type}
          aria-controls={`${uid}-panel-${type}`}
          tabIndex={scheduleType === type ? 0 : -1}
          className={`tabs__link${scheduleType === type ? ' is-active' : ''}`}
          onClick={() => dispatch(eventForm.scheduleTypeChanged(type))}
          onKeyDown={(ev) => onTabKey(ev, i)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
