import type { ReactNode } from 'react';
import type { ScheduleType } from '../../../shared/constants';
import type { EventFormInitialState } from '../types';
import { DatePicker } from './DatePicker';
import { Errors, invalidProps, type FieldErrorMap } from './FieldErrors';

// The fields the schedule panels of the When section are made of. Their names are the
// no-JavaScript form's (`<schedule type>-<field>`), which the server reads.

/** What every field needs: the form's id prefix, the last post's values, the server's errors. */
export interface FieldsContext {
  uid: string;
  values: Record<string, string>;
  errors: FieldErrorMap;
}

const TIME = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])?$/;

/** 'h:mm A' or HH:mm (spec 1 §5); anything else falls back to the default. */
export function isValidTime(value: string): boolean {
  const m = TIME.exec(value.trim());
  if (!m) return false;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return min < 60 && (m[3] ? h >= 1 && h <= 12 : h < 24);
}

function TimeField({ f, name, label, fallback, errorKey }: { f: FieldsContext; name: string; label: string; fallback: string; errorKey: string }) {
  return (
    <div className="field">
      <label htmlFor={`${f.uid}-${name}`}>{label}</label>
      <input
        id={`${f.uid}-${name}`}
        name={name}
        placeholder={fallback}
        defaultValue={f.values[name] ?? fallback}
        onBlur={(ev) => {
          if (!isValidTime(ev.currentTarget.value)) ev.currentTarget.value = fallback;
        }}
        {...invalidProps(f.errors, errorKey)}
      />
    </div>
  );
}

/** `<prefix>-start_time` and `<prefix>-end_time`, each falling back to the site's default. */
export function TimeFields({ f, prefix, defaults }: { f: FieldsContext; prefix: string; defaults: EventFormInitialState['defaults'] }) {
  return (
    <>
      <TimeField f={f} name={`${prefix}-start_time`} label="Start time" fallback={defaults.startTime} errorKey="startTime" />
      <TimeField f={f} name={`${prefix}-end_time`} label="End time" fallback={defaults.endTime} errorKey="endTime" />
    </>
  );
}

/** idKey: what makes the id unique when the name is reused (the various-dates rows). */
export function DateField({ f, name, label, errorKey, idKey }: { f: FieldsContext; name: string; label: string; errorKey: string; idKey?: number }) {
  return <DatePicker id={`${f.uid}-${idKey ?? name}`} name={name} label={label} defaultValue={f.values[name] ?? ''} inputProps={invalidProps(f.errors, errorKey)} />;
}

export function AllDay({ f, type }: { f: FieldsContext; type: ScheduleType }) {
  return (
    <label className="checkbox">
      <input type="checkbox" name={`${type}-all_day`} defaultChecked={/^(on|true|1)$/.test(f.values[`${type}-all_day`] ?? '')} /> All day
    </label>
  );
}

/** A schedule type's tab panel; its errors show only while it is the chosen type. */
export function SchedulePanel({ uid, type, active, children }: { uid: string; type: ScheduleType; active: boolean; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${uid}-panel-${type}`} aria-labelledby={`${uid}-tab-${type}`} hidden={!active} className="event-form__panel">
      {children}
    </div>
  );
}

export function PanelErrors({ f, active, keys }: { f: FieldsContext; active: boolean; keys: string[] }) {
  return active ? <Errors keys={keys} errors={f.errors} /> : null;
}
