import { all, call } from 'redux-saga/effects';
import { createIslandStore } from '../common/store';
import { photoUploaderSaga, recentUploadNotice, type PhotoUploaderContext } from './sagas';
import { uploaderSlice, type UploaderState } from './slice';

export interface PhotoUploaderRootState {
  uploader: UploaderState;
}

export function createPhotoUploaderStore(context: PhotoUploaderContext, opts: { notice?: boolean } = {}) {
  return createIslandStore<PhotoUploaderRootState>({
    reducer: { uploader: uploaderSlice.reducer },
    saga: function* root() {
      yield all([call(photoUploaderSaga), ...(opts.notice === false ? [] : [call(recentUploadNotice)])]);
    },
    context: { uploader: context },
  });
}

export type PhotoUploaderStore = ReturnType<typeof createPhotoUploaderStore>;
