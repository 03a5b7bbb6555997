import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PhotoViewerState, ViewerPhoto } from '../../shared/photo-viewer';

// The photo viewer's state (spec 2 §2 "Photo viewer", spec 2 §3 "photo list has
// activePhotoIndex"): the photos known so far by their place in the listing's whole list
// (newest first), which one is open, and the API pages being read. The page prints one page
// of photos (or the listing page's six); moving past them reads the photos API's pages.

export type Via = 'ui' | 'history';

export interface ViewerState {
  listing: { id: number; name: string };
  count: number;
  pageSize: number;
  layout: PhotoViewerState['layout'];
  /** The thumbnails the page printed, from `offset`. */
  printed: ViewerPhoto[];
  offset: number;
  /** Index in the whole list → photo, for every photo read so far. */
  photos: Record<number, ViewerPhoto>;
  /** The open photo's index, or null when the viewer is closed. */
  activePhotoIndex: number | null;
  /** Where closing returns to: the page the viewer was opened on. */
  closedPath: string | null;
  /** Offsets of the API pages in flight. */
  loadingPages: Record<number, true>;
  /** Offsets of the API pages that failed (read again on the next move). */
  failedPages: Record<number, true>;
}

export function viewerStateFrom(init: PhotoViewerState): ViewerState {
  const photos: Record<number, ViewerPhoto> = {};
  init.photos.forEach((p, i) => (photos[init.offset + i] = p));
  return {
    listing: init.listing,
    count: init.count,
    pageSize: init.pageSize,
    layout: init.layout,
    printed: init.photos,
    offset: init.offset,
    photos,
    activePhotoIndex: null,
    closedPath: null,
    loadingPages: {},
    failedPages: {},
  };
}

/** The offset of the API page (page-aligned, so shared caches answer it) holding an index. */
export const pageOffsetOf = (index: number, pageSize: number) => Math.floor(index / pageSize) * pageSize;

const inRange = (s: ViewerState, index: number) => Number.isInteger(index) && index >= 0 && index < s.count;

export const viewerSlice = createSlice({
  name: 'viewer',
  initialState: viewerStateFrom({ listing: { id: 0, name: '' }, photos: [], offset: 0, count: 0, pageSize: 24, layout: 'grid' }),
  reducers: {
    opened(state, action: PayloadAction<{ index: number; closedPath: string; via?: Via }>) {
      if (!inRange(state, action.payload.index)) return;
      state.activePhotoIndex = action.payload.index;
      state.closedPath = action.payload.closedPath;
    },
    /** ← / →, the buttons, a swipe: only within the list (no wrapping past either end). */
    moved(state, action: PayloadAction<number>) {
      if (state.activePhotoIndex === null || !inRange(state, action.payload)) return;
      state.activePhotoIndex = action.payload;
    },
    closed(state, _action: PayloadAction<{ via: Via }>) {
      state.activePhotoIndex = null;
    },
    pageRequested(state, action: PayloadAction<number>) {
      state.loadingPages[action.payload] = true;
      delete state.failedPages[action.payload];
    },
    pageLoaded(state, action: PayloadAction<{ offset: number; photos: ViewerPhoto[] }>) {
      const { offset, photos } = action.payload;
      delete state.loadingPages[offset];
      // Photos added since the page was printed would shift the list: the count the viewer
      // started with stays the range, so 'N of M' never changes under the visitor.
      photos.forEach((p, i) => {
        if (offset + i < state.count) state.photos[offset + i] = p;
      });
    },
    pageFailed(state, action: PayloadAction<number>) {
      delete state.loadingPages[action.payload];
      state.failedPages[action.payload] = true;
    },
  },
});

export const viewer = viewerSlice.actions;

export interface PhotoViewerRootState {
  viewer: ViewerState;
}

export const selectViewer = (s: PhotoViewerRootState) => s.viewer;
export const selectIsOpen = (s: PhotoViewerRootState) => s.viewer.activePhotoIndex !== null;
export const selectActivePhoto = (s: PhotoViewerRootState): ViewerPhoto | null =>
  s.viewer.activePhotoIndex === null ? null : (s.viewer.photos[s.viewer.activePhotoIndex] ?? null);

/** What the open viewer shows around the photo: 'N of M', and which ways it can move. */
export function selectPosition(s: PhotoViewerRootState): { label: string; hasPrevious: boolean; hasNext: boolean } | null {
  const i = s.viewer.activePhotoIndex;
  if (i === null) return null;
  return { label: `${i + 1} of ${s.viewer.count}`, hasPrevious: i > 0, hasNext: i < s.viewer.count - 1 };
}
