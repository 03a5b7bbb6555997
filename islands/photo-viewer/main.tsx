import { Provider } from 'react-redux';
import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { photoViewerApi } from './api';
import { PhotoViewerApp } from './components/PhotoViewerApp';
import { browserHistory } from './history';
import { createPhotoViewerStore } from './store';

// The photo viewer (spec 2 §2): on the listing page's photo strip and the photo list, a
// thumbnail opens its photo over the page at the photo's share path. State:
// server/apps/photos/pages.ts and server/apps/listings/pages.ts (shared/photo-viewer.ts).
mountIsland('photo-viewer', () => {
  const init = initialStateFor('photo-viewer');
  if (!init?.photos.length) return null;
  const store = createPhotoViewerStore(init, { api: photoViewerApi, history: browserHistory });
  return (
    <Provider store={store}>
      <PhotoViewerApp />
    </Provider>
  );
});
