import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Dialog } from '../../common/Dialog';
import { FieldError } from '../../common/FieldError';
import { checkProfilePhoto, PHOTO_DIALOG_TITLE, photoDialogText } from '../avatar';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import { profileActions } from '../slices/profile';

// The greeting panel's photo section (spec 1 §4 "Profile edit", §5): choose a JPG of at most
// 6 MB, crop it to a square, save. A file that is too large or not a JPG opens the size dialog
// and the section stays open for another try.

const PhotoCropper = lazy(() => import('./PhotoCropper'));

export function PhotoSection() {
  const dispatch = useDashboardDispatch();
  const { data, openSection } = useDashboardSelector((s) => s.profile);
  if (openSection !== 'photo') {
    return (
      <button type="button" className="button--quiet dash-link" onClick={() => dispatch(profileActions.sectionOpened('photo'))}>
        {data?.avatar_url ? 'Change photo' : 'Add a photo'}
      </button>
    );
  }
  return <PhotoForm />;
}

/** Mounted while the section is open: closing it drops the chosen photo and its crop. */
function PhotoForm() {
  const dispatch = useDashboardDispatch();
  const { photoStatus, photoError } = useDashboardSelector((s) => s.profile);
  const inputId = useId();
  const [source, setSource] = useState<string | null>(null);
  const [cropped, setCropped] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);

  // The chosen file's object URL lives as long as the cropper shows it.
  useEffect(() => {
    if (!source) return;
    return () => URL.revokeObjectURL(source);
  }, [source]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (checkProfilePhoto(file) !== 'ok') {
      setRefused(true);
      return;
    }
    setCropped(null);
    setSource(URL.createObjectURL(file));
  };
  const saving = photoStatus === 'saving';
  return (
    <div className="dash-photo-form">
      <label htmlFor={inputId} className="dash-photo-form__choose">
        {source ? 'Choose another photo' : 'Choose a photo'} <span className="dash-muted">(JPG, 6 MB or less)</span>
      </label>
      <input
        id={inputId}
        type="file"
        accept="image/jpeg"
        onChange={(e) => {
          choose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {source && (
        <Suspense fallback={<p className="dash-placeholder">Loading the cropper…</p>}>
          <PhotoCropper src={source} onCropped={setCropped} />
          {cropped && (
            <p className="dash-photo-form__preview">
              <img src={cropped} alt="Preview of your new photo" width={80} height={80} />
            </p>
          )}
        </Suspense>
      )}
      <FieldError message={photoError ?? undefined} />
      <div className="dash-actions">
        <button type="button" disabled={!cropped || saving} onClick={() => cropped && dispatch(profileActions.photoSaveRequested(cropped))}>
          {saving ? 'Saving…' : 'Save photo'}
        </button>
        <button type="button" className="button--secondary" onClick={() => dispatch(profileActions.sectionClosed())}>
          Cancel
        </button>
      </div>
      {refused && (
        <Dialog title={PHOTO_DIALOG_TITLE} onClose={() => setRefused(false)} className="dash-confirm dash-photo-dialog">
          <p>{photoDialogText()}</p>
          <div className="dash-confirm__actions">
            <button type="button" onClick={() => setRefused(false)}>
              OK
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
