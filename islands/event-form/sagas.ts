import { all, call, delay, getContext, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import { ApiError } from '../common/api';
import { TIMINGS_MS } from '../../shared/constants';
import type { EventFormApi } from './api';
import { fileFor } from './files';
import { eventForm, type EventFormState } from './slice';
import type { ImageUploadResponse, VenueSuggestion } from './types';

// Three flows: the venue type-ahead (above 2 characters, 600 ms after the last keystroke, the
// newest search wins), the event image upload, and the submission (the image confirmation
// first, then the multipart post, then the server's errors or its success redirect).

export interface EventFormContext {
  api: EventFormApi;
  navigate: (url: string) => void;
  debounceMs?: number;
}

export const NETWORK_ERROR = 'Something went wrong. Please check your connection and try again.';
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff'];

type RootState = { eventForm: EventFormState };

/** '401 Bay St', '12a Elm': a house number, then a street. */
export const looksLikeAddress = (text: string) => /^\d+[a-z]?\s+\S/i.test(text);

/** Addresses are a help beside the places: if the geocoder fails, the places still show. */
function* addressesOrNone(api: EventFormApi, text: string) {
  try {
    const found: VenueSuggestion[] = yield call(api.searchAddresses, text);
    return found;
  } catch {
    return [];
  }
}

function* searchVenue(action: PayloadAction<string>) {
  const ctx: EventFormContext = yield getContext('eventForm');
  const keywords = action.payload.trim();
  if (keywords.length <= 2) return;
  yield delay(ctx.debounceMs ?? TIMINGS_MS.venueSearchDebounce);
  yield put(eventForm.searchStarted());
  try {
    // Text that starts with a house number is an address too: its street addresses first.
    const [addresses, places]: [VenueSuggestion[], VenueSuggestion[]] = yield all([
      looksLikeAddress(keywords) ? call(addressesOrNone, ctx.api, keywords) : [],
      call(ctx.api.searchListings, keywords),
    ]);
    const results = [...addresses, ...places];
    // A suggestion chosen (or the field left) meanwhile: these results are stale.
    const venue: EventFormState['venue'] = yield select((r: RootState) => r.eventForm.venue);
    if (venue.listingId || venue.name.trim() !== keywords) return;
    yield put(eventForm.suggestionsLoaded(results));
  } catch {
    yield put(eventForm.suggestionsFailed());
  }
}

/** Spec 1 §5: image/* only; known image types that fail show the network text. */
export function imageFileError(file: Pick<File, 'name' | 'type'>): string | null {
  const ext = (/\.([^.]+)$/.exec(file.name)?.[1] ?? '').toLowerCase();
  if (!file.type.startsWith('image/') || !IMAGE_EXTENSIONS.includes(ext)) return `Unsupported file type ".${ext}"`;
  return null;
}

function* uploadImage(action: PayloadAction<{ fileId: string; name: string }>) {
  const ctx: EventFormContext = yield getContext('eventForm');
  const file = fileFor(action.payload.fileId);
  if (!file) return;
  const bad = imageFileError(file);
  if (bad) {
    yield put(eventForm.imageRejected(bad));
    return;
  }
  try {
    const res: ImageUploadResponse = yield call(ctx.api.uploadImage, file);
    yield put(eventForm.imageUploaded(res));
  } catch (err) {
    // 400: what is wrong with the file; 507: the server has no room for it now (its message says so).
    const first = err instanceof ApiError && (err.status === 400 || err.status === 507) ? (err.first('file') ?? err.first('non_field_errors') ?? err.first('detail')) : undefined;
    yield put(eventForm.imageRejected(first ? first.replace(/^\* /, '') : NETWORK_ERROR));
  }
}

function* submit(action: PayloadAction<{ entries: Array<[string, string]>; withoutImage?: boolean }>) {
  const ctx: EventFormContext = yield getContext('eventForm');
  const state: EventFormState = yield select((r: RootState) => r.eventForm);
  if (state.submitting || state.image.status === 'uploading') return;
  if (!state.image.fields.uploaded_image_url && !action.payload.withoutImage) {
    yield put(eventForm.imageConfirmOpened());
    return;
  }
  yield put(eventForm.submitStarted());
  try {
    const res: { success_url: string } = yield call(ctx.api.submit, action.payload.entries);
    yield put(eventForm.submitSucceeded());
    yield call(ctx.navigate, res.success_url);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) {
      const errors: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(err.body as Record<string, unknown>)) errors[k] = Array.isArray(v) ? v.map(String) : [String(v)];
      yield put(eventForm.submitFailed({ errors }));
    } else if (err instanceof ApiError && err.status === 401) {
      yield put(eventForm.submitFailed({ errors: {}, message: 'Your session has ended. Please log in again and resubmit.' }));
    } else {
      yield put(eventForm.submitFailed({ errors: {}, message: err instanceof ApiError ? err.message : NETWORK_ERROR }));
    }
  }
}

export function* eventFormSaga(): Generator {
  yield takeLatest(eventForm.venueTyped.type, searchVenue);
  yield takeLatest(eventForm.imageSelected.type, uploadImage);
  yield takeLeading(eventForm.submitRequested.type, submit);
}
