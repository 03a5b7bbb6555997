import { eventChannel, type EventChannel } from 'redux-saga';
import { all, call, fork, getContext, put, select, take, takeEvery } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Page, PhotoDTO } from '../../shared/dto';
import { viewerPhotoFromDTO } from '../../shared/photo-viewer';
import type { PhotoViewerApi } from './api';
import type { ViewerHistory, ViewerHistoryState } from './history';
import { pageOffsetOf, selectViewer, viewer, type ViewerState, type Via } from './slice';

// The viewer's side effects: read the API pages around the open photo, keep the address bar
// on the open photo's share path (pushed on open, replaced on each move), return to the
// closed path on close, and follow Back/Forward.

export interface PhotoViewerContext {
  api: PhotoViewerApi;
  history: ViewerHistory;
}

function* ctx<K extends keyof PhotoViewerContext>(key: K) {
  return (yield getContext(key)) as PhotoViewerContext[K];
}

/** Reads the API page holding `offset` unless it is known or in flight; a failure is kept. */
export function* loadPage(offset: number) {
  const s: ViewerState = yield select(selectViewer);
  if (s.loadingPages[offset]) return;
  const api = yield* ctx('api');
  yield put(viewer.pageRequested(offset));
  try {
    const page: Page<PhotoDTO> = yield call(api.listingPhotos, s.listing.id, offset, s.pageSize);
    yield put(viewer.pageLoaded({ offset, photos: page.results.map((dto, i) => viewerPhotoFromDTO(dto, s.listing.name, offset + i + 1)) }));
  } catch {
    yield put(viewer.pageFailed(offset));
  }
}

/** The open photo and its neighbours (the lightbox shows them as the visitor swipes). */
export function* loadAround(index: number) {
  const s: ViewerState = yield select(selectViewer);
  const offsets = new Set<number>();
  for (const i of [index, index + 1, index - 1]) {
    if (i >= 0 && i < s.count && !s.photos[i]) offsets.add(pageOffsetOf(i, s.pageSize));
  }
  yield all([...offsets].map((o) => call(loadPage, o)));
}

/** The address bar follows the open photo, on the history entry the viewer pushed. */
export function* syncAddress() {
  const history = yield* ctx('history');
  const s: ViewerState = yield select(selectViewer);
  const i = s.activePhotoIndex;
  const photo = i === null ? undefined : s.photos[i];
  if (i === null || !photo || !history.current()) return;
  if (history.location() !== photo.share_path || history.current()?.photoViewer !== i) history.replace(photo.share_path, { photoViewer: i });
}

function* openFlow(action: PayloadAction<{ index: number; closedPath: string; via?: Via }>) {
  const { index, via = 'ui' } = action.payload;
  const s: ViewerState = yield select(selectViewer);
  if (s.activePhotoIndex !== index) return; // out of range: the reducer ignored it
  const photo = s.photos[index];
  if (via === 'ui' && photo) {
    const history = yield* ctx('history');
    history.push(photo.share_path, { photoViewer: index });
  }
  yield fork(loadAround, index);
}

function* moveFlow(action: PayloadAction<number>) {
  yield call(syncAddress);
  yield fork(loadAround, action.payload);
}

/** Closing returns to the closed path: Back over the entry the viewer pushed, if it is there. */
function* closeFlow(action: PayloadAction<{ via: Via }>) {
  if (action.payload.via === 'history') return;
  const history = yield* ctx('history');
  const s: ViewerState = yield select(selectViewer);
  if (history.current()) history.back();
  else if (s.closedPath && history.location() !== s.closedPath) history.replace(s.closedPath, null);
}

type Pop = { state: ViewerHistoryState | null };

/** Back closes the viewer; Forward onto a photo the viewer pushed opens it again. */
export function* historyFlow() {
  const history = yield* ctx('history');
  // eventChannel cannot carry null, so each pop is wrapped.
  const pops: EventChannel<Pop> = yield call(() => eventChannel<Pop>((emit) => history.listen((state) => emit({ state }))));
  while (true) {
    const { state }: Pop = yield take(pops);
    const s: ViewerState = yield select(selectViewer);
    if (state && s.activePhotoIndex === null) yield put(viewer.opened({ index: state.photoViewer, closedPath: s.closedPath ?? history.location(), via: 'history' }));
    else if (state) yield put(viewer.moved(state.photoViewer));
    else if (s.activePhotoIndex !== null) yield put(viewer.closed({ via: 'history' }));
  }
}

export function* photoViewerSaga() {
  yield all([
    takeEvery(viewer.opened.type, openFlow),
    takeEvery(viewer.moved.type, moveFlow),
    takeEvery(viewer.closed.type, closeFlow),
    takeEvery(viewer.pageLoaded.type, syncAddress),
    fork(historyFlow),
  ]);
}
