import { Provider } from 'react-redux';
import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { VideoThumb } from './components/VideoThumb';
import { createVideoGridStore, type VideoGridStore } from './store';

// The videos hubs' grid (spec 2 §2 "Other hubs", §4): each card's thumbnail placeholder
// (templates/videos/partials.njk, data-video-id) plays its video in place. The cards' save
// controls are the saves island's (a guest's try opens the login dialog and is remembered).
// State: server/apps/videos/pages.ts.
let store: VideoGridStore | null = null;

mountIsland('video-grid', (el) => {
  const videoId = Number(el.dataset.videoId);
  store ??= createVideoGridStore(initialStateFor('video-grid')?.videos ?? []);
  if (!store.getState().player.videos[videoId]) return null;
  return (
    <Provider store={store}>
      <VideoThumb videoId={videoId} eager={Boolean(el.querySelector('img[fetchpriority]'))} />
    </Provider>
  );
});
