import type { RefObject } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { pictureUrl } from '../../common/picture-url';
import { registerFile } from '../files';
import { eventForm, IMAGE_FIELDS } from '../slice';
import type { EventFormRootState } from '../store';
import { Errors, invalidProps } from './FieldErrors';

// The event image: uploaded as soon as it is chosen (the sagas), then posted with the form as
// the hidden fields of the upload's answer; a preview with a way to remove it.
export function ImageSection({ uid, city, fileRef }: { uid: string; city: string; fileRef: RefObject<HTMLInputElement | null> }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  return (
    <fieldset className="event-form__image">
      <legend>Event Image</legend>
      <p className="field__hint">Only {city}-based events will be approved for posting.</p>
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
          {...invalidProps(s.errors, 'image')}
        />
        <p className="field__status" role="status">{s.image.status === 'uploading' ? 'Uploading...' : ''}</p>
        {s.image.error && <p className="field-error" role="alert">* {s.image.error}</p>}
        <Errors keys={['image']} errors={s.errors} />
      </div>
    </fieldset>
  );
}
