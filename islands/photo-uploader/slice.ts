import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UploadItem } from './types';

// The uploader (spec 1 §4 "Photo upload"): one photo at a time; `pending` while one is in
// flight, success advances activeIndex, failure clears pending; finished when activeIndex
// equals the number of files. Each file is idle, uploading (percent), complete or error.

export type Phase = 'select' | 'reading' | 'uploading' | 'finished' | 'redirecting';

export interface UploaderState {
  items: UploadItem[];
  activeIndex: number;
  pending: boolean;
  phase: Phase;
  rejected: boolean;
  error: string | null;
  /** The recent-upload notice on the photo list: how many were just added (0 = hidden). */
  noticeCount: number;
}

export const initialUploaderState: UploaderState = { items: [], activeIndex: 0, pending: false, phase: 'select', rejected: false, error: null, noticeCount: 0 };

export const uploaderSlice = createSlice({
  name: 'uploader',
  initialState: initialUploaderState,
  reducers: {
    filesAdded(state, action: PayloadAction<Array<Pick<UploadItem, 'id' | 'name' | 'size' | 'previewUrl'>>>) {
      for (const f of action.payload) state.items.push({ ...f, status: 'idle', percent: 0 });
    },
    fileRemoved(state, action: PayloadAction<string>) {
      if (state.pending) return;
      const index = state.items.findIndex((i) => i.id === action.payload);
      if (index < 0 || state.items[index].status === 'complete') return;
      state.items.splice(index, 1);
    },
    fileRejected(state) {
      state.rejected = true;
    },
    rejectionDismissed(state) {
      state.rejected = false;
    },
    uploadRequested(state) {
      state.error = null;
    },
    uploadStarted(state) {
      state.pending = true;
      state.phase = 'reading';
      const item = state.items[state.activeIndex];
      if (item) {
        item.status = 'uploading';
        item.percent = 0;
      }
    },
    uploadSending(state) {
      state.phase = 'uploading';
    },
    uploadProgress(state, action: PayloadAction<number>) {
      const item = state.items[state.activeIndex];
      if (item) item.percent = Math.max(item.percent, Math.min(99, Math.round(action.payload)));
    },
    uploadSucceeded(state) {
      const item = state.items[state.activeIndex];
      if (item) {
        item.status = 'complete';
        item.percent = 100;
      }
      state.pending = false;
      state.activeIndex += 1;
      if (state.activeIndex >= state.items.length) state.phase = 'finished';
    },
    uploadFailed(state, action: PayloadAction<string>) {
      const item = state.items[state.activeIndex];
      if (item) item.status = 'error';
      state.pending = false;
      state.phase = 'select';
      state.error = action.payload;
    },
    redirecting(state) {
      state.phase = 'redirecting';
    },
    noticeShown(state, action: PayloadAction<number>) {
      state.noticeCount = action.payload;
    },
    noticeHidden(state) {
      state.noticeCount = 0;
    },
  },
});

export const uploader = uploaderSlice.actions;

/** Files still to send: the active one onwards (a failed one is retried). */
export const remainingCount = (s: UploaderState) => s.items.length - s.activeIndex;
