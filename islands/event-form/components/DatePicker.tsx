import { useEffect, useRef, useState, type InputHTMLAttributes } from 'react';
import { TIMINGS_MS } from '../../../shared/constants';
import { Dialog } from '../../common/Dialog';

// The event form's dates (spec 1 §5): read-only fields, YYYY-MM-DD, filled only from a month
// calendar, so no typed date can be half valid. The calendar opens from the field (click,
// Enter, Space or Down) or its button, in a dialog. A picked day is marked at once and the
// dialog closes 250 ms later (spec 2 §9's date-picker blur), so the member sees what was chosen.

const pad = (n: number) => String(n).padStart(2, '0');
export const isoDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function parseIso(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return isoDate(d) === value ? d : null;
}

const WEEKDAY_INITIALS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];

/** The weeks of a month as rows of seven days (null outside the month), Sunday first. */
export function monthGrid(year: number, month: number): Array<Array<Date | null>> {
  const first = new Date(year, month, 1);
  const days = new Date(year, month + 1, 0).getDate();
  const cells: Array<Date | null> = Array.from({ length: first.getDay() }, () => null);
  for (let d = 1; d <= days; d++) cells.push(new Date(year, month, d));
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

export function Calendar({ value, onPick, today = new Date() }: { value: string; onPick: (iso: string) => void; today?: Date }) {
  const start = parseIso(value) ?? today;
  const [month, setMonth] = useState({ year: start.getFullYear(), month: start.getMonth() });
  const shown = new Date(month.year, month.month, 1);
  const step = (delta: number) => {
    const d = new Date(month.year, month.month + delta, 1);
    setMonth({ year: d.getFullYear(), month: d.getMonth() });
  };
  const title = shown.toLocaleDateString('en-CA', { month: 'long', year: 'numeric' });
  return (
    <div className="date-picker__calendar">
      <div className="date-picker__head">
        <button type="button" className="button--quiet" onClick={() => step(-1)} aria-label="Previous month">
          ‹
        </button>
        <p className="date-picker__month" aria-live="polite">
          {title}
        </p>
        <button type="button" className="button--quiet" onClick={() => step(1)} aria-label="Next month">
          ›
        </button>
      </div>
      <table className="date-picker__grid">
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            {WEEKDAY_INITIALS.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month.year, month.month).map((week, w) => (
            <tr key={w}>
              {week.map((day, i) => (
                <td key={i}>
                  {day && (
                    <button
                      type="button"
                      className={`date-picker__day${isoDate(day) === value ? ' is-selected' : ''}${isoDate(day) === isoDate(today) ? ' is-today' : ''}`}
                      aria-pressed={isoDate(day) === value}
                      data-date={isoDate(day)}
                      aria-label={day.toLocaleDateString('en-CA', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })}
                      onClick={() => onPick(isoDate(day))}
                    >
                      {day.getDate()}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface DatePickerProps {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}

export function DatePicker({ id, name, label, defaultValue, inputProps }: DatePickerProps) {
  const [value, setValue] = useState(parseIso(defaultValue) ? defaultValue : '');
  const [open, setOpen] = useState(false);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closing.current), []);
  const close = () => {
    clearTimeout(closing.current);
    setOpen(false);
  };
  return (
    <div className="field date-picker">
      <label htmlFor={id}>{label}</label>
      <div className="date-picker__row">
        <input
          id={id}
          name={name}
          value={value}
          readOnly
          placeholder="YYYY-MM-DD"
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
            }
          }}
          {...inputProps}
        />
        <button type="button" className="button--secondary date-picker__open" onClick={() => setOpen(true)} aria-label={`Choose ${label.toLowerCase()}`}>
          Pick
        </button>
      </div>
      {open && (
        <Dialog title={`Choose ${label.toLowerCase()}`} onClose={close} className="date-picker__dialog">
          <Calendar
            value={value}
            onPick={(iso) => {
              setValue(iso);
              clearTimeout(closing.current);
              closing.current = setTimeout(close, TIMINGS_MS.datePickerBlur);
            }}
          />
          {value && (
            <p>
              <button
                type="button"
                className="button--quiet"
                onClick={() => {
                  setValue('');
                  close();
                }}
              >
                Clear the date
              </button>
            </p>
          )}
        </Dialog>
      )}
    </div>
  );
}
