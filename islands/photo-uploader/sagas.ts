import { buffers, eventChannel, END, type EventChannel } from 'redux-saga';
import { call, delay, getContext, put, select, take, takeLeading } from 'redux-saga/effects';
import { ApiError } from '../common/api';
import { readItem, STORAGE_KEYS, writeItem } from '../common/storage';
import { TIMINGS_MS } from '../../shared/constants';
import type { PhotoUploaderApi } from './api';
import { fileFor } from './files';
import { uploader, type UploaderState } from './slice';

// Two flows: the upload (one photo at a time, then the recent-upload count is stored and the
// page returns to the photo list ~1 s later), and the recent-upload notice on the list (8 s).

export interface PhotoUploaderContext {
  api: PhotoUploaderApi;
  navigate: (url: string) => void;
  listingId: number;
  completionPath: string;
  /** Overridable in tests. */
  redirectDelayMs?: number;
  noticeMs?: number;
}

type RootState = { uploader: UploaderState };

// The count is kept in localStorage (spec 1 §3) and mirrored in sessionStorage for this tab:
// the navbar clears every local store on load when it finds no app version, which would
// otherwise lose the count across the redirect.
function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function readRecentUploads(): number {
  const fromSession = Number(session()?.getItem(STORAGE_KEYS.recentUploads) ?? 0);
  return Math.max(readItem<number>(STORAGE_KEYS.recentUploads) ?? 0, Number.isFinite(fromSession) ? fromSession : 0);
}

export function writeRecentUploads(n: number): void {
  writeItem(STORAGE_KEYS.recentUploads, n);
  try {
    if (n > 0) session()?.setItem(STORAGE_KEYS.recentUploads, String(n));
    else session()?.removeItem(STORAGE_KEYS.recentUploads);
  } catch {
    // storage full or disabled: the notice is a nicety
  }
}

/**
 * The photo list to return to, at a URL no cache has seen: the list itself is shared and sent
 * `max-age=60`, so the browser (or a cache in front of the app) would answer the plain URL with
 * its copy from before the upload. The newest photo's id makes the URL new; the page ignores
 * the parameter and its canonical link is the plain list.
 */
export function listAfterUploadPath(completionPath: string, newestPhotoId: number | null): string {
  return newestPhotoId === null ? completionPath : `${completionPath}?added=${newestPhotoId}`;
}

type Msg = { progress: number } | { done: true; id: number } | { error: unknown };

function uploadChannel(api: PhotoUploaderApi, body: Parameters<PhotoUploaderApi['uploadPhoto']>[0]): EventChannel<Msg> {
  return eventChannel<Msg>((emit) => {
    api.uploadPhoto(body, (progress) => emit({ progress })).then(
      (photo) => {
        emit({ done: true, id: photo.id });
        emit(END);
      },
      (error: unknown) => {
        emit({ error });
        emit(END);
      },
    );
    return () => {};
  }, buffers.expanding<Msg>(10));
}

export const uploadErrorMessage = (err: unknown): string => {
  if (err instanceof ApiError) return err.first('image') ?? err.first('listing') ?? err.message;
  return 'Something went wrong. Please check your connection and try again.';
};

function* uploadAll() {
  const ctx: PhotoUploaderContext = yield getContext('uploader');
  let newestPhotoId: number | null = null;
  for (;;) {
    const s: UploaderState = yield select((r: RootState) => r.uploader);
    if (s.activeIndex >= s.items.length) break;
    const item = s.items[s.activeIndex];
    yield put(uploader.uploadStarted());
    const file = fileFor(item.id);
    try {
      if (!file) throw new Error('missing file');
      const image: string = yield call(ctx.api.readAsBase64, file);
      yield put(uploader.uploadSending());
      const chan: EventChannel<Msg> = yield call(uploadChannel, ctx.api, { image, title: '', description: '', listing: ctx.listingId });
      for (;;) {
        const msg: Msg = yield take(chan);
        if ('progress' in msg) yield put(uploader.uploadProgress(msg.progress));
        else if ('error' in msg) throw msg.error;
        else {
          newestPhotoId = msg.id;
          break;
        }
      }
      yield put(uploader.uploadSucceeded());
    } catch (err) {
      yield put(uploader.uploadFailed(uploadErrorMessage(err)));
      return;
    }
  }
  const done: UploaderState = yield select((r: RootState) => r.uploader);
  if (done.phase !== 'finished') return;
  writeRecentUploads(readRecentUploads() + done.items.length);
  yield delay(ctx.redirectDelayMs ?? TIMINGS_MS.photoUploadRedirect);
  yield put(uploader.redirecting());
  yield call(ctx.navigate, listAfterUploadPath(ctx.completionPath, newestPhotoId));
}

/** On the photo list: 'N photos added' for 8 s after an upload, once. */
export function* recentUploadNotice() {
  const ctx: PhotoUploaderContext = yield getContext('uploader');
  const count = readRecentUploads();
  if (!count || count < 1) return;
  writeRecentUploads(0);
  yield put(uploader.noticeShown(count));
  yield delay(ctx.noticeMs ?? TIMINGS_MS.recentUploadNotice);
  yield put(uploader.noticeHidden());
}

export function* photoUploaderSaga(): Generator {
  yield takeLeading(uploader.uploadRequested.type, uploadAll);
}
