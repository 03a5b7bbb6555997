import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Dialog } from '../../common/Dialog';
import type { ScheduleType } from '../../../shared/constants';
import { registerFile } from '../files';
import { DatePicker } from './DatePicker';
import { eventForm, IMAGE_FIELDS, venueFieldName, venueSearchMessage } from '../slice';
import type { EventFormRootState } from '../store';
import type { EventFormInitialState } from '../types';
import { pictureUrl } from '../../common/picture-url';

// The add-event form, rendered by the island with the same field names as the no-JavaScript
// form in templates/event-submissions/form.njk (the server reads either).

const TABS: Array<[ScheduleType, string]> = [
  ['single_day', 'Single day'],
  ['day_range', 'Date range'],
  ['weekly', 'Weekly'],
  ['irregular', 'Various dates'],
];
const WEEKDAYS: Array<[string, string]> = [['1', 'Mon'], ['2', 'Tue'], ['3', 'Wed'], ['4', 'Thu'], ['5', 'Fri'], ['6', 'Sat'], ['0', 'Sun']];
const TIME = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])?$/;

/** 'h:mm A' or HH:mm (spec 1 §5); anything else falls back to the default. */
export function isValidTime(value: string): boolean {
  const m = TIME.exec(value.trim());
  if (!m) return false;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return min < 60 && (m[3] ? h >= 1 && h <= 12 : h < 24);
}

export function formEntries(form: HTMLFormElement): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  new FormData(form).forEach((v, k) => {
    if (typeof v === 'string') out.push([k, v]);
  });
  return out;
}

function Errors({ keys, errors }: { keys: string[]; errors: Record<string, string[]> }) {
  const messages = keys.flatMap((k) => (errors[k] ?? []).map((m) => [k, m] as const));
  if (!messages.length) return null;
  return (
    <p className="field-error" id={`${keys[0]}-error`} role="alert">
      {messages.map(([k, m], i) => (
        <span key={`${k}${i}`}>
          {i > 0 && <br />}* {m}
        </span>
      ))}
    </p>
  );
}

export function EventForm({ init }: { init: EventFormInitialState }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const uid = useId();
  const [activeOption, setActiveOption] = useState(-1);
  const v = init.values;
  const e = s.errors;
  const invalid = (...keys: string[]) => {
    const k = keys.find((key) => e[key]?.length);
    return k ? { 'aria-invalid': true as const, 'aria-describedby': `${keys[0]}-error` } : {};
  };
  const placeless = s.multipleVenues || s.virtual;
  const listboxId = `${uid}-venues`;
  const venueMessage = venueSearchMessage(s);

  useEffect(() => {
    if (!s.formError) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? formRef.current?.querySelector<HTMLElement>('.notice--error'))?.focus();
  }, [s.formError, s.errors]);

  const onSubmit = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    dispatch(eventForm.submitRequested({ entries: formEntries(ev.currentTarget) }));
  };

  const timeField = (name: string, label: string, fallback: string, errorKey: string) => (
    <div className="field">
      <label htmlFor={`${uid}-${name}`}>{label}</label>
      <input
        id={`${uid}-${name}`}
        name={name}
        placeholder={fallback}
        defaultValue={v[name] ?? fallback}
        onBlur={(ev) => {
          if (!isValidTime(ev.currentTarget.value)) ev.currentTarget.value = fallback;
        }}
        {...invalid(errorKey)}
      />
    </div>
  );
  const dateField = (name: string, label: string, errorKey: string, key?: number) => (
    <DatePicker key={key} id={`${uid}-${key ?? name}`} name={name} label={label} defaultValue={v[name] ?? ''} inputProps={invalid(errorKey)} />
  );
  const allDay = (type: ScheduleType) => (
    <label className="checkbox">
      <input type="checkbox" name={`${type}-all_day`} defaultChecked={/^(on|true|1)$/.test(v[`${type}-all_day`] ?? '')} /> All day
    </label>
  );
  const panel = (type: ScheduleType, children: ReactNode) => (
    <div role="tabpanel" id={`${uid}-panel-${type}`} aria-labelledby={`${uid}-tab-${type}`} hidden={s.scheduleType !== type} className="event-form__panel">
      {children}
    </div>
  );
  const here = (type: ScheduleType, keys: string[]) => (s.scheduleType === type ? <Errors keys={keys} errors={e} /> : null);

  const onTabKey = (ev: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const delta = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    ev.preventDefault();
    const next = TABS[(index + delta + TABS.length) % TABS.length][0];
    dispatch(eventForm.scheduleTypeChanged(next));
    document.getElementById(`${uid}-tab-${next}`)?.focus();
  };

  const onVenueKey = (ev: KeyboardEvent<HTMLInputElement>) => {
    if (!s.suggestions.length) return;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      const n = s.suggestions.length;
      setActiveOption((i) => (ev.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
    } else if (ev.key === 'Enter' && activeOption >= 0) {
      ev.preventDefault();
      dispatch(eventForm.venueChosen(s.suggestions[activeOption]));
      setActiveOption(-1);
    } else if (ev.key === 'Escape') {
      dispatch(eventForm.suggestionsClosed());
    }
  };

  return (
    <form ref={formRef} className="form event-form is-enhanced" method="post" action="/events/add/" encType="multipart/form-data" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="csrfmiddlewaretoken" value={init.csrfToken} />
      {s.formError && (
        <div className="notice notice--error" role="alert" tabIndex={-1}>
          <p>{s.formError}</p>
        </div>
      )}

      <div className="field">
        <label htmlFor={`${uid}-title`}>
          Event title <span className="field__required">*</span>
        </label>
        <input id={`${uid}-title`} name="title" maxLength={255} required defaultValue={v.title ?? ''} {...invalid('title')} />
        <Errors keys={['title']} errors={e} />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-description`}>
          Description <span className="field__required">*</span>
        </label>
        <textarea id={`${uid}-description`} name="description" rows={8} required defaultValue={v.description ?? ''} {...invalid('description')} />
        <Errors keys={['description']} errors={e} />
      </div>

      <fieldset>
        <legend>Where</legend>
        <p className="event-form__checks">
          <label className="checkbox">
            <input type="checkbox" name="is_multiple_venues" checked={s.multipleVenues} disabled={s.virtual} onChange={(ev) => dispatch(eventForm.multipleVenuesToggled(ev.target.checked))} /> Multiple venues
          </label>
          <label className="checkbox">
            <input type="checkbox" name="is_virtual_event" checked={s.virtual} disabled={s.multipleVenues} onChange={(ev) => dispatch(eventForm.virtualToggled(ev.target.checked))} /> Virtual event
          </label>
        </p>
        <input type="hidden" name="listing" value={s.venue.listingId} disabled={placeless} />
        <div className="field event-form__venue">
          <label htmlFor={`${uid}-venue`}>Venue</label>
          {/* The list hangs from the field itself (the column around them would put it at its top). */}
          <div className="event-form__combobox">
          <input
            id={`${uid}-venue`}
            name={venueFieldName(s)}
            maxLength={255}
            autoComplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={s.suggestions.length > 0}
            aria-controls={listboxId}
            aria-activedescendant={activeOption >= 0 && s.suggestions.length ? `${listboxId}-${activeOption}` : undefined}
            value={s.venue.name}
            disabled={placeless}
            onChange={(ev) => {
              setActiveOption(-1);
              dispatch(eventForm.venueTyped(ev.target.value));
            }}
            onKeyDown={onVenueKey}
            onBlur={() => {
              dispatch(eventForm.venueLeft());
              window.setTimeout(() => dispatch(eventForm.suggestionsClosed()), 150);
            }}
            {...invalid('venueName', 'venueDisplayName')}
          />
          <ul id={listboxId} role="listbox" aria-label="Venue suggestions" className="event-form__suggestions" hidden={!s.suggestions.length}>
            {s.suggestions.map((l, i) => (
              <li
                key={`${l.kind}-${l.id}-${l.name}`}
                id={`${listboxId}-${i}`}
                role="option"
                aria-selected={i === activeOption}
                className={i === activeOption ? 'is-active' : undefined}
                onMouseDown={(ev) => {
                  ev.preventDefault();
                  dispatch(eventForm.venueChosen(l));
                }}
              >
                {l.kind === 'address' ? (
                  <>
                    <span className="event-form__kind">Address</span> <strong>{l.name}</strong>
                  </>
                ) : (
                  <>
                    <span className="event-form__kind">Place</span> <strong>{l.name}</strong> <span>{l.address}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
          </div>
          {/* Always in the page, so screen readers hear 'No results found' when it appears. */}
          <p className="event-form__venue-message" role="status">
            {venueMessage}
          </p>
          <span className="field__hint">Start typing to pick a place we list or a street address, or type the venue name.</span>
          <Errors keys={['venueName', 'venueDisplayName']} errors={e} />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-address`}>Address</label>
          <input id={`${uid}-address`} name="address" maxLength={255} value={s.venue.address} disabled={placeless} onChange={(ev) => dispatch(eventForm.addressChanged(ev.target.value))} {...invalid('address')} />
          <span className="field__hint">Not needed for multiple venues or a virtual event.</span>
          <Errors keys={['address']} errors={e} />
        </div>
        <div className="field">
          <label htmlFor={`${uid}-website`}>Website</label>
          <input id={`${uid}-website`} name="website" type="url" maxLength={500} defaultValue={v.website ?? ''} {...invalid('website')} />
          <Errors keys={['website']} errors={e} />
        </div>
      </fieldset>

      <fieldset className="event-form__schedule">
        <legend>When</legend>
        <input type="hidden" name="schedule_type" value={s.scheduleType} />
        <div role="tablist" aria-label="Schedule" className="tabs event-form__tabs">
          {TABS.map(([type, label], i) => (
            <button
              key={type}
              type="button"
              role="tab"
              id={`${uid}-tab-${type}`}
              aria-selected={s.scheduleType === type}
              aria-controls={`${uid}-panel-${type}`}
              tabIndex={s.scheduleType === type ? 0 : -1}
              className={`tabs__link${s.scheduleType === type ? ' is-active' : ''}`}
              onClick={() => dispatch(eventForm.scheduleTypeChanged(type))}
              onKeyDown={(ev) => onTabKey(ev, i)}
            >
              {label}
            </button>
          ))}
        </div>
        <Errors keys={['schedule_type']} errors={e} />

        {panel(
          'single_day',
          <>
            <div className="inline-form">
              {dateField('single_day-date', 'Date', 'date')}
              {timeField('single_day-start_time', 'Start time', init.defaults.startTime, 'startTime')}
              {timeField('single_day-end_time', 'End time', init.defaults.endTime, 'endTime')}
            </div>
            {allDay('single_day')}
            {here('single_day', ['date', 'startTime', 'endTime'])}
          </>,
        )}
        {panel(
          'day_range',
          <>
            <div className="inline-form">
              {dateField('day_range-start_date', 'Start date', 'startDate')}
              {dateField('day_range-end_date', 'End date', 'endDate')}
              {timeField('day_range-start_time', 'Start time', init.defaults.startTime, 'startTime')}
              {timeField('day_range-end_time', 'End time', init.defaults.endTime, 'endTime')}
            </div>
            {allDay('day_range')}
            {here('day_range', ['startDate', 'endDate', 'startTime', 'endTime'])}
          </>,
        )}
        {panel(
          'weekly',
          <>
            <h3 className="event-form__subhead">Event Duration</h3>
            <div className="inline-form">
              {dateField('weekly-start_date', 'Start date', 'startDate')}
              {dateField('weekly-end_date', 'End date', 'endDate')}
            </div>
            {here('weekly', ['startDate', 'endDate'])}
            <fieldset className="event-form__weekdays" {...invalid('weekDays')}>
              <legend>Recurring Weekly on</legend>
              {WEEKDAYS.map(([value, label]) => (
                <label key={value} className="checkbox">
                  <input type="checkbox" name="weekly-weekdays" value={value} checked={s.weekdays.includes(value)} onChange={() => dispatch(eventForm.weekdayToggled(value))} /> {label}
                </label>
              ))}
            </fieldset>
            {here('weekly', ['weekDays'])}
            <div className="inline-form">
              {timeField('weekly-start_time', 'Start time', init.defaults.startTime, 'startTime')}
              {timeField('weekly-end_time', 'End time', init.defaults.endTime, 'endTime')}
            </div>
            {allDay('weekly')}
            {here('weekly', ['startTime', 'endTime'])}
          </>,
        )}
        {panel(
          'irregular',
          <>
            <h3 className="event-form__subhead">Various Event Dates</h3>
            <input type="hidden" name="irregular-TOTAL_FORMS" value={s.irregularRows.length} />
            <input type="hidden" name="irregular-INITIAL_FORMS" value="0" />
            <input type="hidden" name="irregular-MIN_NUM_FORMS" value="0" />
            <input type="hidden" name="irregular-MAX_NUM_FORMS" value="100" />
            {/* Keyed by row id, so a removed row takes its typed values with it; the names stay 0…n-1 as the formset wants. */}
            {s.irregularRows.map((rowId, i) => (
              <div className="inline-form event-form__date-row" key={rowId}>
                {dateField(`irregular-${i}-start_date`, `Date ${i + 1}`, 'date', rowId)}
                {timeField(`irregular-${i}-start_time`, 'Start time', init.defaults.startTime, 'startTime')}
                {timeField(`irregular-${i}-end_time`, 'End time', init.defaults.endTime, 'endTime')}
                {s.irregularRows.length > 1 && (
                  <button type="button" className="button--quiet event-form__remove-date" onClick={() => dispatch(eventForm.irregularRowRemoved(rowId))} aria-label={`Remove date ${i + 1}`}>
                    Remove
                  </button>
                )}
              </div>
            ))}
            <p>
              <button type="button" className="button--quiet" onClick={() => dispatch(eventForm.irregularRowAdded())} disabled={s.irregularRows.length >= 100}>
                + Add another date
              </button>
            </p>
            {allDay('irregular')}
            {here('irregular', ['date', 'startTime', 'endTime'])}
          </>,
        )}
      </fieldset>

      <fieldset className="event-form__image">
        <legend>Event Image</legend>
        <p className="field__hint">Only {init.city}-based events will be approved for posting.</p>
        <p className="field__hint">At least 615 pixels wide (about 1000 is best); JPG, PNG, GIF, BMP or TIFF, under about 5 MB.</p>
        {IMAGE_FIELDS.map((name) => (
          <input key={name} type="hidden" name={name} value={s.image.fields[name]} />
        ))}
        <input type="hidden" name="box_width" value="300" />
        <input type="hidden" name="box_height" value="200" />
        {s.image.fields.thumbnail_image_url && (
          <div className="event-form__preview">
            <img src={pictureUrl(s.image.fields.thumbnail_image_url)} alt="The event image you uploaded" width={300} height={200} />
            <button type="button" className="button--quiet" onClick={() => dispatch(eventForm.imageRemoved())}>
              Remove image
            </button>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${uid}-image`}>{s.image.fields.uploaded_image_url ? 'Replace the image' : 'Image'}</label>
          <input
            ref={fileRef}
            id={`${uid}-image`}
            type="file"
            accept="image/*"
            disabled={s.image.status === 'uploading'}
            onChange={(ev) => {
              const file = ev.target.files?.[0];
              if (file) dispatch(eventForm.imageSelected({ fileId: registerFile(file), name: file.name }));
              ev.target.value = '';
            }}
            {...invalid('image')}
          />
          <p className="field__status" role="status">{s.image.status === 'uploading' ? 'Uploading...' : ''}</p>
          {s.image.error && <p className="field-error" role="alert">* {s.image.error}</p>}
          <Errors keys={['image']} errors={e} />
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" disabled={s.submitting || s.image.status === 'uploading'}>
          {s.submitting ? 'Submitting...' : 'Submit event'}
        </button>
      </div>

      {s.confirmImage && (
        <Dialog title="Add an image to get noticed" onClose={() => dispatch(eventForm.imageConfirmClosed())}>
          <p>Events with an image get far more attention. Would you like to add one before submitting?</p>
          <div className="form-actions">
            <button
              type="button"
              onClick={() => {
                dispatch(eventForm.imageConfirmClosed());
                window.setTimeout(() => fileRef.current?.focus(), 0);
              }}
            >
              I want to add an image
            </button>
            <button
              type="button"
              className="button--secondary"
              onClick={() => formRef.current && dispatch(eventForm.submitRequested({ entries: formEntries(formRef.current), withoutImage: true }))}
            >
              Continue with no image
            </button>
          </div>
        </Dialog>
      )}
    </form>
  );
}
