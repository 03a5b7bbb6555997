import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';
import type { EventFormInitialState } from '../types';
import { ImageSection } from './ImageSection';
import { SubmitBar } from './SubmitBar';
import { WhatSection } from './WhatSection';
import { WhenSection } from './WhenSection';
import { WhereSection } from './WhereSection';

export { isValidTime } from './ScheduleFields';

// The add-event form, rendered by the island with the same field names as the no-JavaScript
// form in templates/event-submissions/form.njk (the server reads either). One component per
// section of the form; this one owns the form element, its submission and the error focus.

export function formEntries(form: HTMLFormElement): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  new FormData(form).forEach((v, k) => {
    if (typeof v === 'string') out.push([k, v]);
  });
  return out;
}

export function EventForm({ init }: { init: EventFormInitialState }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  // One id prefix for the whole form, so the sections' ids stay what they were.
  const uid = useId();

  useEffect(() => {
    if (!s.formError) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? formRef.current?.querySelector<HTMLElement>('.notice--error'))?.focus();
  }, [s.formError, s.errors]);

  const onSubmit = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    dispatch(eventForm.submitRequested({ entries: formEntries(ev.currentTarget) }));
  };

  return (
    <form ref={formRef} className="form event-form is-enhanced" method="post" action="/events/add/" encType="multipart/form-data" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="csrfmiddlewaretoken" value={init.csrfToken} />
      {s.formError && (
        <div className="notice notice--error" role="alert" tabIndex={-1}>
          <p>{s.formError}</p>
        </div>
      )}
      <WhatSection uid={uid} values={init.values} errors={s.errors} />
      <WhereSection uid={uid} values={init.values} />
      <WhenSection uid={uid} init={init} />
      <ImageSection uid={uid} city={init.city} fileRef={fileRef} />
      <SubmitBar
        onAddImage={() => window.setTimeout(() => fileRef.current?.focus(), 0)}
        onSubmitWithoutImage={() => formRef.current && dispatch(eventForm.submitRequested({ entries: formEntries(formRef.current), withoutImage: true }))}
      />
    </form>
  );
}
