import { Errors, invalidProps, type FieldErrorMap } from './FieldErrors';

// What: the event's title and description (plain fields; the server reads them as typed).
export function WhatSection({ uid, values, errors }: { uid: string; values: Record<string, string>; errors: FieldErrorMap }) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${uid}-title`}>
          Event title <span className="field__required">*</span>
        </label>
        <input id={`${uid}-title`} name="title" maxLength={255} required defaultValue={values.title ?? ''} {...invalidProps(errors, 'title')} />
        <Errors keys={['title']} errors={errors} />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-description`}>
          Description <span className="field__required">*</span>
        </label>
        <textarea id={`${uid}-description`} name="description" rows={8} required defaultValue={values.description ?? ''} {...invalidProps(errors, 'description')} />
        <Errors keys={['description']} errors={errors} />
      </div>
    </>
  );
}
