import { Provider } from 'react-redux';
import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { photoUploaderApi } from './api';
import { PhotoUploader, RecentUploadNotice } from './components/PhotoUploader';
import { createPhotoUploaderStore } from './store';

// The listing photo page's uploader (?upload=1) and, after an upload, the 8-second notice.
mountIsland('photo-uploader', () => {
  const init = initialStateFor('photo-uploader');
  if (!init) return null;
  const store = createPhotoUploaderStore({
    api: photoUploaderApi,
    navigate: (url) => window.location.assign(url),
    listingId: init.listing.id,
    completionPath: init.completionPath,
  });
  return (
    <Provider store={store}>
      <RecentUploadNotice />
      {init.upload && <PhotoUploader maxMb={init.maxMb} listingName={init.listing.name} cancelPath={init.completionPath} />}
    </Provider>
  );
});
