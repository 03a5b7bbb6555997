import { createIslandStore } from '../common/store';
import { photoViewerSaga, type PhotoViewerContext } from './sagas';
import { viewerSlice, viewerStateFrom, type PhotoViewerRootState } from './slice';
import type { PhotoViewerState } from '../../shared/photo-viewer';

export function createPhotoViewerStore(init: PhotoViewerState, context: PhotoViewerContext) {
  return createIslandStore<PhotoViewerRootState>({
    reducer: { viewer: viewerSlice.reducer },
    saga: photoViewerSaga,
    preloadedState: { viewer: viewerStateFrom(init) },
    context: context as unknown as Record<string, unknown>,
  });
}

export type PhotoViewerStore = ReturnType<typeof createPhotoViewerStore>;
export type PhotoViewerDispatch = PhotoViewerStore['dispatch'];
