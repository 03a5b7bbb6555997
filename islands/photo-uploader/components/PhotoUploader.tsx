import { useId, useRef, useState, type DragEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Dialog } from '../../common/Dialog';
import { isAcceptablePhoto, photoCountLabel, registerFile } from '../files';
import { remainingCount, uploader } from '../slice';
import type { PhotoUploaderRootState } from '../store';
import type { UploadItem } from '../types';

// The drop zone, the previews (each with delete), 'Post N Photo(s)' and the per-file progress.

const STATUS_TEXT: Record<UploadItem['status'], string> = { idle: 'Ready', uploading: 'Uploading...', complete: 'Completed!', error: 'Failed' };

export function PhotoUploader({ maxMb, listingName, cancelPath }: { maxMb: number; listingName: string; cancelPath: string }) {
  const dispatch = useDispatch();
  const s = useSelector((r: PhotoUploaderRootState) => r.uploader);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const busy = s.pending || s.phase === 'finished' || s.phase === 'redirecting';
  const remaining = remainingCount(s);

  const add = (list: FileList | File[] | null) => {
    if (!list || busy) return;
    const accepted = [];
    let rejected = false;
    for (const file of Array.from(list)) {
      if (!isAcceptablePhoto(file, maxMb)) {
        rejected = true;
        continue;
      }
      const previewUrl = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '';
      accepted.push({ id: registerFile(file), name: file.name, size: file.size, previewUrl });
    }
    if (accepted.length) dispatch(uploader.filesAdded(accepted));
    if (rejected) dispatch(uploader.fileRejected());
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer?.files ?? null);
  };

  let progress: string | null = null;
  if (s.phase === 'reading') progress = `Adding ${photoCountLabel(remaining)}`;
  else if (s.phase === 'uploading') progress = `Uploading ${photoCountLabel(remaining)}`;
  else if (s.phase === 'finished') progress = 'Completed!';
  else if (s.phase === 'redirecting') progress = 'Redirecting...';

  return (
    <section className="photo-uploader" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="photo-uploader__title">Upload photos of {listingName}</h2>
      <div
        className={`photo-uploader__drop${dragging ? ' is-dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
      >
        <p>{s.items.length ? 'Drag and drop additional photos here, or...' : 'Drag and drop your photos here, or...'}</p>
        <label htmlFor={inputId} className={`button button--secondary${busy ? ' is-disabled' : ''}`}>
          Choose photos
        </label>
        <input
          ref={input}
          id={inputId}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,.jpg,.jpeg"
          multiple
          disabled={busy}
          onChange={(e) => {
            add(e.target.files);
            if (input.current) input.current.value = '';
          }}
        />
        <p className="field__hint">JPG photos of {maxMb}mb or less.</p>
      </div>

      {s.items.length > 0 && (
        <ul className="photo-uploader__list">
          {s.items.map((item) => (
            <li key={item.id} className={`photo-uploader__item is-${item.status}`}>
              {item.previewUrl ? <img src={item.previewUrl} alt={`Preview of ${item.name}`} width={96} height={96} /> : <span className="photo-uploader__noimg" />}
              <div className="photo-uploader__meta">
                <span className="photo-uploader__name">{item.name}</span>
                {item.status !== 'idle' && (
                  <>
                    <progress max={100} value={item.percent} aria-label={`Progress of ${item.name}`} />
                    <span className="photo-uploader__status">{STATUS_TEXT[item.status]}{item.status === 'uploading' ? ` ${item.percent}%` : ''}</span>
                  </>
                )}
              </div>
              {!busy && item.status !== 'complete' && (
                <button type="button" className="button--quiet" aria-label={`Delete ${item.name}`} onClick={() => dispatch(uploader.fileRemoved(item.id))}>
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      <p className="photo-uploader__progress" role="status" aria-live="polite">{progress}</p>
      {s.error && <p className="field-error" role="alert">* {s.error}</p>}

      <div className="form-actions">
        <button type="button" disabled={busy || remaining < 1} onClick={() => dispatch(uploader.uploadRequested())}>
          Post {photoCountLabel(Math.max(remaining, 0))}
        </button>
        <a className="button button--quiet" href={cancelPath}>
          Cancel
        </a>
      </div>

      {s.rejected && (
        <Dialog title="Sorry, this photo can't be uploaded" onClose={() => dispatch(uploader.rejectionDismissed())}>
          <p>We can only accept JPG photos that are {maxMb}mb or less. Please try again with a different image.</p>
          <div className="form-actions">
            <button type="button" onClick={() => dispatch(uploader.rejectionDismissed())}>
              OK
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

export function RecentUploadNotice() {
  const count = useSelector((r: PhotoUploaderRootState) => r.uploader.noticeCount);
  return (
    <div role="status" aria-live="polite">
      {count > 0 && <p className="notice notice--success photo-uploader__notice">Thanks! {count === 1 ? 'Your photo was' : `Your ${count} photos were`} added.</p>}
    </div>
  );
}
